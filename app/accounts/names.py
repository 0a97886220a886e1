"""The rules of a player's name: 2 to 20 of A-Z a-z 0-9 _ -, unique without
regard to case, shown as typed, and none of the words kept for the site
itself or for the computer levels."""

from __future__ import annotations

import re

from .errors import AccountError

NAME = re.compile(r"[A-Za-z0-9_-]{2,20}")
NAME_RULE = "a name is 2 to 20 letters (A-Z, a-z), digits or _ -"

# The computer levels' names, and words a player could use to pass for the
# site, its staff or nobody in particular. Compared without regard to case.
COMPUTER_NAMES = ("Random", "Greedy", "Strong")
_COMPUTERS = frozenset(n.lower() for n in COMPUTER_NAMES)
RESERVED = frozenset({
    *(n.lower() for n in COMPUTER_NAMES),
    "admin", "administrator", "admins", "root", "system", "server", "staff", "support", "help",
    "moderator", "moderators", "mod", "mods", "operator", "owner", "official", "security",
    "magery", "mageryonline", "magery-online", "magery_online",
    "bot", "bots", "computer", "engine", "ai",
    "guest", "guests", "anonymous", "anon", "nobody", "somebody", "someone", "player", "players",
    "you", "me", "white", "black", "draw",
    "null", "none", "undefined", "nan", "true", "false",
    "closed", "deleted", "removed", "unknown",
    "api", "www", "static", "login", "logout", "signin", "sign-in", "signup", "sign-up", "account",
    "accounts", "settings", "profile", "status", "online", "open", "leaderboard", "matches", "match", "new", "learn", "docs",
})


def check_name(name: object, staff: bool = False) -> str:
    """`name` if it may be a player's name; AccountError naming the rule if not.
    An admin's (`staff`, made on the command line) may be a word kept for the
    site, "admin" say: those words are kept so that no player passes for staff."""
    if not isinstance(name, str) or not NAME.fullmatch(name):
        raise AccountError(NAME_RULE, "name")
    if name.lower() in RESERVED and not (staff and name.lower() not in _COMPUTERS):
        raise AccountError(f"the name {name!r} is kept for the site; choose another", "name")
    return name

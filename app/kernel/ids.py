"""What an identifier may look like, checked at every gateway (REST and websocket).

Refusing odd characters up front keeps them out of the database (PostgreSQL
refuses NUL) and out of JSON replies (a lone surrogate cannot be encoded).
"""

from __future__ import annotations

import re
import unicodedata

# Match ids are secrets.token_urlsafe(9): 12 URL-safe characters.
MATCH_ID = r"^[A-Za-z0-9_-]{1,32}$"
# A client's action id: 1-64 printable ASCII characters, no spaces (a UUID fits).
CLIENT_ID = r"^[\x21-\x7e]{1,64}$"
# A chosen seed is written in the position text: printable, no NUL or control
# character (C0, DEL, C1: what app/kernel/text.py refuses to store).
SEED = r"^[^\x00-\x1f\x7f-\x9f]{1,128}$"
# A display name: no control character (C0, DEL, C1), no
# bidirectional control (U+202E would show the rest of a line reversed), and
# starting and ending with a character that shows: not a blank, not a format
# character of the Basic Multilingual Plane (zero-width space, joiners, soft
# hyphen...) nor a filler that draws nothing. Written for both Python's `re` and
# JSON Schema's regexes, so the schema says exactly what the server takes.
CONTROL_CHARS = r"\x00-\x1f\x7f-\x9f"
BIDI_CHARS = r"\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
BLANK_CHARS = (r"\s\xa0\xad\u034f\u0600-\u0605\u06dd\u070f\u0890\u0891\u08e2\u115f\u1160\u17b4\u17b5"
               r"\u180e\u200b-\u200d\u2060-\u2064\u206a-\u206f\u2800\u3164\ufeff\ufff9-\ufffb\uffa0")
_ANY = f"[^{CONTROL_CHARS}{BIDI_CHARS}]"
_SHOWN = f"[^{CONTROL_CHARS}{BIDI_CHARS}{BLANK_CHARS}]"
# What a player's name may hold (a match's seat, a pool's waiter): characters
# that show, and plain spaces between them; never an invisible one inside
# either (a zero-width space in "Ad​a" made a second "Ada"). Format characters
# outside the list above and piles of combining marks are refused by
# `name_flaw` alone, which the regex cannot say.
NAME = f"^{_SHOWN}((?:{_SHOWN}| |\u200d)*{_SHOWN})?$"
JOINER = "\u200d"  # zero-width joiner: only between two symbols, where it makes one emoji (👩‍💻)
# A name as the match list's filter takes it: any name ever stored, the older
# rule's too (a blank or invisible character inside was allowed).
STORED_NAME = f"^{_SHOWN}({_ANY}*{_SHOWN})?$"
MOST_MARKS = 3  # combining marks on one character: enough for any script's, too few to pile a tower

_MATCH_ID = re.compile(MATCH_ID)
_NAME = re.compile(NAME)
_SHOWN_CHAR = re.compile(_SHOWN)
_CONTROL = re.compile(f"[{CONTROL_CHARS}]")
_BIDI = re.compile(f"[{BIDI_CHARS}]")
_CLIENT_ID = re.compile(CLIENT_ID)


def is_match_id(value: str) -> bool:
    return _MATCH_ID.match(value) is not None


def is_client_id(value: object) -> bool:
    return isinstance(value, str) and _CLIENT_ID.match(value) is not None


def shows(char: str) -> bool:
    """Whether `char` draws something by itself: not a control, a direction mark,
    a blank, a format character (zero-width...) or a mark with nothing to sit on."""
    return _SHOWN_CHAR.match(char) is not None and unicodedata.category(char) not in ("Cf", "Mn", "Me")


def name_flaw(name: str) -> str | None:
    """Why `name` is no display name (None: it is one), in words."""
    if _NAME.match(name):
        return _format_or_marks(name)
    if (found := _CONTROL.search(name)) is not None:
        return f"holds a control character (\\u{ord(found.group()):04x}) at character {found.start() + 1}"
    if (found := _BIDI.search(name)) is not None:
        return (f"holds a bidirectional control (\\u{ord(found.group()):04x}) at character {found.start() + 1},"
                " which reorders what is shown")
    if not any(_SHOWN_CHAR.match(c) for c in name):
        return "has no visible character"
    for at, char in enumerate(name[1:-1], start=2):
        if char != " " and not _SHOWN_CHAR.match(char) and not _joins_symbols(name, at - 1):
            return (f"holds a blank or invisible character (\\u{ord(char):04x}) at character {at}:"
                    " only plain spaces go between visible ones")
    return "starts or ends with a blank or invisible character"


def _joins_symbols(name: str, index: int) -> bool:
    """The character at `index` is a joiner between two symbols (an emoji's parts)."""
    return (name[index] == JOINER and 0 < index < len(name) - 1
            and unicodedata.category(name[index - 1]) == "So" and unicodedata.category(name[index + 1]) == "So")


def _format_or_marks(name: str) -> str | None:
    """A format character anywhere (but a joiner within an emoji), or more than
    MOST_MARKS combining marks on one character."""
    run = 0
    for at, char in enumerate(name, start=1):
        kind = unicodedata.category(char)
        if kind == "Cf" and not _joins_symbols(name, at - 1):
            return f"holds an invisible format character (\\u{ord(char):04x}) at character {at}"
        run = run + 1 if kind in ("Mn", "Me") else 0
        if run > MOST_MARKS:
            return (f"piles more than {MOST_MARKS} combining marks on one character (at character {at}):"
                    " they draw outside the name's line")
    return None

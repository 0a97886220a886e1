"""A log entry in words: the one teller of the match's log, for the updates,
the replay's states, the admin's timeline and the pages alike.

A game action is told by the engine (`app.rules.describe_view`, from the public
state just before it); the match's other events (a join, a draw offer, a flag
falling, an admin's ruling) are told here, as they are the match's and not the
game's. The page draws these words; it has no teller of its own.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from app.rules import MageryError
from app.rules.words import describe_view

GAME_ACTIONS = frozenset({"setup", "place", "pass", "remove"})
EVENTS = {
    "join": "{who} joins the match.",
    "draw_offer": "{who} offers a draw.",
    "draw_decline": "{who} declines the draw.",
    "draw_withdraw": "{who} withdraws the draw offer.",
    "draw_accept": "{who} accepts the draw.",
    "resign": "{who} resigns.",
    "takeback_offer": "{who} asks for a takeback.",
    "takeback_decline": "{who} declines the takeback.",
    "takeback_withdraw": "{who} withdraws the takeback ask.",
    "takeback_accept": "{who} accepts the takeback: the match goes back.",
    "rematch_offer": "{who} offers a rematch.",
    "rematch_withdraw": "{who} withdraws the rematch offer.",
    "rematch_decline": "{who} declines the rematch.",
    "rematch": "{who} accepts the rematch.",
    "berserk": "{who} goes berserk: half the clock, for a point more if they win.",
}


def _colour(colour: str | None) -> str:
    return colour.capitalize() if colour else "The server"


def _other(colour: str | None) -> str:
    return "Black" if colour == "white" else "White"


def entry_words(before: Mapping[str, Any] | None, player: str | None, action: dict[str, Any],
                automatic: bool = False) -> str:
    """One log entry in a sentence. `before` is the public match state before
    it (the one after the previous version; None for the first)."""
    kind = action.get("type")
    who = _colour(player)
    if kind in GAME_ACTIONS and player:
        try:
            words = describe_view(before, player, action)
        except (MageryError, KeyError, ValueError):
            # A state the view cannot rebuild (an old row): say the action plainly.
            return f"{who} plays {kind}."
        return words[:-1] + " (nothing else to do, R11)." if automatic and kind == "pass" else words
    if action.get("account_closed"):  # the server ended it for a seat whose account was closed
        ending = "the match is aborted" if kind == "abort" else f"{who} resigns"
        return f"{who}'s account is closed: {ending}."
    if kind in EVENTS:
        return EVENTS[str(kind)].format(who=who)
    if kind == "timeout":
        return f"{who} runs out of time." if player else "Time runs out."
    if kind == "abort":
        if action.get("by") == "admin":
            return f"A server admin aborts the match: {action.get('note', '')}"
        if action.get("late"):  # the setup time ran out (docs/rules.md, "Clocks")
            return f"The match is aborted: {_colour(action['late'])} did not set up in time."
        return "Nobody joined in time: the match is aborted." if automatic else "The match is aborted."
    if kind == "adjudicate":
        winner = action.get("winner")
        verdict = f"{_colour(winner)} wins" if winner else "a draw"
        return f"A server admin ends the match ({verdict}): {action.get('note', '')}"
    if kind == "give_time":
        return f"{who} gives {_other(player)} {action.get('seconds', 15)} seconds."
    if kind == "claim":
        what = "the win" if action.get("result") == "win" else "a draw"
        return f"{who} claims {what}: {_other(player)} left the match."
    return f"{who}: {kind}."


def told(first_before: dict[str, Any] | None, rows: Iterable[Any]) -> Iterator[str]:
    """The words of consecutive log rows (each with `player`, `action`,
    `automatic` and `public`, the state after it), the first told from
    `first_before`."""
    before = first_before
    for row in rows:
        yield entry_words(before, row.player, row.action, row.automatic)
        before = row.public

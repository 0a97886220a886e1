"""Actions and powers told in plain words, for a match's log and its pages.

    >>> from app.rules import new_match, apply, describe
    >>> s = new_match(seed="0123456789abcdef0123456789abcdef")
    >>> row = ["construct", "fey", "elemental", "dragon", "undead", "beast", "spirit", "myrmidon"]
    >>> describe(s, {"type": "setup", "backrow": row[::-1]})[:56]
    'White sets up their backrow, a to h: myrmidon, spirit, b'
    >>> s, _ = apply(s, {"type": "setup", "backrow": row})
    >>> s, _ = apply(s, {"type": "setup", "backrow": row})
    >>> describe(s, {"type": "place", "mage": "dragon_lord", "minion": "elemental"})
    'White places an elemental on the Dragon Lord.'
    >>> power_words("oracle")
    'Take the Orb: you start each phase from the next one on.'

The words come from the state and the action alone, so they are the same
every time and tell nothing a player may not see: no deck order, no seed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .actions import Action, parse_action
from .colours import COLOURS
from .engine import after_removal, apply
from .errors import MalformedAction
from .mages import MAGE_INDEX, MAGES
from .minions import TYPES, type_of
from .power_base import a_or_an, player, title
from .powers import POWERS, tell
from .start import new_match
from .state import State
from .view import state_from_view


def describe(s: State, action: Any) -> str:
    """`action`, played by the player to move in `s`, as one sentence.

    `s` is the state *before* the action; `action` is an engine tuple or the
    contract's JSON form. The sentence names the player ("White", "Black")
    and says what the action does: "White removes a beast from the Sorcerer
    and takes Black's fey on c6 with the beast from b7." Raises what `apply`
    raises for an action that is malformed or illegal in `s`: the words only
    tell what may happen. (`action` is typed Any, as in `apply`: anything
    else is refused as malformed, never a TypeError.)
    """
    if isinstance(action, dict):
        action = parse_action(action)
    apply(s, action)  # refuses, naming the rule, what the rules refuse
    return told(s, s.to_move, action)


def describe_view(view: Mapping[str, Any] | None, colour: str, action: dict[str, Any]) -> str:
    """A logged action in words, from the public state before it (`view`, the
    contract's match state) and the colour that played it.

    This is how the server tells its log again later: the stored log holds the
    public state after each version, never the secret parts, and that is all
    the words need. The action is not checked again (the log holds only what
    landed). `view` may be None for a setup, a place or a pass, which need no
    position; a remove needs it (MalformedAction otherwise).
    """
    parsed = parse_action(action)
    if parsed[0] != "remove":
        return told(_NO_POSITION, COLOURS.index(colour), parsed)  # needs no position
    if view is None:
        raise MalformedAction("a removal is told from the state before it")
    return told(state_from_view(view), COLOURS.index(colour), parsed)


_NO_POSITION = new_match("words")


def told(s: State, colour: int, action: Action) -> str:
    """The sentence of `describe`, for an action known to be legal in `s`."""
    who = player(colour)
    kind = action[0]
    if kind == "setup":
        return f"{who} sets up their backrow, a to h: {', '.join(TYPES[t] for t in action[1])}."
    if kind == "place":
        return f"{who} places {a_or_an(action[2])} on {title(action[1])}."
    if kind == "pass":
        return f"{who} passes."
    mage, power = action[1], action[2]
    piece = s.occupant[mage]
    if not piece:
        raise MalformedAction(f"no minion stands on the {MAGES[mage]} to be removed")
    removed = f"{who} removes {a_or_an(type_of(piece))} from {title(mage)}"
    if power is None:
        return f"{removed} and declines the power."
    told_power = tell(after_removal(s, mage, piece), colour, mage, piece, power)
    return f"{removed} and {told_power}."


def power_words(mage: str) -> str:
    """A mage's power in plain words, by the mage's contract name."""
    if mage not in MAGE_INDEX:
        raise MalformedAction(f"not a mage's name: {mage!r}")
    return POWERS[MAGE_INDEX[mage]].words

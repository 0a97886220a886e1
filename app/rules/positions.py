"""Whether a position text may start a match.

`from_text` checks the form of a text, not that the engine can play on it
(hand-made test positions are welcome there). A match started from a text
must be playable to its end by the same engine, so `playable` also checks
what play never breaks: each side owns three minions of each type in all, the
eleven chaos mages are each in exactly one place, the match is not over, and
the side to move has actions that the engine applies.
"""

from __future__ import annotations

from .actions import Action
from .colours import COLOURS
from .engine import apply, legal_actions
from .errors import BadPosition, MageryError
from .mages import CHAOS_MAGES, MAGES, OFF
from .minions import TYPES, owner_of, type_of
from .notation import from_text
from .state import OVER, SETUP, State

_EACH = 3  # minions of each type a side owns, wherever they are
_MOST = 100_000  # rounds: far past any match, short of numbers no column holds
_MOST_QUIET = 1000  # as options.no_progress_rounds of a match made without a position


def playable(text: str) -> State:
    """The state `text` describes, if a match can start from it; else BadPosition
    naming what is wrong."""
    state = from_text(text)
    flaw = position_flaw(state)
    if flaw is not None:
        raise BadPosition(flaw)
    return state


def position_flaw(s: State) -> str | None:
    """What keeps a match from starting at `s`, in words (None: nothing)."""
    if s.phase == OVER:
        return "the position is over (field 17 holds a result); a match starts from one still running"
    if not 1 <= s.round <= _MOST:
        return f"the round (field 4) counts from 1 to {_MOST}"
    if s.no_progress_rounds > _MOST_QUIET or s.quiet > _MOST_QUIET:
        return f"R16's count (field 16) and the quiet rounds (field 13) are at most {_MOST_QUIET}"
    miscount = _miscount(s)
    if miscount is not None:
        return miscount
    cards = list(s.deck) + list(s.discard) + [m for m in CHAOS_MAGES if s.seat[m] != OFF]
    for mage in CHAOS_MAGES:
        if cards.count(mage) != 1:
            return (f"the chaos mage {MAGES[mage]} is in {cards.count(mage)} places (tower, private chambers, "
                    "deck, discard); each chaos mage is in exactly one")
    return _move_flaw(s)


def _miscount(s: State) -> str | None:
    owned = [0] * 16
    for piece in s.arena + s.occupant:
        if piece:
            owned[8 * owner_of(piece) + type_of(piece)] += 1
    for i in range(16):
        owned[i] += s.reserve[i] + s.dead[i]
        if owned[i] != _EACH:
            return (f"{COLOURS[i // 8]} owns {owned[i]} {TYPES[i % 8]} minions in all (arena, tower, "
                    f"reserve and dead pile); each side owns {_EACH} of each type")
    return None


def _move_flaw(s: State) -> str | None:
    try:
        # In the setup phase any order of the eight types is legal (R7): try one.
        actions: list[Action] = [("setup", tuple(range(len(TYPES))))] if s.phase == SETUP else legal_actions(s)
        if not actions:
            return f"{COLOURS[s.to_move]}, to move, has no legal action"
        for action in actions:
            after, _ = apply(s, action)
            if _miscount(after) is not None:  # e.g. a side set up over its own backrow
                return f"the engine cannot play on from this position: {_miscount(after)} after a legal action"
    except MageryError as refusal:
        return f"the engine cannot play on from this position: {refusal}"
    except (IndexError, KeyError, ValueError) as broken:  # a position no game reaches
        return f"the engine cannot play on from this position ({type(broken).__name__})"
    return None

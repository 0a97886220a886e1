"""The Dream Lord (R14): the chaos mage that uses the power of another chaos
mage not in play. It borrows the ten records of chaos_mages.py, so it stands
apart from them; powers.py gathers the deck.
"""

from __future__ import annotations

from itertools import repeat

from .chaos_mages import BORROWABLE
from .errors import IllegalAction
from .mages import DREAM_LORD, OFF
from .power_base import MagePower, Payload, spaced, title
from .state import State

_BY_MAGE = {record.mage: record for record in BORROWABLE}


# ---- Dream Lord: borrow a chaos mage that is not in play -----------------------------

def _borrowable(s: State) -> list[MagePower]:
    return [record for record in BORROWABLE if s.seat[record.mage] == OFF]


def _dream_lord_options(s: State, colour: int, left: int, piece: int) -> list[Payload]:
    out: list[Payload] = []
    for borrowed in _borrowable(s):
        out += zip(repeat("dream"), repeat(borrowed.mage), borrowed.options(s, colour, left, piece))
    return out


def _dream_lord_check(s: State, colour: int, left: int, piece: int, power: Payload) -> None:
    borrowed, inner = power[1], power[2]
    if borrowed != DREAM_LORD and borrowed not in _BY_MAGE:
        raise IllegalAction(
            "R14", f"the Dream Lord borrows chaos mages only, not the {spaced(borrowed)}")
    if borrowed == DREAM_LORD or s.seat[borrowed] != OFF:
        raise IllegalAction("R14", f"the Dream Lord borrows a chaos mage not in play; "
                                   f"the {spaced(borrowed)} is in play")
    record = _BY_MAGE[borrowed]  # not the Dream Lord: refused just above
    record.check_form(inner)
    # `left` stays the Dream Lord's chamber: a borrowed Magus may not send the minion back there.
    record.check(s, colour, left, piece, inner)


def _dream_lord_apply(s: State, colour: int, left: int, piece: int, power: Payload) -> None:
    _BY_MAGE[power[1]].apply(s, colour, left, piece, power[2])


def _dream_lord_tell(s: State, colour: int, left: int, piece: int, power: Payload) -> str:
    told = _BY_MAGE[power[1]].tell(s, colour, left, piece, power[2])
    return f"{told}, borrowing {title(power[1])}'s power"


DREAM_LORD_POWER = MagePower(
    DREAM_LORD, ("dream",),
    "Use the power of a chaos mage that is not in play, on no floor and no private chamber.",
    _dream_lord_options, _dream_lord_check, _dream_lord_apply, _dream_lord_tell,
)

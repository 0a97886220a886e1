"""The mages' powers (R12, R14): the records gathered, and the engine's gateway to them.

Every mage has exactly one `MagePower` record (power_base.py), in
fixed_mages.py, chaos_mages.py or dream_lord.py; adding or changing a mage is an edit there.
This module checks that each mage of `mages.MAGES` has one record, and derives
from the records every table the engine reads (`POWERS`, `FORMS`,
`TYPE_OF_MAGE`). The functions below work on the state *after* the minion has
left its chamber and gone to its owner's reserve (R10).
"""

from __future__ import annotations

from .actions import Power
from .chaos_mages import BORROWABLE
from .dream_lord import DREAM_LORD_POWER
from .fixed_mages import FIXED_POWERS
from .mages import CHAOS_MAGES, MAGES
from .power_base import SHAPES as SHAPES
from .power_base import MagePower, Payload
from .power_base import may_place as may_place
from .state import State


def _by_mage(records: tuple[MagePower, ...]) -> tuple[MagePower, ...]:
    """The records in `MAGES` order; a mage with no record, or two, is a bug."""
    found: dict[int, MagePower] = {}
    for record in records:
        if record.mage in found:
            raise RuntimeError(f"the {MAGES[record.mage]} has two power records")
        found[record.mage] = record
    missing = [MAGES[m] for m in range(len(MAGES)) if m not in found]
    if missing:
        raise RuntimeError(f"no power record for {', '.join(missing)}")
    return tuple(found[m] for m in range(len(MAGES)))


CHAOS_POWERS = tuple(sorted((*BORROWABLE, DREAM_LORD_POWER), key=lambda r: CHAOS_MAGES.index(r.mage)))
POWERS = _by_mage(FIXED_POWERS + CHAOS_POWERS)  # POWERS[mage]
# The payload forms each mage takes.
FORMS: dict[int, tuple[str, ...]] = {r.mage: r.forms for r in POWERS}
# The floor 1-8 mages and the type each moves or summons.
TYPE_OF_MAGE: dict[int, int] = {r.mage: r.kind for r in POWERS if r.kind is not None}


def options(s: State, colour: int, mage: int, piece: int) -> list[Payload]:
    """Every power `colour` may use on removing `piece` from `mage` (not None)."""
    return POWERS[mage].options(s, colour, mage, piece)


def tell(s: State, colour: int, mage: int, piece: int, power: Power) -> str:
    """What `power` does, in words ("summons a dragon on d1"); it is assumed legal."""
    if power is None:
        return "declines the power"
    return POWERS[mage].tell(s, colour, mage, piece, power)

"""The pools: a few time controls for each variant the server plays.

A pool's id is its variant and its control, "standard:10+5": minutes and an
increment in seconds for real-time play, days a move for correspondence
("standard:1d"). The control's own words ("10+5", "1 day") begin the name of
the pool's button on the home page.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.rules import VARIANTS

# (control, words, time control), fastest first.
CONTROLS: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("5+3", "5+3", {"type": "realtime", "minutes": 5, "increment": 3}),
    ("10+5", "10+5", {"type": "realtime", "minutes": 10, "increment": 5}),
    ("15+10", "15+10", {"type": "realtime", "minutes": 15, "increment": 10}),
    ("1d", "1 day", {"type": "correspondence", "days": 1}),
)


@dataclass(frozen=True, slots=True)
class Pool:
    id: str  # "standard:10+5"
    variant: str
    control: str  # "10+5", "1d"
    words: str  # "10+5", "1 day"
    time_control: dict[str, Any]

    @property
    def realtime(self) -> bool:
        """A real-time pool's players play one real-time game at a time (app/matches/playing.py)."""
        return bool(self.time_control["type"] != "correspondence")

    def options(self) -> dict[str, Any]:
        """The options of a match made from this pool (the create call's)."""
        return {"variant": self.variant, "time_control": dict(self.time_control)}

    def public(self) -> dict[str, Any]:
        return {"id": self.id, "variant": self.variant, "control": self.control, "words": self.words,
                "time_control": dict(self.time_control)}


POOLS: dict[str, Pool] = {
    f"{variant}:{control}": Pool(f"{variant}:{control}", variant, control, words, time_control)
    for variant in VARIANTS for control, words, time_control in CONTROLS
}
POOL_ID = r"^[a-z_]{1,24}:[0-9+d]{1,6}$"  # the shape of every id above, for the API's schema

"""A player's rating in one variant, as stored and as shown.

    >>> NEW.shown(), Rating(1612.5, 80.0, 0.06, games=40).shown()
    ('1500?', '1613')
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime

PROVISIONAL_RD = 110.0  # above this a rating is not yet trusted, and is shown with "?"


@dataclass(frozen=True, slots=True)
class Rating:
    """Rating points, their deviation (RD) and volatility on the Glicko scale,
    how many rated matches went into it and when the last one ended (None:
    never; a rating's RD grows with the time since, policy.aged)."""

    rating: float
    rd: float
    volatility: float
    games: int = 0
    last_rated_at: datetime | None = None

    def __post_init__(self) -> None:
        # A stored rating read back wrong must stop here, not poison every
        # opponent's rating after it.
        if not (math.isfinite(self.rating) and math.isfinite(self.rd) and math.isfinite(self.volatility)):
            raise ValueError(f"a rating is made of finite numbers: {self!r}")
        if self.rd <= 0 or self.volatility <= 0:
            raise ValueError(f"a rating's RD and volatility are above 0: {self!r}")
        if self.games < 0:
            raise ValueError(f"a rating's count of games is not negative: {self!r}")
        if self.last_rated_at is not None and self.last_rated_at.tzinfo is None:
            raise ValueError("last_rated_at needs a time zone: naive and aware times do not subtract")

    @property
    def provisional(self) -> bool:
        return self.rd > PROVISIONAL_RD

    def shown(self) -> str:
        """The rating as players see it: whole points, halves rounded up, with
        "?" while provisional ("1500?")."""
        points = math.floor(self.rating + 0.5)
        return f"{points}?" if self.provisional else str(points)

    def __str__(self) -> str:
        return self.shown()


# A player's first rating in a variant (lichess's figures).
NEW = Rating(1500.0, 500.0, 0.09)

"""The axes of every chart: ticks a nice step apart (1, 2, 2.5 or 5 times a
power of ten), from a multiple of that step at or below the lowest value to one
at or above the highest, so the labels read 0, 25, 50... and never 0, 23, 46."""

from __future__ import annotations

import math
from dataclasses import dataclass

# A value that float arithmetic leaves a hair past a step (0.30000000000000004 of
# 0.1's) still counts as on it: without this, an axis could grow a step for nothing.
_HAIR = 1e-9


def nice(value: float) -> float:
    """The smallest of 1, 2, 2.5 and 5 times a power of ten at or above `value`
    (1 when `value` is not above zero)."""
    if value <= 0:
        return 1.0
    power = 10.0 ** math.floor(math.log10(value))
    for m in (1.0, 2.0, 2.5, 5.0):
        if value <= m * power * (1 + _HAIR):
            return m * power
    return 10.0 * power


@dataclass(frozen=True)
class Axis:
    """Values from `low` to `high`, ticked every `step`."""

    low: float
    high: float
    step: float

    @property
    def ticks(self) -> list[float]:
        count = round((self.high - self.low) / self.step)
        return [self.low + i * self.step for i in range(count + 1)]

    def at(self, value: float, start: float, end: float) -> float:
        """Where `value` is drawn on a line from `start` (at `low`) to `end` (at `high`)."""
        return start + (end - start) * (value - self.low) / (self.high - self.low)


def axis(low: float, high: float, intervals: int = 4) -> Axis:
    """The axis holding `low`..`high` in about `intervals` nice steps: fewer when
    the values stop short (0..5 is 0, 2, 4, 6), one more when rounding both ends
    out adds one (1437..1622 is 1400..1650 in 50s), and at least one step."""
    step = nice((high - low) / intervals)
    bottom = step * math.floor(low / step + _HAIR)
    top = step * math.ceil(high / step - _HAIR)
    return Axis(bottom, max(top, bottom + step), step)

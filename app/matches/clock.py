"""Match clocks: the server's time is the truth (R16: lost on time).

Real-time: each player starts with `minutes` and gains `increment` seconds
after each of their own moves. Correspondence: each move must be made within
`days`; the mover's clock is full again after it. A clock runs for the player
to move once both seats are taken; an automatic pass (R11) costs nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .shapes import ClockView

DAY_MS = 86_400_000


@dataclass(slots=True)
class Clock:
    kind: str  # "realtime" | "correspondence"
    white_ms: int
    black_ms: int
    increment_ms: int = 0
    per_move_ms: int = 0  # correspondence: the time allowed for each move
    running: str | None = None
    since_ms: int | None = None

    @classmethod
    def from_options(cls, time_control: dict[str, Any] | None) -> Clock | None:
        if not time_control:
            return None
        if time_control["type"] == "realtime":
            initial = round(time_control["minutes"] * 60_000)
            return cls("realtime", initial, initial, increment_ms=round(time_control.get("increment", 0) * 1000))
        per_move = round(time_control["days"] * DAY_MS)
        return cls("correspondence", per_move, per_move, per_move_ms=per_move)

    def copy(self) -> Clock:
        return Clock(self.kind, self.white_ms, self.black_ms, self.increment_ms, self.per_move_ms,
                     self.running, self.since_ms)

    def left(self, colour: str, now_ms: int) -> int:
        """Milliseconds `colour` has left at `now_ms` (may be negative once flagged)."""
        stored = self.white_ms if colour == "white" else self.black_ms
        if self.running == colour and self.since_ms is not None:
            return stored - (now_ms - self.since_ms)
        return stored

    def flagged(self, now_ms: int) -> str | None:
        """The colour whose time has run out, if any."""
        if self.running and self.left(self.running, now_ms) <= 0:
            return self.running
        return None

    def deadline(self) -> int | None:
        """When the running clock reaches zero."""
        if not self.running or self.since_ms is None:
            return None
        return self.since_ms + (self.white_ms if self.running == "white" else self.black_ms)

    def _set(self, colour: str, ms: int) -> None:
        if colour == "white":
            self.white_ms = ms
        else:
            self.black_ms = ms

    def stop(self, now_ms: int, moved: bool = False) -> None:
        """Stop the running clock, charging its player the time used; `moved` adds
        the increment (real-time) or fills the clock again (correspondence)."""
        colour = self.running
        if colour is None:
            return
        left = max(0, self.left(colour, now_ms))
        if moved:
            left = self.per_move_ms if self.kind == "correspondence" else left + self.increment_ms
        self._set(colour, left)
        self.running, self.since_ms = None, None

    def give(self, colour: str, ms: int) -> None:
        """`ms` more for `colour` (time given by the opponent); a running clock's
        deadline moves with it."""
        self._set(colour, (self.white_ms if colour == "white" else self.black_ms) + ms)

    def start(self, colour: str | None, now_ms: int) -> None:
        self.running = colour
        self.since_ms = now_ms if colour else None

    def public(self, now_ms: int) -> ClockView:
        out: ClockView = {
            "type": self.kind,
            "white": max(0, self.left("white", now_ms)),
            "black": max(0, self.left("black", now_ms)),
            "running": self.running,
        }
        if self.kind == "realtime":
            out["increment"] = self.increment_ms
        else:
            out["per_move"] = self.per_move_ms
        return out

"""Rate limits on writes: a sliding window per seat token and per client address."""

from __future__ import annotations

import math
import time
from collections import deque

from .errors import RateLimited


class SlidingWindow:
    """At most `limit` hits per key in any `window` seconds."""

    def __init__(self, limit: int, window: float) -> None:
        self.limit = limit
        self.window = window
        self._hits: dict[str, deque[float]] = {}
        self._next_sweep = 0.0

    def hit(self, *keys: str) -> None:
        """Count one write for every key, or raise RateLimited (counting nothing)."""
        now = time.monotonic()
        if now >= self._next_sweep:
            self._sweep(now)
        queues = []
        for key in keys:
            hits = self._hits.setdefault(key, deque())
            while hits and hits[0] <= now - self.window:
                hits.popleft()
            if len(hits) >= self.limit:
                raise RateLimited(max(1, math.ceil(hits[0] + self.window - now)))
            queues.append(hits)
        for hits in queues:
            hits.append(now)

    def _sweep(self, now: float) -> None:
        self._next_sweep = now + self.window
        for key in [k for k, hits in self._hits.items() if not hits or hits[-1] <= now - self.window]:
            del self._hits[key]

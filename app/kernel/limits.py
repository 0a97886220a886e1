"""Rate limits on writes, per seat token and per client address.

Two ways to count, one interface (`await limiter.hit(*keys)`, which raises
RateLimited and lets nothing through once a key is over its budget):

- `SlidingWindow`: in this process's memory, exact, a sliding window. The one
  used on SQLite, where one process serves everything.
- `SharedWindow`: on PostgreSQL, where several processes share the budget
  (two processes let through twice the budget). Fixed
  windows counted in the `rate_counters` table. To keep the hot path free of a
  database round trip, a key well under its budget is counted locally and
  its count is added to the table in one batched UPSERT about every
  `sync_seconds`; once a key's known count (the table's total as last read,
  plus what this process has not yet added) reaches `SYNC_FROM` of the budget,
  each of its writes is counted in the table at once and judged by the total
  that comes back. So the budget holds across processes exactly once a client
  nears it; below that, N processes may each let through up to `SYNC_FROM` of
  the budget before they hear of each other (docs/api.md, "Limits").
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections import deque
from collections.abc import Callable
from typing import Protocol

from sqlalchemy.ext.asyncio import AsyncEngine

from app.db import raw
from app.db.outage import OutageLog, database_unavailable

from .errors import RateLimited

log = logging.getLogger(__name__)


class Limiter(Protocol):
    async def hit(self, *keys: str) -> None:
        """Count one write for every key, or raise RateLimited."""

    async def close(self) -> None:
        """Finish what is under way (before the database engine goes)."""


class SlidingWindow:
    """At most `limit` hits per key in any `window` seconds, in this process."""

    def __init__(self, limit: int, window: float) -> None:
        self.limit = limit
        self.window = window
        self._hits: dict[str, deque[float]] = {}
        self._next_sweep = 0.0

    async def hit(self, *keys: str) -> None:
        self.count(*keys)

    async def close(self) -> None:
        """Nothing to finish: the counts live in this process only."""

    def count(self, *keys: str, weight: int = 1) -> None:
        """Count `weight` hits for every key (one write, or a read that costs as
        much as `weight` others), or raise RateLimited (counting nothing)."""
        now = time.monotonic()
        if now >= self._next_sweep:
            self._sweep(now)
        queues = []
        for key in keys:
            hits = self._hits.setdefault(key, deque())
            while hits and hits[0] <= now - self.window:
                hits.popleft()
            if len(hits) + weight > self.limit:
                first = hits[0] if hits else now
                raise RateLimited(max(1, math.ceil(first + self.window - now)))
            queues.append(hits)
        for hits in queues:
            hits.extend([now] * weight)

    def _sweep(self, now: float) -> None:
        self._next_sweep = now + self.window
        for key in [k for k, hits in self._hits.items() if not hits or hits[-1] <= now - self.window]:
            del self._hits[key]


SYNC_FROM = 0.25  # of the budget: from here on, every write of a key is counted in the table at once
KEY_LENGTH = 80  # rate_counters.key

# Add each key's count to its row of the window and read the totals back, in one
# statement. Keys come sorted, so concurrent UPSERTs lock rows in one order.
_ADD = """
INSERT INTO rate_counters (key, window_start, hits)
SELECT k, $1, n FROM unnest($2::text[], $3::int[]) AS t(k, n)
ON CONFLICT (key, window_start) DO UPDATE SET hits = rate_counters.hits + EXCLUDED.hits
RETURNING key, hits
"""
_FORGET = "DELETE FROM rate_counters WHERE window_start < $1"


class SharedWindow:
    """At most about `limit` hits per key in each fixed `window`, across every
    process on one PostgreSQL database (see the module's docstring)."""

    # Windows are aligned to the epoch on this clock so that every process cuts
    # them at the same instants. A class attribute so that tests can start a
    # window when they start (tests/conftest.py): a test whose writes straddled a
    # window's end would see its count begin again.
    clock: Callable[[], float] = staticmethod(time.time)

    def __init__(self, engine: AsyncEngine, limit: int, window: float, sync_seconds: float = 1.0,
                 outage: OutageLog | None = None) -> None:
        self.engine, self.limit, self.window, self.sync_seconds = engine, limit, window, sync_seconds
        self.outage = outage if outage is not None else OutageLog()
        self._start = 0  # the current window's start, whole seconds since the epoch
        self._total: dict[str, int] = {}  # the table's count for the key, as last read
        self._pending: dict[str, int] = {}  # counted here, not yet added to the table
        self._flushing: asyncio.Task[None] | None = None
        self._last_flush = time.monotonic()
        self._next_forget = 0.0

    async def hit(self, *keys: str, weight: int = 1) -> None:
        """Count `weight` hits for every key (a read may cost as much as many)."""
        now = self.clock()
        start = int(now // self.window * self.window)
        if start != self._start:  # a new window: every count starts again
            self._start, self._total, self._pending = start, {}, {}
        keys = tuple(key[:KEY_LENGTH] for key in keys)
        retry = max(1, math.ceil(start + self.window - now))
        known = [self._total.get(k, 0) + self._pending.get(k, 0) for k in keys]
        if any(n + weight > self.limit for n in known):
            raise RateLimited(retry)
        if any(n + weight > self.limit * SYNC_FROM for n in known):
            # Near the budget: count it in the table now, and judge by the total.
            add = {k: self._pending.pop(k, 0) + weight for k in keys}
            totals = await self._add(start, add)
            if any(totals.get(k, 0) > self.limit for k in keys):
                raise RateLimited(retry)
            return
        for key in keys:
            self._pending[key] = self._pending.get(key, 0) + weight
        if self._flushing is None and time.monotonic() - self._last_flush >= self.sync_seconds:
            self._flushing = asyncio.get_running_loop().create_task(self._flush())

    async def _add(self, start: int, add: dict[str, int]) -> dict[str, int]:
        keys = sorted(add)
        rows = await raw.fetch(self.engine, _ADD, start, keys, [add[k] for k in keys])
        if time.monotonic() >= self._next_forget:  # rows of windows long past
            self._next_forget = time.monotonic() + 10 * self.window
            await raw.fetch(self.engine, _FORGET, start - 2 * math.ceil(self.window))
        totals = {row["key"]: int(row["hits"]) for row in rows}
        if start == self._start:
            self._total.update(totals)
        return totals

    async def _flush(self) -> None:
        """Add what was counted here to the table, and learn the totals."""
        start, pending = self._start, self._pending
        self._pending = {}
        try:
            if pending:
                await self._add(start, pending)
        except Exception as exc:
            if start == self._start:  # counted again with the next flush
                for key, n in pending.items():
                    self._pending[key] = self._pending.get(key, 0) + n
            if database_unavailable(exc):
                self.outage.failed("the shared rate limit", exc)
            else:  # a task nobody awaits: say it here, or nobody would
                log.exception("adding write counts to rate_counters failed")
        finally:
            self._last_flush = time.monotonic()
            self._flushing = None

    async def close(self) -> None:
        if self._flushing is not None:
            with contextlib.suppress(Exception):
                await self._flushing


class RedisWindow(SharedWindow):
    """A SharedWindow whose counts live in Redis (INCRBY on a key per key and
    window, gone two windows later), for what must hold across processes
    without a table: the read budget per address. Redis away: the counts of
    this process still hold, and what could not be added is let through (a
    read limit is a guard, never a reason to refuse everyone)."""

    def __init__(self, redis_url: str, prefix: str, limit: int, window: float, sync_seconds: float = 1.0,
                 outage: OutageLog | None = None) -> None:
        super().__init__(None, limit, window, sync_seconds, outage)  # type: ignore[arg-type]  # no engine: Redis
        from redis.asyncio import Redis

        self.prefix = prefix
        self.redis = Redis.from_url(redis_url, decode_responses=True, socket_connect_timeout=1.0,
                                    socket_timeout=1.0, client_name=f"{prefix}:limits")

    async def _add(self, start: int, add: dict[str, int]) -> dict[str, int]:
        keys = sorted(add)
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                for key in keys:
                    name = f"{self.prefix}:rate:{start}:{key}"
                    pipe.incrby(name, add[key])
                    pipe.expire(name, 2 * math.ceil(self.window))
                replies = await pipe.execute()
        except Exception as exc:
            self.outage.failed("the shared read limit (Redis)", exc)
            return {}
        totals = {key: int(replies[2 * n]) for n, key in enumerate(keys)}
        if start == self._start:
            self._total.update(totals)
        return totals

    async def close(self) -> None:
        await super().close()
        with contextlib.suppress(Exception):
            await self.redis.aclose()


def make_read_limiter(limit: int, window: float, redis_url: str | None, prefix: str = "magery",
                      outage: OutageLog | None = None) -> SlidingWindow | RedisWindow:
    """The read budget per address: in Redis when there is one (every process
    shares it), in this process's memory otherwise."""
    if redis_url:
        return RedisWindow(redis_url, prefix, limit, window, outage=outage)
    return SlidingWindow(limit, window)


def make_limiter(engine: AsyncEngine, limit: int, window: float, outage: OutageLog | None = None) -> Limiter:
    """Shared through the database on PostgreSQL, in this process on SQLite."""
    if engine.dialect.name == "postgresql":
        return SharedWindow(engine, limit, window, outage=outage)
    return SlidingWindow(limit, window)

"""The outbox's sender, one on every process: take due rows, deliver each by its
channel, and delete or put off the row.

    take (leased) → deliver (within half the lease) → delete | put off with backoff | drop

A row failed is tried again after `first_retry` seconds, twice that the next
time, up to `most_retry`; a row still undelivered `give_up` seconds after it was
written is dropped and counted (a "your turn" a day late tells nobody anything).
Each delivery must end well inside the lease (it is cut at half of it), so no
other sender takes a row while its holder still delivers it: one notice, one
delivery. The clock is injected: tests move time instead of waiting it out.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections import Counter
from collections.abc import Callable

from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.outage import OutageLog, database_unavailable

from . import outbox
from .channel import Channel, Channels, Delivered, Gone, OutboxItem, Outcome, RetryLater

log = logging.getLogger(__name__)

SENT, RETRIED, FAILED, DROPPED = "sent", "retried", "failed", "dropped"


class Sender:
    def __init__(self, engine: AsyncEngine, channels: Channels, *, poll_seconds: float = 1.0,
                 lease_seconds: float = 60.0, first_retry_seconds: float = 30.0, most_retry_seconds: float = 3600.0,
                 give_up_seconds: float = 86_400.0, most: int = 50,
                 clock: Callable[[], float] = time.time, name: str | None = None) -> None:
        self.engine, self.channels = engine, channels
        self.poll_seconds, self.lease_ms = poll_seconds, round(lease_seconds * 1000)
        self.first_retry, self.most_retry = first_retry_seconds, most_retry_seconds
        self.give_up_ms = round(give_up_seconds * 1000)
        self.most = most
        self.clock = clock  # seconds since the epoch
        self.name = name or "sender-" + secrets.token_hex(6)  # this process's mark on the rows it holds
        self.counts: Counter[tuple[str, str]] = Counter()  # (channel, sent|retried|failed|dropped) → rows
        self.queued: dict[str, int] = {}  # rows waiting by channel, as last counted (for /metrics)
        self._wake = asyncio.Event()

    def now_ms(self) -> int:
        return int(self.clock() * 1000)

    def backoff(self, tries: int) -> float:
        """Seconds before the try after `tries` failed ones."""
        return float(min(self.most_retry, self.first_retry * 2 ** max(0, tries - 1)))

    def wake(self) -> None:
        """Look at the outbox now rather than at the next poll."""
        self._wake.set()

    async def send_due(self) -> int:
        """One pass: every due row this sender could take, delivered; answers how many.
        The rows delivered or gone leave in one statement; a row put off, alone."""
        names = self.channels.names
        taken = await outbox.take(self.engine, names, self.name, self.now_ms(), self.lease_ms, self.most)
        if not taken:
            return 0
        outcomes = await asyncio.gather(*(self._deliver(self._channel(name), item) for name, item in taken))
        done: dict[int, tuple[str, str]] = {}
        for (name, item), outcome in zip(taken, outcomes, strict=True):
            if isinstance(outcome, Delivered):
                done[item.id] = (name, SENT)
            elif isinstance(outcome, Gone):
                done[item.id] = (name, FAILED)
            else:
                await self._later(name, item, outcome)
        for item_id in await outbox.finish_many(self.engine, list(done), self.name):
            self.counts[done[item_id]] += 1
        return len(taken)

    def _channel(self, name: str) -> Channel:
        channel = self.channels.get(name)
        assert channel is not None  # taken for the registered channels only
        return channel

    async def _later(self, channel_name: str, item: OutboxItem, outcome: RetryLater) -> None:
        """Put off with the backoff (or the channel's own pause), or drop it past a day."""
        wait = outcome.after_seconds if outcome.after_seconds is not None else self.backoff(item.tries + 1)
        due = self.now_ms() + round(wait * 1000)
        if due - item.created_ms > self.give_up_ms:
            if await outbox.finish(self.engine, item.id, self.name):
                self.counts[(channel_name, DROPPED)] += 1
                log.warning("notification %s by %s dropped after %s tries: %s", item.id, channel_name,
                            item.tries + 1, outcome.reason)
            return
        if await outbox.put_off(self.engine, item.id, self.name, due):
            self.counts[(channel_name, RETRIED)] += 1

    async def _deliver(self, channel: Channel, item: OutboxItem) -> Outcome:
        try:
            async with asyncio.timeout(self.lease_ms / 2000):
                return await channel.deliver(item)
        except TimeoutError:
            return RetryLater("the channel took longer than half the lease")
        except Exception as exc:
            log.warning("delivering notification %s by %s failed", item.id, channel.name, exc_info=True)
            return RetryLater(type(exc).__name__)

    async def count_queued(self) -> None:
        self.queued = await outbox.waiting(self.engine)

    async def run_forever(self, outage: OutageLog | None = None) -> None:
        """Pass after pass; waits `poll_seconds` (or a `wake`) when a pass found
        fewer than a full batch. A database out of reach is told to `outage`."""
        if not self.channels.names:
            return  # nothing to deliver by: no query ever made
        while True:
            began = time.monotonic()
            try:
                found = await self.send_due()
                await self.count_queued()
                if outage is not None:
                    outage.reached(began)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                found = 0
                if outage is not None and database_unavailable(exc):
                    outage.failed("the notifications' sender", exc)
                else:
                    log.exception("the notifications' sender's pass failed")
            if found < self.most:
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(self.poll_seconds):
                        await self._wake.wait()
                self._wake.clear()

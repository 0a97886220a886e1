"""Who is online: an account with a live channel open (a page of the site, or
an event stream, a bot's way of waiting for work), on any server process.

The channels are each process's own, so presence is kept where every process
sees it: the account's `last_seen` in the database. A process notes an account
when its first stream opens here, and while any stream of it stays open it
writes `last_seen = now` again for all of them in one statement, at most every
`REFRESH_SHARE` of `seconds` (from the streams' own wakes, which come every
few seconds: no task of its own). An account is online while its `last_seen`
is less than `seconds` old, so a process that dies, or a stream that ends,
takes it offline within `seconds`, and any number of processes agree without
a bus. A sign-in writes `last_seen` too (app/accounts): the page it opens
follows at once.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.account_models import accounts

REFRESH_SHARE = 1 / 3  # refreshed three times within the window: a late wake never drops anyone


class Presence:
    def __init__(self, engine: AsyncEngine, seconds: float, clock: Callable[[], float]) -> None:
        self.engine, self.seconds, self.clock = engine, seconds, clock
        self.here: Counter[int] = Counter()  # account id → its streams open on this process
        self._next = 0.0  # when the accounts here are written again

    def _now(self) -> datetime:
        return datetime.fromtimestamp(self.clock(), UTC)

    def since(self) -> datetime:
        """The oldest `last_seen` that is still online."""
        return self._now() - timedelta(seconds=self.seconds)

    async def arrive(self, account_id: int) -> None:
        self.here[account_id] += 1
        if self.here[account_id] == 1:
            await self._write([account_id])

    def leave(self, account_id: int) -> None:
        self.here[account_id] -= 1
        if self.here[account_id] <= 0:
            del self.here[account_id]  # offline once its last write is `seconds` old

    async def refresh(self) -> None:
        """Write every account here as seen now, if it is time (one statement for all)."""
        if self.here and self.clock() >= self._next:
            await self._write(list(self.here))

    async def _write(self, ids: list[Any]) -> None:
        self._next = self.clock() + self.seconds * REFRESH_SHARE
        async with self.engine.begin() as conn:
            await conn.execute(update(accounts).where(accounts.c.id.in_(ids)).values(last_seen=self._now()))

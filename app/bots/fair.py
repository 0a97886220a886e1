"""Search slots shared fairly between owners.

The worker processes are few (BOT_WORKERS per server process) and a search may
take seconds. Served first come, first served, one client that queues thirty
strong searches makes everybody else's bot wait behind all of them (once
a greedy bot took 48 s to answer). So each owner (the address that made the
bot's match) has a queue of its own, and a slot that comes free goes to the
owner holding the fewest slots now, of those the one served longest ago: a
turn waits for at most one search of each other owner that is waiting,
however many each of them has queued.

    share = FairShare(slots=2)
    async with share.slot(owner):
        ...  # at most `slots` of these run at once
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import AsyncIterator


class FairShare:
    def __init__(self, slots: int) -> None:
        self.free = max(1, slots)
        # Owners with turns waiting, each one's turns in the order they came.
        self._waiting: dict[str, deque[asyncio.Future[None]]] = {}
        self._running: dict[str, int] = {}  # slots each owner holds now
        self._served: dict[str, int] = {}  # when each owner was last given a slot (a count)
        self._grants = 0

    def waiting(self) -> int:
        """Turns waiting for a slot (for tests and the metrics)."""
        return sum(len(q) for q in self._waiting.values())

    @contextlib.asynccontextmanager
    async def slot(self, owner: str) -> AsyncIterator[None]:
        await self._acquire(owner)
        self._running[owner] = self._running.get(owner, 0) + 1
        self._grants += 1
        self._served[owner] = self._grants
        try:
            yield
        finally:
            left = self._running.pop(owner) - 1
            if left:
                self._running[owner] = left
            elif owner not in self._waiting:
                self._served.pop(owner, None)  # nothing of it here any more: forget it
            self._release()

    async def _acquire(self, owner: str) -> None:
        if self.free > 0 and not self._waiting:
            self.free -= 1
            return
        granted: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(owner, deque()).append(granted)
        try:
            await granted
        except asyncio.CancelledError:
            if granted.done() and not granted.cancelled():
                self._release()  # handed a slot as it was cancelled: pass it on
            else:
                self._forget(owner, granted)
            raise

    def _next_owner(self) -> str:
        """The waiting owner holding the fewest slots now; of those, the one
        served longest ago (or never)."""
        return min(self._waiting, key=lambda o: (self._running.get(o, 0), self._served.get(o, 0)))

    def _release(self) -> None:
        """Hand the slot to the first turn of the owner whose turn it is, or free it."""
        while self._waiting:
            owner = self._next_owner()
            turns = self._waiting[owner]
            granted = turns.popleft()
            if not turns:
                del self._waiting[owner]
            if not granted.done():
                granted.set_result(None)
                return
        self.free += 1

    def _forget(self, owner: str, granted: asyncio.Future[None]) -> None:
        turns = self._waiting.get(owner)
        if turns is not None:
            with contextlib.suppress(ValueError):
                turns.remove(granted)
            if not turns:
                del self._waiting[owner]

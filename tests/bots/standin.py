"""A stand-in for the bot runner's search, and clients from chosen addresses.

The stand-in answers in this process with a random legal action (instantly),
records every search it is asked for, and holds the searches of the levels in
`hold` until the test lets each one go (`let_one_go`): a slow searcher whose
slowness the test decides, with no time in it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import httpx

from app.bots import choose

from ..conftest import Api


class StandIn:
    def __init__(self, hold: tuple[str, ...] = (), after_hold: Callable[[], None] | None = None) -> None:
        self.hold = set(hold)
        self.calls: list[tuple[str, float]] = []  # (level, think seconds) of every search asked for
        self.held = 0  # searches waiting to be let go now
        self._permits = asyncio.Semaphore(0)
        self._after_hold = after_hold

    async def __call__(self, level: str, state: dict[str, Any], seed: int, think: float) -> dict[str, Any]:
        self.calls.append((level, think))
        if level in self.hold:
            self.held += 1
            try:
                await self._permits.acquire()
            finally:
                self.held -= 1
            if self._after_hold is not None:
                self._after_hold()
        return choose("random", state, seed)

    def let_one_go(self) -> None:
        self._permits.release()

    def let_all_go(self) -> None:
        for _ in range(1000):
            self._permits.release()


@asynccontextmanager
async def api_from(app: Any, address: str) -> AsyncIterator[Api]:
    """An `Api` whose requests come from `address` (as the limits count it)."""
    transport = httpx.ASGITransport(app=app, client=(address, 40000))
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
        yield Api(client)

"""What the analysis tests share: a finished match played through the API, a
stand-in for the worker processes that searches in this process (at the
shallow depth the tests' settings ask for) and can hold a batch until the
test lets it go, and the test settings."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from app.analysis.engine import Found, Item, search_positions
from app.config import Settings

from ..conftest import Api, Game, make_settings

SHALLOW = {"analysis_depth": 1, "analysis_position_seconds": 5.0}


def analysis_settings(database_url: str, **overrides: Any) -> Settings:
    return make_settings(database_url, **{**SHALLOW, **overrides})


async def finished(api: Api, seed: int = 11, actions: int = 70, resigns: str = "white") -> Game:
    """A match of random legal actions (setups, placements, removals), then a resignation."""
    game = await api.start()
    rng = random.Random(seed)
    for _ in range(actions):
        if game.match["status"] == "finished":
            break
        await api.step(game, rng)
    if game.match["status"] != "finished":
        r = await api.client.post(f"{api.base}/{game.id}/resign", headers=game.auth(resigns))
        assert r.status_code == 200, r.text
        game.match = r.json()["match"]
    return game


class Searcher:
    """The search of a batch, here and at once (or held till let go)."""

    def __init__(self, hold: bool = False) -> None:
        self.hold = hold
        self.batches: list[list[int]] = []  # the versions of each batch asked for
        self.held = 0
        self._permits = asyncio.Semaphore(0)

    async def __call__(self, items: list[Item], depth: int, seconds: float) -> list[Found]:
        self.batches.append([v for v, _, _ in items])
        if self.hold:
            self.held += 1
            try:
                await self._permits.acquire()
            finally:
                self.held -= 1
        return search_positions(items, depth, seconds)

    def let_one_go(self) -> None:
        self._permits.release()

    def let_all_go(self) -> None:
        self.hold = False
        for _ in range(10_000):
            self._permits.release()


class Failing:
    """A search that raises `error` its first `times` calls, then searches."""

    def __init__(self, error: Exception, times: int = 1_000_000) -> None:
        self.error, self.times, self.calls = error, times, 0

    async def __call__(self, items: list[Item], depth: int, seconds: float) -> list[Found]:
        self.calls += 1
        if self.calls <= self.times:
            raise self.error
        return search_positions(items, depth, seconds)

"""Mining a finished match for puzzles gives way to analyses (on SQLite and
PostgreSQL): it goes a part at a time, and before each part waits while this
process's analyses fill its workers, so an analysis asked for meanwhile waits
behind one part, not the whole match. Closing the analyses ends a mining
under way, in a part or waiting for a worker, without a trace in the log.

A stand-in for the one worker process (OneWorker) runs the searches and the
mining's parts one at a time, first come first served as the real pool does,
noting the order they ran in, and holds a kind of call until the test lets it go."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest

from app.analysis.engine import Found, Item, search_positions
from app.config import Settings
from app.matches import MatchService
from app.matches.history import positions

from ..conftest import Api
from ..waiting import DEADLINE, until
from .helpers import analysis_settings, finished

PART = 4


@pytest.fixture
def settings(database_url: str) -> Settings:
    return analysis_settings(database_url, analysis_workers=1)


class OneWorker:
    """The analyses' one worker process, stood in for: its calls run one at a
    time in the order they came (an asyncio.Lock hands itself on first come,
    first served), each noted as it starts; a kind of call in `hold` waits in
    the worker until let go."""

    def __init__(self, *hold: str) -> None:
        self.ran: list[tuple[str, str, list[int]]] = []  # ("search" or "mine", the match mined, the versions) as run
        self.hold = set(hold)
        self.holding: str | None = None  # the kind of call held in the worker now
        self.queued = 0  # calls waiting for the worker
        self.cancelled: list[str] = []  # the kinds of call cancelled in the worker
        self._worker = asyncio.Lock()
        self._go = asyncio.Event()

    async def _turn(self, kind: str, versions: list[int], match_id: str = "") -> None:
        self.ran.append((kind, match_id, versions))
        if kind in self.hold:
            self.holding = kind
            try:
                await self._go.wait()
            except asyncio.CancelledError:
                self.cancelled.append(kind)
                raise
            finally:
                self.holding = None

    def let_go(self, kind: str) -> None:
        self.hold.discard(kind)
        self._go.set()
        self._go = asyncio.Event()

    async def search(self, items: list[Item], depth: int, seconds: float) -> list[Found]:
        self.queued += 1
        async with self._worker:
            self.queued -= 1
            await self._turn("search", [v for v, _, _ in items])
            return search_positions(items, depth, seconds)

    async def mine(self, items: list[tuple[int, dict[str, Any]]], match_id: str, start: int,
                   count: int) -> tuple[list[dict[str, Any]], int]:
        self.queued += 1
        async with self._worker:
            self.queued -= 1
            await self._turn("mine", [v for v, _ in items[start:start + count]], match_id)
            return [], start + count

    def mined(self, match_id: str) -> list[list[int]]:
        """The versions of each part of the match asked for."""
        return [versions for kind, mined, versions in self.ran if kind == "mine" and mined == match_id]


async def _status(api: Api, match_id: str) -> str:
    return str((await api.client.get(f"{api.base}/{match_id}/analysis")).json()["status"])


async def _ask(api: Api, game: Any) -> None:
    r = await api.client.post(f"{api.base}/{game.id}/analysis", headers=game.auth("white"))
    assert r.status_code == 202, r.text


async def _mining_held(api: Api, app: Any, worker: OneWorker) -> tuple[Any, str]:
    """A match analysed, its mining's first part now held in the worker; (the analyses, the match)."""
    analyses = app.state.parts.analyses
    analyses.search, analyses.mine, analyses.mine_part = worker.search, worker.mine, PART
    mined = await finished(api, seed=1, actions=30)
    await _ask(api, mined)
    await until(lambda: worker.holding == "mine", "the mining's first part is in the worker")
    assert await _status(api, mined.id) == "done"
    return analyses, mined.id


async def test_an_analysis_asked_for_during_a_mining_is_searched_before_its_next_part(
        api: Api, app: Any, service: MatchService) -> None:
    worker = OneWorker("mine")
    analyses, mined = await _mining_held(api, app, worker)
    first_part = len(worker.ran) - 1
    game = await finished(api, seed=2, actions=30)
    await _ask(api, game)
    await until(lambda: worker.queued == 1, "the new analysis's first search waits for the worker")
    worker.let_go("mine")
    await until(lambda: _is_done(api, game.id), "the new analysis is done")
    await analyses.mined()
    after = [kind if kind == "search" else match_id for kind, match_id, _ in worker.ran[first_part + 1:]]
    searches = after.count("search")
    assert searches >= 2  # more than one: a part slipped between two of them would show
    # Every search of the new analysis ran before the mining's next part; then the two matches are mined.
    assert after[:searches] == ["search"] * searches and set(after[searches:]) == {mined, game.id}
    _, start, log = await service.reads.finished_log(mined)
    states = list(positions(start, log))
    once = [v for i, (v, s) in enumerate(states) if i == 0 or s is not states[i - 1][1]]
    parts = worker.mined(mined)
    assert [v for part in parts for v in part] == once  # each position asked once, in order, over the parts
    assert len(parts) > 2 and all(len(part) <= PART for part in parts)


async def _is_done(api: Api, match_id: str) -> bool:
    return await _status(api, match_id) == "done"


async def test_closing_during_a_part_ends_the_mining(api: Api, app: Any, caplog: pytest.LogCaptureFixture) -> None:
    worker = OneWorker("mine")
    analyses, _ = await _mining_held(api, app, worker)
    ran = list(worker.ran)
    with caplog.at_level(logging.WARNING, logger="app.analysis"):
        await analyses.close()
    await asyncio.wait_for(analyses.mined(), DEADLINE)  # nothing left being mined
    assert worker.cancelled == ["mine"] and worker.ran == ran  # no part after the one cut short
    assert not [r for r in caplog.records if r.name.startswith("app.analysis")]


async def test_closing_while_the_mining_waits_for_a_worker_ends_it(api: Api, app: Any,
                                                                   caplog: pytest.LogCaptureFixture) -> None:
    worker = OneWorker("mine")
    analyses, _ = await _mining_held(api, app, worker)
    worker.hold.add("search")
    game = await finished(api, seed=2, actions=30)
    await _ask(api, game)
    await until(lambda: worker.queued == 1, "the new analysis's first search waits for the worker")
    worker.let_go("mine")
    await until(lambda: worker.holding == "search", "the new analysis's first search is in the worker")
    # The mining waits for the worker to be spare, not in the worker's queue behind the search.
    assert worker.queued == 0
    ran = list(worker.ran)
    with caplog.at_level(logging.WARNING, logger="app.analysis"):
        await analyses.close()
    await asyncio.wait_for(analyses.mined(), DEADLINE)
    assert worker.cancelled == ["search"] and worker.ran == ran  # the mining asked no more
    assert not [r for r in caplog.records if r.name.startswith("app.analysis")]

"""An analysis is tried at most ANALYSIS_TRIES times (on SQLite and
PostgreSQL): a search that raises, or a process that vanishes, spends a try;
the last one spent, the analysis is `failed` with a short reason, and
requesting it again runs it afresh. A database out of reach spends none: it
is retried as before. Two apps on one database stand for two server
processes; the clock is moved, never waited for."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

from app.analysis import store
from app.main import create_app

from ..bots.standin import api_from
from ..conftest import Api, Game
from ..waiting import until
from .helpers import Failing, Searcher, analysis_settings, finished

TRIES = 3


@contextlib.asynccontextmanager
async def _running(database_url: str, **settings: Any) -> AsyncIterator[Any]:
    app = create_app(analysis_settings(database_url, **{"analysis_tries": TRIES, **settings}))
    async with app.router.lifespan_context(app):
        yield app


async def _when(api: Api, game: Game, status: str) -> dict[str, Any]:
    async def reached() -> dict[str, Any] | None:
        body: dict[str, Any] = (await api.client.get(f"{api.base}/{game.id}/analysis")).json()
        return body if body["status"] == status else None
    return await until(reached, f"the analysis is {status}")


async def _dead_first(api: Api, game: Game, one: Any, other: Any) -> tuple[Any, Any]:
    """The analysis requested, claimed by one of the two, whose process then
    dies mid-search (no goodbye: its lease stays); (the dead one, the other)."""
    one.search, other.search = Searcher(hold=True), Searcher(hold=True)
    r = await api.client.post(f"{api.base}/{game.id}/analysis", headers=game.auth("white"))
    assert r.status_code == 202, r.text
    await until(lambda: one.search.held + other.search.held == 1, "one process searches")
    first, second = (one, other) if one.search.held else (other, one)
    first._closed = True  # it looks for no more work
    for task in list(first._running.values()):
        task.cancel()
    await first.idle()
    return first, second


def _later(analyses: Any, seconds: float) -> None:
    real = analyses.clock
    analyses.clock = lambda: real() + seconds


async def test_a_search_that_raises_is_tried_exactly_so_often_across_processes(database_url: str) -> None:
    async with _running(database_url) as one, _running(database_url) as other:
        a, b = one.state.parts.analyses, other.state.parts.analyses
        a.search, b.search = Failing(RuntimeError("a bug")), Failing(RuntimeError("a bug"))
        async with api_from(one, "10.0.0.1") as api:
            game = await finished(api, actions=30)
            r = await api.client.post(f"{api.base}/{game.id}/analysis", headers=game.auth("white"))
            assert r.status_code == 202, r.text
            body = await _when(api, game, "failed")
            await a.idle()
            await b.idle()
            assert a.search.calls + b.search.calls == TRIES
            assert await a.look() == 0 and await b.look() == 0  # never taken up again
            row = await store.find(a.engine, game.id)
    assert a.search.calls + b.search.calls == TRIES and row.tries == TRIES
    assert body["failure"] == f"given up after {TRIES} tries (the last one's search raised RuntimeError)"
    assert "position" not in body and body["progress"] < 1


async def test_a_vanished_process_spends_a_try_and_a_failed_analysis_runs_again_when_asked(
        database_url: str) -> None:
    async with _running(database_url) as one, _running(database_url) as other:
        a, b = one.state.parts.analyses, other.state.parts.analyses
        async with api_from(one, "10.0.0.1") as api:
            game = await finished(api, actions=30)
            first, second = await _dead_first(api, game, a, b)
            failing = Failing(RuntimeError("a bug"))
            second.search = failing
            assert await second.look() == 0  # the dead one's lease still runs
            _later(second, first.lease_ms / 1000 + 1)
            assert await second.look() == 1  # its second try; the third follows at once
            failed = await _when(api, game, "failed")
            await second.idle()
            assert failing.calls == TRIES - 1

            searcher = Searcher()
            second.search = searcher
            r = await api.client.post(f"{api.base}/{game.id}/analysis", headers=game.auth("black"))
            assert r.status_code == 202, r.text
            assert r.json()["status"] in ("queued", "running") and "failure" not in r.json()
            done = await _when(api, game, "done")
            row = await store.find(second.engine, game.id)
    assert "search raised RuntimeError" in failed["failure"]
    assert [p["version"] for p in done["plies"]] == list(range(game.version + 1))
    assert searcher.batches and row.tries == 1 and row.failure is None


async def test_the_last_try_vanishing_fails_the_analysis(database_url: str) -> None:
    async with _running(database_url, analysis_tries=1) as one, _running(database_url, analysis_tries=1) as other:
        a, b = one.state.parts.analyses, other.state.parts.analyses
        async with api_from(one, "10.0.0.1") as api:
            game = await finished(api, actions=20)
            first, second = await _dead_first(api, game, a, b)
            _later(second, first.lease_ms / 1000 + 1)
            assert await second.look() == 0
            body = (await api.client.get(f"{api.base}/{game.id}/analysis")).json()
    assert body["status"] == "failed" and "process stopped" in body["failure"]
    assert second.search.batches == []


async def test_a_database_out_of_reach_spends_no_try(database_url: str) -> None:
    async with _running(database_url) as app:
        analyses = app.state.parts.analyses
        outage = Failing(ConnectionRefusedError("the database is down"), times=TRIES + 2)
        analyses.search = outage
        async with api_from(app, "10.0.0.1") as api:
            game = await finished(api, actions=30)
            r = await api.client.post(f"{api.base}/{game.id}/analysis", headers=game.auth("white"))
            assert r.status_code == 202, r.text
            body = await _when(api, game, "done")
            row = await store.find(analyses.engine, game.id)
    assert outage.calls > TRIES + 2 and row.tries == 1
    assert [p["version"] for p in body["plies"]] == list(range(game.version + 1))

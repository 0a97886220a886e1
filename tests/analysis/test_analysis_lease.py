"""An analysis outlives its process (on SQLite and PostgreSQL). Two apps on one
database stand for two server processes: one that dies mid-analysis leaves
its lease, and once the lease has run out the other takes the analysis over
from the plies written, searching none of them again; a finished analysis is
read back the same by a server started afresh. The clock is moved, never
waited for."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

from app.main import create_app

from ..bots.standin import api_from
from ..waiting import until
from .helpers import Searcher, analysis_settings, finished


@contextlib.asynccontextmanager
async def _running(database_url: str) -> AsyncIterator[Any]:
    app = create_app(analysis_settings(database_url))
    async with app.router.lifespan_context(app):
        yield app


async def test_a_dead_process_analysis_is_taken_over_when_its_lease_runs_out(database_url: str) -> None:
    async with _running(database_url) as one, _running(database_url) as other:
        a, b = one.state.parts.analyses, other.state.parts.analyses
        a.search, b.search = Searcher(hold=True), Searcher(hold=True)
        async with api_from(one, "10.0.0.1") as api:
            game = await finished(api, actions=40)
            r = await api.client.post(f"{api.base}/{game.id}/analysis", headers=game.auth("white"))
            assert r.status_code == 202, r.text
            # Both processes hear of it; whichever claims it first is "first".
            await until(lambda: a.search.held + b.search.held == 1, "one process searches")
            first, second = (a, b) if a.search.held else (b, a)
            held, ready = first.search, second.search
            ready.let_all_go()
            held.let_one_go()
            await until(lambda: held.held == 1 and len(held.batches) == 2, "the first batch is written")
            written = (await api.client.get(f"{api.base}/{game.id}/analysis")).json()
            assert written["status"] == "running" and 0 < written["progress"] < 1
            for task in list(first._running.values()):
                task.cancel()  # it dies mid-search: no goodbye, its lease stays
            await first.idle()
            first._closed = True  # and looks for no more work
            assert await second.look() == 0  # the lease still runs
            real = second.clock
            second.clock = lambda: real() + first.lease_ms / 1000 + 1
            assert await second.look() == 1
            await second.idle()
            body = (await api.client.get(f"{api.base}/{game.id}/analysis")).json()
    assert body["status"] == "done" and [p["version"] for p in body["plies"]] == list(range(game.version + 1))
    done_before = {v for batch in held.batches[:1] for v in batch}
    assert done_before and not done_before & {v for batch in ready.batches for v in batch}
    assert body["plies"][:len(written["plies"])] == written["plies"]


async def test_a_finished_analysis_survives_a_restart(database_url: str) -> None:
    async with _running(database_url) as app:
        app.state.parts.analyses.search = Searcher()
        async with api_from(app, "10.0.0.1") as api:
            game = await finished(api, actions=30)
            r = await api.client.post(f"{api.base}/{game.id}/analysis", headers=game.auth("black"))
            assert r.status_code == 202, r.text

            async def done() -> Any:
                body = (await api.client.get(f"{api.base}/{game.id}/analysis")).json()
                return body if body["status"] == "done" else None
            before = await until(done, "the analysis is done")
    async with _running(database_url) as app:
        searcher = Searcher()
        app.state.parts.analyses.search = searcher
        async with api_from(app, "10.0.0.1") as api:
            after = (await api.client.get(f"{api.base}/{game.id}/analysis")).json()
            again = await api.client.post(f"{api.base}/{game.id}/analysis", headers=game.auth("white"))
    assert after == before and again.status_code == 200 and again.json() == before
    assert searcher.batches == []  # nothing searched again

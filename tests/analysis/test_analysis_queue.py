"""The analyses as a shared resource (on SQLite and PostgreSQL): the queue is
fair (one requester's analyses one at a time, whoever else waits, so one
account never holds every worker), a spectator's account may ask; progress reaches the match's
stream as plies are written. A stand-in searcher (helpers.Searcher) holds each
batch until the test lets it go: no time in it."""

from __future__ import annotations

from typing import Any

import pytest

from app.config import Settings

from ..api.members import member
from ..conftest import Api
from ..api.test_asyncapi import payload_validator
from ..realtime.conftest import Socket, ws_path
from ..waiting import until
from .helpers import Searcher, analysis_settings, finished


@pytest.fixture
def settings(database_url: str) -> Settings:
    return analysis_settings(database_url, analysis_workers=2, analysis_per_address=0)


async def _status(api: Api, match_id: str) -> dict[str, Any]:
    return dict((await api.client.get(f"{api.base}/{match_id}/analysis")).json())


async def test_one_account_never_holds_every_worker(api: Api, app: Any) -> None:
    searcher = Searcher(hold=True)
    app.state.parts.analyses.search = searcher
    ada, bo = await member(app, "Spectra"), await member(app, "Quill")
    games = [await finished(api, seed=s, actions=12) for s in (1, 2, 3, 4)]
    for game in games[:3]:  # Ada asks for three, as a spectator of each
        r = await api.client.post(f"{api.base}/{game.id}/analysis", headers=ada.token(ada.read))
        assert r.status_code == 202, r.text
    await until(lambda: searcher.held == 1, "Ada's first analysis is searched")
    r = await api.client.post(f"{api.base}/{games[3].id}/analysis", headers=bo.session())
    assert r.status_code == 202, r.text
    # Two workers: Bo's takes the second, though Ada's two others asked first.
    await until(lambda: searcher.held == 2, "Bo's analysis is searched beside Ada's first")
    states = [await _status(api, g.id) for g in games]
    assert [s["status"] for s in states] == ["running", "queued", "queued", "running"]
    assert (states[1]["position"], states[2]["position"]) == (1, 2)
    searcher.let_all_go()
    for game in games:
        await until(lambda g=game: _done(api, g.id), f"the analysis of {game.id} is done")


async def _done(api: Api, match_id: str) -> bool:
    return (await _status(api, match_id))["status"] == "done"


async def test_progress_reaches_the_match_sockets_as_plies_are_written(api: Api, app: Any) -> None:
    searcher = Searcher(hold=True)
    app.state.parts.analyses.search = searcher
    game = await finished(api, actions=30)
    fits = payload_validator((await api.client.get("/asyncapi.json")).json(), "analysis")
    watcher = await Socket.open(app, ws_path(game.id), None, "127.0.0.1")  # a spectator
    try:
        assert (await watcher.receive())["type"] == "snapshot"
        r = await api.client.post(f"{api.base}/{game.id}/analysis", headers=game.auth("white"))
        assert r.status_code == 202, r.text
        await until(lambda: searcher.held == 1, "the first batch is searched")
        searcher.let_one_go()
        message, _ = await watcher.receive_until(lambda m: m["type"] == "analysis")
        fits.validate(message)  # as the AsyncAPI document describes it
        assert message["match_id"] == game.id and message["status"] == "running"
        assert message["plies"] and message["plies"][0]["version"] == 0 and 0 < message["progress"] < 1
        seen = message["plies"][-1]["version"]
        searcher.let_all_go()
        while message["status"] != "done":
            message, _ = await watcher.receive_until(lambda m: m["type"] == "analysis")
            fits.validate(message)
            if message["plies"]:
                assert message["plies"][0]["version"] == seen + 1  # only what is new
                seen = message["plies"][-1]["version"]
    finally:
        await watcher.close()
    assert seen == game.version and message["progress"] == 1.0 and message["accuracy"]["white"] is not None

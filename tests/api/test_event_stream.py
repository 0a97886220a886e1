"""An account's events as a stream of JSON lines (issue 21): the whole picture on
opening, then each match and challenge as it happens; a keep-alive when quiet;
one stream per token."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from app.challenges.service import person_key
from app.main import create_app

from ..conftest import make_settings
from ..waiting import DEADLINE
from .members import member
from .streams import Stream

PATH = "/api/v1/stream/events"


@pytest.fixture
def settings(database_url: str) -> Any:
    # Recheck rarely and no keep-alive: every line here comes from a nudge.
    return make_settings(database_url, person_recheck_seconds=3600.0, person_keepalive_seconds=3600.0)


async def event(stream: Stream, kind: str) -> dict[str, Any]:
    """The next line, which must be of `kind` (pings skipped, and the inbox's
    notices: tests/notify proves those)."""
    while (line := await stream.next())["type"] in ("ping", "notification"):
        pass
    assert line["type"] == kind, line
    return line


async def test_the_opening_lines_and_each_event_as_it_happens(app: Any, client: httpx.AsyncClient) -> None:
    ada, bo = await member(app, "Ada"), await member(app, "Bo")
    made = (await client.post("/api/v1/challenges/Bo", json={"colour": "white"}, headers=ada.token())).json()
    r = await client.post(f"/api/v1/challenges/{made['id']}/accept", headers=bo.token())
    match_id = r.json()["match_id"]
    waiting = (await client.post("/api/v1/challenges/Bo", json={}, headers=ada.token())).json()

    async with Stream(app, "GET", PATH, bo.token()) as bo_events:
        # Opening: the running match, then the challenge awaiting Bo's answer.
        start = await event(bo_events, "matchStart")
        assert start["match"]["id"] == match_id and start["match"]["colour"] == "black"
        assert start["match"]["opponent"] == "Ada" and "token" not in str(start)
        assert (await event(bo_events, "challenge"))["challenge"]["id"] == waiting["id"]

        await client.post(f"/api/v1/challenges/{waiting['id']}/decline", json={"reason": "later"}, headers=bo.token())
        declined = await event(bo_events, "challengeDeclined")
        assert declined["challenge"]["id"] == waiting["id"] and declined["challenge"]["reason"] == "later"

        again = (await client.post("/api/v1/challenges/Bo", json={}, headers=ada.token())).json()
        assert (await event(bo_events, "challenge"))["challenge"]["id"] == again["id"]
        await client.post(f"/api/v1/challenges/{again['id']}/cancel", headers=ada.token())
        assert (await event(bo_events, "challengeCanceled"))["challenge"]["status"] == "canceled"

        third = (await client.post("/api/v1/challenges/Bo", json={}, headers=ada.token())).json()
        await event(bo_events, "challenge")
        r = await client.post(f"/api/v1/challenges/{third['id']}/accept", headers=bo.token())
        second_match = r.json()["match_id"]
        assert (await event(bo_events, "matchStart"))["match"]["id"] == second_match  # the accept says no more

        assert (await client.post(f"/api/v1/matches/{match_id}/resign", headers=ada.token())).status_code == 200
        finish = await event(bo_events, "matchFinish")
        assert finish["match"]["id"] == match_id and finish["match"]["status"] == "finished"
        assert finish["match"]["result"] is not None

    # A reconnect rebuilds from the opening lines: the one match still running, no challenge.
    async with Stream(app, "GET", PATH, bo.token()) as again_events:
        assert (await event(again_events, "matchStart"))["match"]["id"] == second_match
        await app.state.parts.hub.close_sockets(1001)  # the stream ends with the server, after its opening
        assert again_events.task is not None
        await asyncio.wait_for(again_events.task, DEADLINE)
        assert again_events.buffer == b""


async def test_a_second_stream_of_the_same_token_ends_the_first(app: Any, client: httpx.AsyncClient) -> None:
    ada, bo = await member(app, "Ada"), await member(app, "Bo")
    async with Stream(app, "GET", PATH, bo.token()) as first, Stream(app, "GET", PATH, bo.token(bo.read)) as other, \
            Stream(app, "GET", PATH, bo.token()) as second:
        assert first.task is not None
        await asyncio.wait_for(first.task, DEADLINE)  # replaced: it ended by itself
        await client.post("/api/v1/challenges/Bo", json={}, headers=ada.token())
        await event(second, "challenge")
        await event(other, "challenge")  # another token keeps its own stream
    async with Stream(app, "GET", PATH) as nobody:
        assert nobody.status == 401 and (await nobody.whole())["error"] == "unauthorized"


async def test_a_keep_alive_line_comes_however_often_the_stream_wakes_for_nothing(database_url: str) -> None:
    """Wakes that tell nothing new (a move, a nudge) must not put the keep-alive off:
    here the account's key is nudged without end, and the pings still come."""
    app = create_app(make_settings(database_url, person_recheck_seconds=3600.0, person_keepalive_seconds=0.2))
    async with app.router.lifespan_context(app):
        ada = await member(app, "Ada")
        nudges = app.state.parts.hub.nudges

        async def pester() -> None:
            while True:
                nudges.here(person_key(ada.account.id))
                await asyncio.sleep(0.02)

        pestering = asyncio.create_task(pester())
        try:
            async with Stream(app, "GET", PATH, ada.session(csrf=False)) as quiet:  # a session will do too
                assert await quiet.next() == {"type": "ping"}
                assert await quiet.next() == {"type": "ping"}
        finally:
            pestering.cancel()


async def test_a_newer_stream_on_another_process_ends_the_older(database_url: str) -> None:
    if not database_url.startswith("postgresql"):
        pytest.skip("SQLite has no bus between processes: the nudge that tells them cannot cross")
    first, second = (create_app(make_settings(database_url, person_recheck_seconds=3600.0)) for _ in range(2))
    async with first.router.lifespan_context(first), second.router.lifespan_context(second):
        bo = await member(first, "Bo")
        async with Stream(first, "GET", PATH, bo.token()) as older, Stream(second, "GET", PATH, bo.token()):
            assert older.task is not None
            await asyncio.wait_for(older.task, DEADLINE)  # ended by the nudge from the other process

"""A match as a stream of JSON lines (issue 21): the state, then each update
once, resumable with ?since=, a seat's legal actions on its turn, a keep-alive
line when quiet, and an end when the match finishes."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from ..conftest import ROW, Api, make_settings
from ..waiting import DEADLINE
from .streams import Stream

KEEPALIVE = 0.05  # seconds: a quiet stream's ping comes at once (injected, the default is 7)


@pytest.fixture
def settings(database_url: str) -> Any:
    return make_settings(database_url, match_stream_keepalive_seconds=KEEPALIVE)


def path(match_id: str, query: str = "") -> str:
    return f"/api/v1/matches/{match_id}/stream" + (f"?{query}" if query else "")


async def next_state(stream: Stream) -> dict[str, Any]:
    """The next snapshot or update (pings and presence skipped)."""
    while True:
        line = await stream.next()
        if line["type"] in ("snapshot", "update"):
            return line


async def test_the_state_then_every_update_once_then_the_end(app: Any, api: Api) -> None:
    game = await api.start()
    rng = random.Random(3)
    async with Stream(app, "GET", path(game.id)) as watcher:
        assert watcher.status == 200
        first = await next_state(watcher)  # a ping may come first on a busy machine
        assert first["type"] == "snapshot" and first["match"]["version"] == game.version
        assert first["match"]["server_time"].endswith("Z") and first["match"]["finished_at"] is None
        for _ in range(4):
            await api.step(game, rng)
        await api.client.post(f"/api/v1/matches/{game.id}/resign", headers=game.auth("white"))
        final = await api.state(game)
        seen = []
        while True:
            line = await next_state(watcher)
            assert line["type"] == "update" and line["at"].endswith("Z")
            assert line["match"]["server_time"] == line["at"]  # the moment its clock holds
            seen.append(line["version"])
            if line["match"]["status"] == "finished":
                break
        assert seen == list(range(first["match"]["version"] + 1, final["version"] + 1))
        assert line["match"]["finished_at"] == final["finished_at"] == line["at"]
        assert watcher.task is not None
        await asyncio.wait_for(watcher.task, DEADLINE)  # the response ended: the finishing update was the last line
        assert watcher.buffer == b"" and all(watcher.chunks.get_nowait() == b"" for _ in range(watcher.chunks.qsize()))


async def test_resumed_with_since_nothing_lost_nothing_twice_and_a_ping_when_quiet(app: Any, api: Api) -> None:
    game = await api.start()
    rng = random.Random(4)
    async with Stream(app, "GET", path(game.id)) as first:
        await next_state(first)
        await api.step(game, rng)
        held = (await next_state(first))["version"]
    for _ in range(3):  # while no stream is open
        await api.step(game, rng)
    async with Stream(app, "GET", path(game.id, f"since={held}")) as again:
        got = [await next_state(again) for _ in range(game.version - held)]
        assert [line["version"] for line in got] == list(range(held + 1, game.version + 1))
        log = (await api.client.get(f"/api/v1/matches/{game.id}/actions?since={held}")).json()
        assert [line["at"] for line in got] == [entry["at"] for entry in log]  # read back from the log
        assert all(line["match"]["server_time"] == line["at"] for line in got)
        while (line := await again.next())["type"] == "presence":
            pass
        assert line == {"type": "ping"}  # nothing more to say: a keep-alive, no update twice
    async with Stream(app, "GET", path(game.id, f"since={game.version}")) as current:
        while (line := await current.next())["type"] == "presence":
            pass
        assert line == {"type": "ping"}  # at the current version: nothing to send but that it lives


async def test_a_seat_with_legal_true_is_told_what_it_may_play_on_its_turn(app: Any, api: Api) -> None:
    game = await api.start()
    async with Stream(app, "GET", path(game.id, "legal=true"), game.auth("black")) as black:
        first = await next_state(black)
        assert "legal" not in first  # White sets up first
        await api.act(game, "white", {"type": "setup", "backrow": ROW})
        line = await next_state(black)
        assert line["version"] == game.version and line["legal"] == await api.legal(game, "black")
        assert line["legal"]["setup"]
        await api.act(game, "black", {"type": "setup", "backrow": ROW})
        assert "legal" not in await next_state(black)  # White's turn again
    async with Stream(app, "GET", path(game.id, "legal=true"), game.auth("white")) as white:
        state = await next_state(white)
        assert state["legal"] == await api.legal(game, "white") and state["legal"]["actions"]
        assert "seed" not in state["legal"]  # GET /legal's answer, nothing more


@pytest.mark.parametrize(("query", "auth", "status", "error"), [
    ("legal=true", None, 400, "bad_request"),
    ("", "wrong-token-0123456789", 401, "unauthorized"),
    ("", "mgo_no-such-account-token-0123", 401, None),  # an account's token that proves nothing
    ("since=-1", None, 400, None),
    ("since=%2B0.0", None, 400, None),  # pydantic alone would read "+0.0" as 0
    ("since=1_0", None, 400, None),
])
async def test_refused_before_any_line(app: Any, api: Api, query: str, auth: str | None, status: int,
                                       error: str | None) -> None:
    game = await api.start()
    headers = {"Authorization": f"Bearer {auth}"} if auth else None
    async with Stream(app, "GET", path(game.id, query), headers) as refused:
        assert refused.status == status
        body = await refused.whole()
        assert body["detail"] and (error is None or body["error"] == error)
    async with Stream(app, "GET", path("nosuchmatch1")) as missing:
        assert missing.status == 404

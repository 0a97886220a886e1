"""A seat that resumes (`?since=`) on a match's socket or stream is told what to
do: its `legal` once its catch-up went out, even when it missed nothing; a seat
off its turn and a watcher are told nothing of the kind."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import httpx
import pytest

from tests.conftest import ROW, Api

from ..realtime.conftest import TIMEOUT, Socket, ws_path
from .members import Member
from .streams import Stream

Next = Callable[[], Awaitable[dict[str, Any]]]
QUIET = ("ping", "presence")  # may come at any moment: skipped


@contextlib.asynccontextmanager
async def feed(app: Any, kind: str, match_id: str, headers: dict[str, str] | None = None,
               **query: Any) -> AsyncIterator[Next]:
    """The messages of a socket (its `hello` included) or the lines of a stream,
    one at a time, pings and presence skipped."""
    if kind == "socket":
        sock = await Socket.open(app, ws_path(match_id, **query), headers)

        async def next_message() -> dict[str, Any]:
            while True:
                message = await asyncio.wait_for(sock.inbox.get(), TIMEOUT)
                assert message["type"] == "websocket.send", message
                data: dict[str, Any] = json.loads(message["text"])
                if data["type"] not in QUIET:
                    return data
        try:
            yield next_message
        finally:
            await sock.close()
    else:
        text = "&".join(f"{k}={v}" for k, v in query.items())
        async with Stream(app, "GET", f"/api/v1/matches/{match_id}/stream?{text}", headers) as stream:
            assert stream.status == 200

            async def next_line() -> dict[str, Any]:
                while (line := await stream.next())["type"] in QUIET:
                    pass
                return line
            yield next_line


async def first_of(next_message: Next, kind: str, version: int, seat: str | None) -> dict[str, Any]:
    """The first message after a socket's `hello` (checked), or a stream's first line."""
    if kind == "socket":
        hello = await next_message()
        assert hello["type"] == "hello" and hello["version"] == version and hello["seat"] == seat
    return await next_message()


KINDS = ("socket", "stream")


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("updates", ["full", "compact"])
async def test_a_seat_at_the_current_version_is_told_its_legal_on_its_turn_only(
        app: Any, api: Api, kind: str, updates: str) -> None:
    game = await api.start()
    version = game.version
    # White to set up: White is told; Black and a watcher are told nothing but what comes next.
    async with feed(app, kind, game.id, game.auth("white"), since=version, updates=updates) as white:
        told = await first_of(white, kind, version, "white")
        assert told == {"type": "legal", **await api.legal(game, "white")}
        assert told["version"] == version and told["setup"]
    async with feed(app, kind, game.id, game.auth("black"), since=version, updates=updates) as black, \
            feed(app, kind, game.id, None, since=version, updates=updates) as watcher:
        for other in (black, watcher):
            if kind == "socket":
                assert (await other())["type"] == "hello"
        await api.act(game, "white", {"type": "setup", "backrow": ROW})
        for other in (black, watcher):
            nxt = await other()  # a legal would have come before anything newer
            assert nxt["type"] in ("update", "delta") and nxt["version"] == game.version and "legal" not in nxt
    # Now Black's turn, White's done: the same the other way round.
    async with feed(app, kind, game.id, game.auth("black"), since=game.version, updates=updates) as black:
        told = await first_of(black, kind, game.version, "black")
        assert told == {"type": "legal", **await api.legal(game, "black")}
    async with feed(app, kind, game.id, game.auth("white"), since=game.version, updates=updates) as white:
        if kind == "socket":
            assert (await white())["type"] == "hello"
        await api.act(game, "black", {"type": "setup", "backrow": ROW})
        nxt = await white()  # White's turn comes with this update: no legal before it
        assert nxt["type"] in ("update", "delta") and nxt["version"] == game.version and "legal" not in nxt


@pytest.mark.parametrize("kind", KINDS)
async def test_after_the_updates_missed_legal_follows_them(app: Any, api: Api, kind: str) -> None:
    game = await api.start()
    held = game.version
    await api.setups(game)  # White then Black set up: White to decide
    legal = await api.legal(game, "white")
    assert legal["actions"]
    async with feed(app, kind, game.id, game.auth("white"), since=held) as white:
        got = [await first_of(white, kind, game.version, "white")]
        got += [await white() for _ in range(game.version - held)]
        assert [m["type"] for m in got] == ["update"] * (game.version - held) + ["legal"]
        assert got[-1] == {"type": "legal", **legal}
    async with feed(app, kind, game.id, game.auth("black"), since=held) as black:
        got = [await first_of(black, kind, game.version, "black")]
        got += [await black() for _ in range(game.version - held - 1)]
        assert [m["type"] for m in got] == ["update"] * (game.version - held)
        await api.act(game, "white", legal["actions"][0])
        nxt = await black()  # nothing between the catch-up and what came next
        assert nxt["type"] == "update" and nxt["version"] == game.version
    # With ?legal=true the last update of the catch-up carries it: no `legal` message twice.
    mover = (await api.state(game))["to_move"]
    async with feed(app, kind, game.id, game.auth(mover), since=held, legal="true") as seat:
        got = [await first_of(seat, kind, game.version, mover)]
        got += [await seat() for _ in range(game.version - held - 1)]
        assert [m["type"] for m in got] == ["update"] * (game.version - held)
        legal = await api.legal(game, mover)
        assert legal["actions"] and got[-1]["legal"] == legal
        await api.act(game, mover, legal["actions"][0])
        nxt = await seat()
        assert nxt["type"] == "update" and nxt["version"] == game.version


@pytest.mark.parametrize("kind", KINDS)
async def test_legal_true_at_the_current_version_sends_the_legal_message(app: Any, api: Api, kind: str) -> None:
    game = await api.start()
    async with feed(app, kind, game.id, game.auth("white"), since=game.version, legal="true") as white:
        assert await first_of(white, kind, game.version, "white") == {"type": "legal", **await api.legal(game, "white")}


@pytest.mark.parametrize("kind", KINDS)
async def test_an_account_holding_the_seat_is_told_as_its_token_is(
        app: Any, client: httpx.AsyncClient, ada: Member, bea: Member, kind: str) -> None:
    made = await client.post("/api/v1/matches", json={"seat": "white"}, headers=ada.token())
    match_id = made.json()["match"]["id"]
    joined = await client.post(f"/api/v1/matches/{match_id}/join", json={}, headers=bea.token())
    version = joined.json()["match"]["version"]
    legal = (await client.get(f"/api/v1/matches/{match_id}/legal", headers=ada.token())).json()
    async with feed(app, kind, match_id, ada.token(), since=version) as white:
        assert await first_of(white, kind, version, "white") == {"type": "legal", **legal}
    async with feed(app, kind, match_id, bea.token(), since=version) as black:
        if kind == "socket":
            assert (await black())["seat"] == "black"
        played = await client.post(f"/api/v1/matches/{match_id}/actions", headers=ada.token(),
                                   json={"action": {"type": "setup", "backrow": ROW}, "version": version})
        assert played.status_code == 200, played.text
        nxt = await black()
        assert nxt["type"] == "update" and nxt["version"] == version + 1


@pytest.mark.parametrize("kind", KINDS)
async def test_a_watcher_resumed_is_told_no_legal(app: Any, api: Api, kind: str) -> None:
    game = await api.start()
    await api.setups(game)
    async with feed(app, kind, game.id, None, since=game.version - 1) as watcher:
        first = await first_of(watcher, kind, game.version, None)
        assert first["type"] == "update" and first["version"] == game.version
        legal = await api.legal(game, "white")
        await api.act(game, "white", legal["actions"][0])
        nxt = await watcher()
        assert nxt["type"] == "update" and nxt["version"] == game.version

"""Compact updates end to end (`?updates=compact`), on SQLite and on PostgreSQL: a
watcher that applies each `delta` to the state it holds has, at every version, the
very state a watcher of full updates is sent, across a version past FULL_EVERY,
a presence change, a gap filled from the database, a `?since=` catch-up and a
resync after an overflow. The match stream takes deltas too, and ends on the one
that finishes the match."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from app.realtime.changes import applied
from app.realtime.room import FULL_EVERY
from tests.api.streams import Stream
from tests.conftest import Api, Game
from tests.realtime.conftest import RealtimeClock, Socket, ws_path


class Holder:
    """A client's view: the state it holds, and what it held at each version it was sent."""

    def __init__(self) -> None:
        self.state: dict[str, Any] | None = None
        self.at: dict[int, dict[str, Any]] = {}  # version -> state, for versions sent as updates or deltas
        self.kinds: list[str] = []

    def take(self, m: dict[str, Any]) -> None:
        kind = m["type"]
        if kind == "snapshot":
            self.state = m["match"]
        elif kind == "update":
            assert self.state is None or m["version"] == self.state["version"] + 1
            self.state = m["match"]
            self.at[m["version"]] = self.state
        elif kind == "delta":
            assert self.state is not None and "match" not in m
            self.state = applied(self.state, m)
            self.at[m["version"]] = self.state
        else:
            return
        self.kinds.append(kind)

    async def read(self, sock: Socket, version: int) -> None:
        """Take what the socket is sent up to `version`."""
        while self.state is None or self.state["version"] < version:
            self.take(await sock.receive())


async def play(api: Api, game: Game, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if game.match["status"] != "active":
            return
        await api.step(game, rng)


def agree(full: Holder, compact: Holder, at_least: int) -> None:
    shared = sorted(set(full.at) & set(compact.at))
    assert len(shared) >= at_least
    for version in shared:
        assert compact.at[version] == full.at[version], f"version {version}"


async def test_a_compact_watcher_holds_at_every_version_what_a_full_watcher_is_sent(
        realtime_clock: RealtimeClock, app: Any, api: Api, sockets: Any) -> None:
    game = await api.start()
    full_sock = await sockets(game.id)
    compact_sock = await sockets(game.id, updates="compact")
    full, compact = Holder(), Holder()
    rng = random.Random(11)
    await play(api, game, rng, 20)
    third = await sockets(game.id, client="10.0.0.9")  # one more spectator: the deltas say so
    await full.read(full_sock, game.version)
    await compact.read(compact_sock, game.version)
    await play(api, game, rng, FULL_EVERY + 10)  # the hub's clock stands still: no socket is pinged dead
    await third.close()
    await play(api, game, rng, 5)
    await full.read(full_sock, game.version)
    await compact.read(compact_sock, game.version)
    assert game.version > FULL_EVERY
    agree(full, compact, at_least=game.version - 2)
    assert compact.kinds.count("delta") >= game.version - 4  # compact indeed, not full in disguise
    assert "delta" not in full.kinds  # and the default is untouched
    assert compact.at[FULL_EVERY] is not None and "update" in compact.kinds  # the K-th version went full
    assert {s["spectators"] for s in compact.at.values()} >= {1, 2}


async def test_across_a_gap_and_a_catch_up_from_the_database(realtime_clock: RealtimeClock, app: Any, api: Api, sockets: Any) -> None:
    game = await api.start()
    full_sock = await sockets(game.id)
    compact_sock = await sockets(game.id, updates="compact")
    full, compact = Holder(), Holder()
    rng = random.Random(12)
    await play(api, game, rng, 6)
    hub = app.state.parts.hub
    real_publish = hub.publish
    dropped: list[int] = []

    async def loses_one(match_id: str, updates: Any) -> None:
        if not dropped:  # committed, and this process's sockets never hear of it
            dropped.append(updates[-1]["version"])
            return
        await real_publish(match_id, updates)

    hub.publish = loses_one
    try:
        await play(api, game, rng, 2)  # the second one shows the hole, filled from the log
    finally:
        hub.publish = real_publish
    await play(api, game, rng, 8)
    await full.read(full_sock, game.version)
    await compact.read(compact_sock, game.version)
    assert dropped and dropped[0] in compact.at
    agree(full, compact, at_least=game.version - 2)
    # Back with ?since= after a drop: the missed versions come from the log in full, deltas after.
    held = game.version
    await compact_sock.close()
    await play(api, game, rng, 3)
    again = await sockets(game.id, updates="compact", since=held)
    compact.kinds.clear()
    await play(api, game, rng, 4)
    await full.read(full_sock, game.version)
    await compact.read(again, game.version)
    assert compact.kinds[:3] == ["update"] * 3 and "delta" in compact.kinds[3:]
    agree(full, compact, at_least=game.version - 2)


class Stuck(Socket):
    """A compact client that reads nothing until told to: its queue overflows."""

    go: asyncio.Event

    async def _app_send(self, message: dict[str, Any]) -> None:
        await self.go.wait()
        await super()._app_send(message)


async def test_after_a_resync_the_deltas_apply_to_the_fresh_snapshot(realtime_clock: RealtimeClock, app: Any, api: Api, sockets: Any) -> None:
    app.state.parts.hub.queue_limit = 4
    game = await api.start()
    full_sock = await sockets(game.id)
    slow = Stuck(app, ws_path(game.id, updates="compact"))
    slow.go = asyncio.Event()
    slow.go.set()
    slow.task = asyncio.create_task(app(slow.scope, slow._app_receive, slow._app_send))
    await slow.outbox.put({"type": "websocket.connect"})
    assert (await slow.inbox.get())["type"] == "websocket.accept"
    full, compact = Holder(), Holder()
    compact.take(await slow.receive())  # the snapshot
    slow.go.clear()
    rng = random.Random(13)
    await play(api, game, rng, 12)  # 12 versions against a queue of 4
    slow.go.set()
    await play(api, game, rng, 6)
    await full.read(full_sock, game.version)
    await compact.read(slow, game.version)
    assert compact.kinds.count("snapshot") >= 2 and compact.kinds[-1] == "delta"
    agree(full, compact, at_least=5)
    await slow.close()


@pytest.fixture
def settings(database_url: str) -> Any:
    from tests.conftest import make_settings
    return make_settings(database_url, match_stream_keepalive_seconds=0.05)


async def test_the_stream_sends_deltas_and_ends_on_the_one_that_finishes(app: Any, api: Api) -> None:
    game = await api.start()
    rng = random.Random(14)
    path = f"/api/v1/matches/{game.id}/stream?updates=compact"
    async with Stream(app, "GET", f"/api/v1/matches/{game.id}/stream") as full_stream, \
            Stream(app, "GET", path) as compact_stream:
        full, compact = Holder(), Holder()
        await play(api, game, rng, 6)
        await api.client.post(f"/api/v1/matches/{game.id}/resign", headers=game.auth("white"))
        final = await api.state(game)
        for holder, stream in ((full, full_stream), (compact, compact_stream)):
            while holder.state is None or holder.state["status"] != "finished":
                holder.take(await stream.next())
            assert stream.task is not None
            await asyncio.wait_for(stream.task, 30)  # the finishing line was the last
        assert compact.kinds.count("delta") >= 6 and compact.state == full.state
        assert compact.state["version"] == final["version"]
        agree(full, compact, at_least=6)


async def test_a_socket_asking_for_another_form_is_refused_with_a_reason(api: Api, sockets: Any) -> None:
    game = await api.start()
    sock = await sockets(game.id, updates="tiny")
    with pytest.raises(Exception) as closed:
        await sock.receive()
    assert getattr(closed.value, "code", None) == 1008 and "updates" in closed.value.reason


async def test_a_compact_seat_with_legal_true_is_told_its_legal_actions_on_a_delta(
        api: Api, sockets: Any) -> None:
    from tests.conftest import ROW

    game = await api.start()
    black = await sockets(game.id, token=game.tokens["black"], legal="true", updates="compact")
    assert (await black.receive())["type"] == "snapshot"
    await api.act(game, "white", {"type": "setup", "backrow": ROW})
    line = await black.receive()
    while line["type"] == "presence":
        line = await black.receive()
    assert line["type"] == "delta" and line["legal"] == await api.legal(game, "black") and line["legal"]["setup"]
    await api.act(game, "black", {"type": "setup", "backrow": ROW})
    line = await black.receive()
    while line["type"] == "presence":
        line = await black.receive()
    assert line["type"] == "delta" and "legal" not in line  # White's turn again

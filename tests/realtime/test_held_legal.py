"""`GET /legal` answered from the record a process holds (MatchKeeper.newest): with
no question to the database only in a process no other writes beside (its bus is
its own: SQLite's one process) when the match's sockets here hold that version
(Hub.vouched); anywhere else only when the database's stored version is the held
record's (stored_states.version_now, one small statement), else the record is read: the
database is the truth across processes. There a lost bus message (a Redis
restart) would leave a held record behind for as long as no other came, so two
processes always ask. Two "processes" are two apps on one
database whose buses share one in-memory channel, which a test can hold back or
lose; each test runs on SQLite and on PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest

import app.matches.store as store
import app.matches.stored_states as stored_states
import app.wiring as wiring
from app.main import create_app
from app.realtime.bus import MemoryBus, Message
from app.wiring import build

from ..conftest import ROW, Api, FakeTime, Game, make_settings
from ..waiting import until
from .conftest import Socket, ws_path

SETUP = {"type": "setup", "backrow": ROW}
# The test sockets answer no ping: a hub pinging every 10 s closes one 30 s after
# (1011), which a loaded machine reached within a test. No test here is about that.
NO_PINGS = {"ws_ping_seconds": 3600.0, "ws_dead_after_seconds": 7200.0}
_SECOND: dict[str, Any] = {}  # the second process's app, built once per test process


@dataclass
class Held:
    """Process B's messages from the channel, held back while `holding`."""

    listener: Callable[[Message], None]
    holding: bool = False
    kept: list[Message] = field(default_factory=list)

    def __call__(self, message: Message) -> None:
        if self.holding:
            self.kept.append(message)
        else:
            self.listener(message)

    def release(self) -> None:
        self.holding = False
        kept, self.kept = self.kept, []
        for message in kept:
            self.listener(message)


@dataclass
class Two:
    a: Any
    b: Any
    api_a: Api
    api_b: Api
    bus_b: Held
    loads: list[str]


def _count_loads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What was asked of the database from now on, in order: a match's id for
    its record read, `version:<id>` for its stored version alone."""
    loads: list[str] = []
    real_load, real_version_now = store.load, stored_states.version_now

    async def counted_load(engine: Any, match_id: str, *args: Any, **kwargs: Any) -> Any:
        loads.append(match_id)
        return await real_load(engine, match_id, *args, **kwargs)

    async def counted_version_now(engine: Any, match_id: str) -> int | None:
        loads.append(f"version:{match_id}")
        return await real_version_now(engine, match_id)

    monkeypatch.setattr(store, "load", counted_load)
    monkeypatch.setattr(stored_states, "version_now", counted_version_now)
    return loads


def _asked(loads: list[str], game: Game) -> bool:
    return game.id in loads or f"version:{game.id}" in loads


@pytest.fixture
async def two(database_url: str, apps: Any, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Two]:
    channel: list[Callable[[Message], None]] = []
    monkeypatch.setattr(wiring, "make_bus", lambda *a, **k: MemoryBus(channel))
    loads = _count_loads(monkeypatch)
    settings = make_settings(database_url, **NO_PINGS)
    a = apps.serving(settings)
    b = _SECOND.get("app")
    if b is None:
        b = _SECOND["app"] = create_app(settings)
    else:
        b.serve(build(settings))
    async with AsyncExitStack() as stack:
        await stack.enter_async_context(a.router.lifespan_context(a))
        await stack.enter_async_context(b.router.lifespan_context(b))
        assert len(channel) == 2  # A's listener, then B's
        held = Held(channel[1])
        channel[1] = held
        clients = [await stack.enter_async_context(httpx.AsyncClient(
            transport=httpx.ASGITransport(app=x), base_url="http://testserver")) for x in (a, b)]
        yield Two(a, b, Api(clients[0]), Api(clients[1]), held, loads)
        channel[1] = held.listener  # B's bus leaves the channel as it came


@pytest.fixture
async def one(database_url: str, apps: Any, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[tuple[Any, Api, list[str]]]:
    """One process alone on its database (a bus of its own), and its reads of matches."""
    monkeypatch.setattr(wiring, "make_bus", lambda *a, **k: MemoryBus())
    loads = _count_loads(monkeypatch)
    app = apps.serving(make_settings(database_url, **NO_PINGS))
    async with app.router.lifespan_context(app), httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://testserver") as client:
        yield app, Api(client), loads


async def _watched(app: Any, game: Game) -> Socket:
    """A seat's socket on `app`, past its snapshot: its room holds the match."""
    sock = await Socket.open(app, ws_path(game.id, token=game.tokens["white"]))
    snapshot, _ = await sock.receive_until(lambda m: m["type"] == "snapshot")
    assert snapshot["match"]["version"] == game.version
    return sock


async def _watched_on_b(two: Two, game: Game) -> Socket:
    return await _watched(two.b, game)


async def _legal(api: Api, game: Game, colour: str) -> dict[str, Any]:
    return await api.legal(game, colour)


async def test_a_match_held_here_is_answered_without_a_read(one: tuple[Any, Api, list[str]]) -> None:
    app, api, loads = one
    game = await api.start()
    sock = await _watched(app, game)
    try:
        loads.clear()
        first = await _legal(api, game, "white")
        assert first["version"] == game.version and first["setup"]
        assert loads == []  # the room's version is the cached record's: no read
        await api.act(game, "white", SETUP)  # its own commit moves the room on
        await sock.receive_until(lambda m: m["type"] == "update" and m["version"] == game.version)
        loads.clear()
        answer = await _legal(api, game, "black")
        assert answer["version"] == game.version and answer["setup"]
        assert loads == []
    finally:
        await sock.close()


async def test_a_match_nobody_watches_here_is_read(one: tuple[Any, Api, list[str]]) -> None:
    _, api, loads = one
    game = await api.start()
    await api.act(game, "white", SETUP)
    loads.clear()
    answer = await _legal(api, game, "black")
    assert answer["version"] == game.version and answer["setup"]
    # Asked: no socket here vouched for the version. Its stored version alone, the
    # record held here being at it (this process's own commit).
    assert loads == [f"version:{game.id}"]


async def test_what_fell_due_is_applied_not_served_from_the_held_record(one: tuple[Any, Api, list[str]]) -> None:
    app, api, _ = one
    service = app.state.parts.service
    time = FakeTime(service)
    game = await api.start(time_control={"type": "realtime", "minutes": 1, "increment": 5})
    sock = await _watched(app, game)
    try:
        assert (await _legal(api, game, "white"))["setup"]
        time.advance(61)  # White's setup time is over: the match is aborted at the next read
        answer = await _legal(api, game, "white")
        assert answer == {"version": game.version + 1, "actions": [], "setup": []}
        assert (await api.state(game))["result"]["reason"] == "aborted"
        await until(lambda: app.state.parts.hub.vouched(game.id) == answer["version"],
                    "the room to hold the abort")
    finally:
        await sock.close()


async def test_beside_another_process_a_held_match_is_always_read(two: Two) -> None:
    game = await two.api_a.start()
    sock = await _watched_on_b(two, game)
    try:
        two.loads.clear()
        assert await _legal(two.api_b, game, "white") == await _legal(two.api_a, game, "white")
        assert _asked(two.loads, game)
        await two.api_b.act(game, "white", SETUP)  # B's own commit: its room is at the newest
        await sock.receive_until(lambda m: m["type"] == "update" and m["version"] == game.version)
        two.loads.clear()
        answer = await _legal(two.api_b, game, "black")
        assert answer["version"] == game.version and answer["setup"]
        assert _asked(two.loads, game)  # asked even so: A may have written since
        assert game.id not in two.loads  # its version alone: B holds the record at it
    finally:
        await sock.close()


async def test_a_write_whose_announcement_was_lost_is_answered_at_once(two: Two) -> None:
    """The Redis restart's case: A's announcement never reaches B, whose room
    stays at the old version; B's answer is the database's all the same."""
    game = await two.api_a.start()
    sock = await _watched_on_b(two, game)
    try:
        await _legal(two.api_b, game, "white")  # B holds the record at this version
        two.bus_b.holding = True
        await two.api_a.act(game, "white", SETUP)
        two.bus_b.kept.clear()  # lost on the way
        two.bus_b.holding = False
        answer = await _legal(two.api_b, game, "black")
        assert answer["version"] == game.version and answer["setup"]
        assert answer == await _legal(two.api_a, game, "black")
        assert (await _legal(two.api_b, game, "white"))["setup"] == []  # no longer White's to set up
    finally:
        await sock.close()


async def test_a_seat_whose_socket_is_here_is_not_written_seen_per_request(
        two: Two, monkeypatch: pytest.MonkeyPatch) -> None:
    touched: list[tuple[str, str]] = []
    real_touch = store.touch

    async def counted_touch(engine: Any, match_id: str, colour: str, *args: Any) -> None:
        touched.append((match_id, colour))
        await real_touch(engine, match_id, colour, *args)

    monkeypatch.setattr(store, "touch", counted_touch)
    game = await two.api_a.start()
    sock = await _watched_on_b(two, game)  # White's socket, on B
    try:
        touched.clear()
        await _legal(two.api_b, game, "white")
        await two.api_b.act(game, "white", SETUP)
        assert touched == []  # B's heartbeat writes White seen: no write per request
        await _legal(two.api_b, game, "black")  # no socket of Black's here: written seen
        assert touched == [(game.id, "black")]
        await _legal(two.api_a, game, "white")  # nor on A, which holds no socket of White's
        assert touched[-1] == (game.id, "white")
    finally:
        await sock.close()

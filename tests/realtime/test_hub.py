"""The hub alone, against a stand-in for the database: order, gaps, slow sockets."""

from __future__ import annotations

import asyncio
import json
import signal
from typing import Any

import pytest

from app.realtime import close_sockets_on_signal
from app.realtime.bus import Announcement, MemoryBus, Presence, decode
from app.realtime.hub import Hub

from ..waiting import until
from .conftest import RealtimeClock


class Log:
    """A match log standing in for the database."""

    def __init__(self, match_id: str = "m1", keep: int = 1000) -> None:
        self.match_id, self.keep = match_id, keep
        self.updates: list[dict[str, Any]] = []
        self.presence: list[tuple[str, bool]] = []

    def state(self, version: int) -> dict[str, Any]:
        return {"id": self.match_id, "version": version,
                "players": {"white": {"name": "w", "connected": False},
                            "black": {"name": "b", "connected": False}}}

    def commit(self) -> dict[str, Any]:
        version = len(self.updates) + 1
        update = {"type": "update", "version": version, "action": {"type": "pass"},
                  "player": "white", "automatic": False, "match": self.state(version)}
        self.updates.append(update)
        return update

    async def snapshot(self, match_id: str) -> dict[str, Any] | None:
        await asyncio.sleep(0)
        return self.state(len(self.updates))

    async def updates_since(self, match_id: str, version: int) -> list[dict[str, Any]] | None:
        await asyncio.sleep(0)
        if len(self.updates) - version > self.keep or version > len(self.updates):
            return None
        return self.updates[version:]

    async def seat_presence(self, match_id: str, colour: str, connected: bool) -> None:
        self.presence.append((colour, connected))

    async def touch(self, seats: list[tuple[str, str]]) -> None:
        pass

    async def seats_here(self, match_ids: list[str]) -> dict[str, dict[str, bool]]:
        return {}  # nobody's heartbeat reaches this "database": a silent process's seats are gone


class Socket:
    """Collects what the hub sends (Stuck, below, is a slow reader)."""

    def __init__(self) -> None:
        self.got: list[dict[str, Any]] = []

    async def __call__(self, event: dict[str, Any]) -> None:
        if event["type"] == "websocket.send":
            self.got.append(json.loads(event["text"]))
        else:
            self.got.append(event)

    def versions(self) -> list[int]:
        out = []
        for m in self.got:
            if m.get("type") == "snapshot":
                out.append(m["match"]["version"])
            elif m.get("type") == "update":
                out.append(m["version"])
        return out


def last_version(sock: Socket) -> int | None:
    versions = sock.versions()
    return versions[-1] if versions else None


def contiguous(versions: list[int]) -> bool:
    return all(b == a + 1 for a, b in zip(versions, versions[1:], strict=False))


async def test_snapshot_first_then_every_update_in_order() -> None:
    log = Log()
    hub = Hub(log)
    await hub.start()
    log.commit()
    sock = Socket()
    hub.join("m1", sock, None, None)
    await hub.publish("m1", [log.commit()])  # lands before the snapshot is read: no duplicate
    await until(lambda: bool(sock.versions()), "the snapshot")
    for _ in range(4):
        await hub.publish("m1", [log.commit()])
    await until(lambda: last_version(sock) == 6, "version 6")
    assert sock.got[0]["type"] == "snapshot"
    assert sock.versions() == [2, 3, 4, 5, 6]
    assert sock.got[0]["match"]["spectators"] == 1
    await hub.close()


async def test_out_of_order_and_duplicate_publishes_still_arrive_once_in_order() -> None:
    log = Log()
    hub = Hub(log)
    await hub.start()
    sock = Socket()
    hub.join("m1", sock, None, None)
    await until(lambda: bool(sock.versions()), "the snapshot")
    a, b, c = log.commit(), log.commit(), log.commit()
    await hub.publish("m1", [c])  # 3 before 1 and 2: the hole is filled from the log
    await hub.publish("m1", [a, b])
    await hub.publish("m1", [b])
    await until(lambda: last_version(sock) == 3, "version 3")
    assert sock.versions() == [0, 1, 2, 3]
    await hub.close()


class Stuck(Socket):
    """A reader that takes nothing while `go` is not set: slow for as long as the
    test wants, however late a loaded machine runs it."""

    def __init__(self, going: bool = False) -> None:
        super().__init__()
        self.go = asyncio.Event()
        if going:
            self.go.set()

    async def __call__(self, event: dict[str, Any]) -> None:
        await self.go.wait()
        await super().__call__(event)


async def test_a_slow_socket_delays_nobody_else() -> None:
    log = Log()
    hub = Hub(log)
    await hub.start()
    # Stuck rather than 0.2 s per message: with a delay, whether the fast socket was
    # served before the slow one's turn came was a matter of timing.
    slow, fast = Stuck(), Socket()
    hub.join("m1", slow, None, None)
    hub.join("m1", fast, None, None)
    await until(lambda: bool(fast.versions()), "the fast one's snapshot")
    for _ in range(3):
        await hub.publish("m1", [log.commit()])
    await until(lambda: last_version(fast) == 3, "version 3 to the fast one")
    assert fast.versions() == [0, 1, 2, 3]
    assert slow.got == []  # served while the slow one has not taken its snapshot yet
    slow.go.set()
    await until(lambda: last_version(slow) == 3, "version 3 to the slow one")
    assert slow.versions() == [0, 1, 2, 3]
    await hub.close()


async def test_an_overflowing_socket_gets_a_fresh_snapshot() -> None:
    log = Log()
    hub = Hub(log, queue_limit=4)
    await hub.start()
    slow = Stuck(going=True)
    hub.join("m1", slow, None, None)
    await until(lambda: bool(slow.versions()), "the snapshot")
    slow.go.clear()  # from now on it takes nothing: 30 updates overflow its queue of 4
    for _ in range(30):
        await hub.publish("m1", [log.commit()])
    slow.go.set()
    await until(lambda: last_version(slow) == 30, "version 30")
    versions = slow.versions()
    assert versions[-1] == 30 and sorted(set(versions)) == versions
    assert [m["type"] for m in slow.got].count("snapshot") >= 2
    await hub.close()


async def test_since_replays_what_was_missed_or_sends_a_snapshot_when_too_old() -> None:
    log = Log(keep=3)
    hub = Hub(log)
    await hub.start()
    for _ in range(5):
        log.commit()
    recent, old = Socket(), Socket()
    hub.join("m1", recent, None, 3)
    hub.join("m1", old, None, 0)
    await until(lambda: last_version(recent) == 5 and last_version(old) == 5, "version 5 on both")
    assert [m["type"] for m in recent.got if m["type"] != "presence"] == ["update", "update"]
    assert recent.versions() == [4, 5]
    assert old.got[0]["type"] == "snapshot" and old.versions() == [5]
    await hub.close()


async def two_processes(log: Log, **options: Any) -> tuple[Hub, Hub, list[Any]]:
    """Two started hubs on one in-memory channel, as two server processes would be
    on the Postgres bus; and the channel, for a test that takes one away."""
    channel: list[Any] = []
    here, there = Hub(log, MemoryBus(channel), **options), Hub(log, MemoryBus(channel), **options)
    await here.start()
    await there.start()
    return here, there, channel


async def test_announcements_from_another_process_are_fetched_from_the_log() -> None:
    log = Log()
    here, there, _ = await two_processes(log)
    watcher = Socket()
    there.join("m1", watcher, None, None)
    seat = Socket()
    here.join("m1", seat, "white", None)
    await until(lambda: any(m["type"] == "presence" and m["players"]["white"]["connected"]
                            for m in watcher.got), "white's presence, across the bus")
    for _ in range(3):
        await here.publish("m1", [log.commit()])
    await until(lambda: last_version(watcher) == 3, "version 3, across the bus")
    assert watcher.versions() == [0, 1, 2, 3]
    presence = [m for m in watcher.got if m["type"] == "presence"][-1]
    assert presence["players"]["white"]["connected"] is True and presence["spectators"] == 1
    assert watcher.got[-1]["match"]["players"]["white"]["connected"] is True
    await here.close()
    await there.close()


async def test_close_says_1001_to_every_socket() -> None:
    log = Log()
    hub = Hub(log)
    await hub.start()
    sock = Socket()
    hub.join("m1", sock, None, None)
    await until(lambda: bool(sock.got), "the snapshot")
    await hub.close()
    assert sock.got[-1] == {"type": "websocket.close", "code": 1001, "reason": "server shutting down"}


async def test_a_silent_socket_is_pinged_then_closed() -> None:
    log = Log()
    hub = Hub(log, ping_seconds=0.1, dead_after_seconds=0.4)
    await hub.start()
    sock = Socket()
    hub.join("m1", sock, None, None)
    await until(lambda: bool(sock.got) and sock.got[-1]["type"] == "websocket.close", "a close")
    assert {"type": "ping"} in sock.got
    assert sock.got[-1]["type"] == "websocket.close" and sock.got[-1]["code"] == 1011
    await hub.close()


def test_bus_payloads_round_trip() -> None:
    for message in (Announcement("p1", "m1", 7), Presence("p1", "m1", 1, 0, 12, True)):
        assert decode(message.encode()) == message
    assert decode("x|y") is None and decode("v|a|b|c") is None


async def test_a_room_too_far_behind_the_log_starts_its_sockets_afresh() -> None:
    log = Log(keep=2)
    here, there, _ = await two_processes(log)
    watcher = Socket()
    there.join("m1", watcher, None, None)
    await until(lambda: bool(watcher.versions()), "the snapshot")
    await here.publish("m1", [log.commit()])
    await until(lambda: last_version(watcher) == 1, "version 1, across the bus")
    for _ in range(5):  # landed, but their announcements were lost
        log.commit()
    await here.publish("m1", [log.commit()])
    await until(lambda: last_version(watcher) == 7, "version 7, across the bus")
    assert watcher.versions() == [0, 1, 7]
    assert [m["type"] for m in watcher.got if m["type"] != "presence"][-1] == "snapshot"
    await here.close()
    await there.close()


async def test_a_process_that_vanished_stops_counting_and_a_live_one_keeps_counting(
        realtime_clock: RealtimeClock) -> None:
    log = Log()
    # The hubs' clock moves only when the test moves it, a refresh round at a time:
    # however late the machine runs the heartbeats, no process misses a round it
    # had time for, and a process is silent only when the test says so. (A quarter
    # second: a sum of them is exact in binary, so a round is never a hair short.)
    ping = 0.25
    here, there, channel = await two_processes(log, ping_seconds=ping, dead_after_seconds=100)
    watcher = Socket()
    here.join("m1", watcher, None, None)
    for _ in range(3):
        there.join("m1", Socket(), None, None)
    there.join("m1", Socket(), "black", None)

    def shown() -> tuple[int, bool] | None:
        presences = [m for m in watcher.got if m.get("type") == "presence"]
        if not presences:
            return None
        return presences[-1]["spectators"], presences[-1]["players"]["black"]["connected"]

    await until(lambda: shown() == (4, True), "4 spectators and black, across the bus")
    # Over three refresh rounds, after which what was not said again is forgotten:
    # a process that keeps saying so still counts. The rounds are counted as they
    # go by on the bus, both processes' (each forgets when it refreshes).
    refreshes = {here.origin: 0, there.origin: 0}

    def count(message: Any) -> None:
        if isinstance(message, Presence) and not message.hello and message.origin in refreshes:
            refreshes[message.origin] += 1

    channel.append(count)
    shown_from = len(watcher.got)

    async def round_of(origin: str) -> None:
        """The clock moves one round on; wait for `origin` to refresh in it."""
        before = refreshes[origin]
        realtime_clock.now += ping
        await until(lambda: refreshes[origin] > before, "a refresh round")

    for _ in range(4):
        await round_of(here.origin)
        await until(lambda: refreshes[there.origin] >= refreshes[here.origin], "there's refresh in the round")
    assert shown() == (4, True)
    later = [m for m in watcher.got[shown_from:] if m.get("type") == "presence"]
    assert all(m["spectators"] == 4 and m["players"]["black"]["connected"] for m in later), later
    # `there` dies without a word: its bus leaves the channel, its heartbeat stops.
    assert there._heartbeat is not None
    there._heartbeat.cancel()
    channel.remove(there.bus._mine)  # type: ignore[attr-defined]

    def counted() -> tuple[bool, bool, int]:
        """What `here` counts (white, black, spectators), read when its heartbeat's
        refresh has been heard: against this Log a beat runs to its end without
        pausing, so its judgement of silent seats is made by then too."""
        totals: tuple[bool, bool, int] = here.rooms["m1"].headcount.totals()
        return totals

    await round_of(here.origin)  # one round unsaid: not yet silent
    assert counted() == (False, True, 4)
    await round_of(here.origin)  # two: its seat is the database's to judge (it says: gone)
    assert counted() == (False, False, 4)
    await until(lambda: shown() == (4, False), "4 spectators, black gone")
    realtime_clock.now += ping + 0.01  # past three: its spectators are forgotten too
    await until(lambda: shown() == (1, False), "1 spectator and no black")
    channel.remove(count)
    await here.close()


async def test_a_stop_signal_reaches_uvicorn_only_after_the_sockets_heard_1001() -> None:
    """uvicorn closes sockets with 1012 the moment its handler runs; ours runs first
    and passes the signal on only when every close frame is written (CI saw 1012)."""
    log = Log()
    hub = Hub(log)
    await hub.start()
    sock = Stuck(going=True)
    hub.join("m1", sock, None, None)
    await until(lambda: bool(sock.got), "the snapshot")
    sock.go.clear()  # a slow reader: its close frame waits until the test lets it out
    heard: list[list[dict[str, Any]]] = []  # what the socket had got when uvicorn was told
    told = asyncio.Event()

    def uvicorn_handler(sig: int, frame: Any) -> None:
        heard.append(list(sock.got))
        told.set()

    before = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    signal.signal(signal.SIGTERM, uvicorn_handler)
    try:
        close_sockets_on_signal(hub)
        signal.raise_signal(signal.SIGTERM)
        await until(lambda: hub.closed, "the hub closing its sockets")
        assert not heard  # the close frame has not left: uvicorn must not be told yet
        sock.go.set()
        await told.wait()
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)
    assert len(heard) == 1
    assert heard[0][-1] == {"type": "websocket.close", "code": 1001, "reason": "server shutting down"}
    assert hub.closed


async def test_a_stopping_process_still_announces_what_its_last_requests_commit() -> None:
    """At a stop signal the sockets close at once, but the bus stays open until
    the lifespan ends: an action a request still in flight commits must reach
    the other processes' sockets."""
    log = Log()
    here, there, channel = await two_processes(log)
    leaving, staying = Socket(), Socket()
    here.join("m1", leaving, None, None)
    there.join("m1", staying, None, None)
    await until(lambda: bool(leaving.versions() and staying.versions()), "both snapshots")
    await here.close_sockets(1001)
    assert leaving.got[-1]["code"] == 1001 and here.closed
    await here.publish("m1", [log.commit()])  # a request in flight commits
    await until(lambda: last_version(staying) == 1, "version 1, across the bus")
    await here.close()  # the lifespan's end: now the bus goes too
    assert len(channel) == 1
    await there.close()


class SetupLog(Log):
    """A match in its setup phase: no clock runs, the side to set up has 60 s."""

    def state(self, version: int) -> dict[str, Any]:
        return {**super().state(version), "status": "active", "phase": "setup",
                "clock": {"type": "realtime", "white": 300_000, "black": 300_000, "running": None,
                          "increment": 0, "setup": 60_000}}


async def test_a_snapshot_counts_the_setup_time_down_as_it_counts_a_running_clock(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from app.realtime import room as room_module

    now = [1_000.0]
    monkeypatch.setattr(room_module.time, "time", lambda: now[0])
    hub = Hub(SetupLog())
    await hub.start()
    first, second = Socket(), Socket()
    hub.join("m1", first, None, None)
    await until(lambda: bool(first.got), "the first snapshot")
    now[0] += 5  # five seconds later a second socket is sent the room's state, as of then
    hub.join("m1", second, None, None)
    await until(lambda: bool(second.got), "the second snapshot")
    assert first.got[0]["match"]["clock"]["setup"] == 60_000
    assert second.got[0]["match"]["clock"]["setup"] == 55_000
    assert second.got[0]["match"]["clock"]["white"] == 300_000  # no clock runs in setup
    await hub.close()

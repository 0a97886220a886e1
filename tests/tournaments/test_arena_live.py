"""An arena pushed, never polled (app/tournaments/live.py, app/api/tournament_live.py),
on SQLite and PostgreSQL: a watcher's socket or stream hears a join, a pairing, a
game's end and a withdrawal without asking; a player hears `yourGame` when paired;
a page of the standings is asked for; two apps on one database (two processes,
their buses joined) carry a change made on one to a watcher of the other; and a
burst of changes costs one reading, whatever the number of watchers."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from app.config import Settings
from app.main import create_app
from app.realtime.bus import MemoryBus
from app.tournaments import Arenas
from app.tournaments.board import PAGE_SIZE

from ..api.members import member
from ..api.streams import Stream
from ..conftest import make_settings
from ..realtime.conftest import Closed, Socket
from ..waiting import DEADLINE, until
from .conftest import arena, caller, playing


@pytest.fixture
def settings(database_url: str) -> Settings:
    return make_settings(database_url, tournament_tick_seconds=3600.0, tournament_push_seconds=0.01)


@pytest.fixture
def joined_buses(monkeypatch: pytest.MonkeyPatch, database_url: str) -> None:
    """On SQLite, the apps a test makes hear each other as two processes would on
    PostgreSQL (where the real LISTEN/NOTIFY bus joins them)."""
    if database_url.startswith("sqlite"):
        channel: list[Any] = []
        monkeypatch.setattr("app.wiring.make_bus", lambda *args, **kw: MemoryBus(channel))


@pytest.fixture
async def two(settings: Settings, joined_buses: None) -> AsyncIterator[tuple[Any, Any]]:
    """Two apps on one database: two processes, each with its own watchers."""
    one, other = create_app(settings), create_app(settings)
    async with one.router.lifespan_context(one), other.router.lifespan_context(other):
        for app in (one, other):
            app.state.parts.arena_live.recheck = 3600.0  # only the bus can carry a change in time
        yield one, other


def tournament_ws(tid: str, page: int | None = None) -> str:
    return f"/api/v1/tournaments/{tid}/ws" + ("" if page is None else f"?page={page}")


async def heard(sock: Socket, fits: Callable[[dict[str, Any]], bool], what: str) -> dict[str, Any]:
    try:
        message, _ = await sock.receive_until(fits)
    except TimeoutError:
        raise AssertionError(f"the socket never said: {what}") from None
    return message


def arena_with(count: int) -> Callable[[dict[str, Any]], bool]:
    return lambda m: m["type"] == "arena" and m["tournament"]["players"] == count


async def test_a_watcher_hears_joins_pairings_endings_and_withdrawals(app: Any) -> None:
    arenas: Arenas = app.state.parts.arenas
    ann, bob = await member(app, "Ann"), await member(app, "Bob")
    tid = await arenas.create(ann.account.id, arena())
    watcher = await Socket.open(app, tournament_ws(tid))
    first = await heard(watcher, lambda m: m["type"] == "arena", "the arena")
    assert first["tournament"]["status"] == "started" and first["standings"] == [] and first["page"] == 1
    await arenas.join(tid, ann.account.id, ann.name)
    await heard(watcher, arena_with(1), "Ann joined")
    await arenas.join(tid, bob.account.id, bob.name)
    paired = await heard(watcher, lambda m: m["type"] == "arena" and m["pairings"], "the pairing")
    game = paired["pairings"][0]
    assert game["status"] == "playing" and {game["white"], game["black"]} == {"Ann", "Bob"}
    loser = ann if game["white"] == "Bob" else bob
    await app.state.parts.gateway.resign(game["match"], caller(loser))
    await arenas.settled()
    ended = await heard(watcher, lambda m: m["type"] == "arena" and m["standings"][0]["score"] == 2, "the end")
    winner = bob if loser is ann else ann
    assert ended["standings"][0]["name"] == winner.name and ended["pairings"][-1]["result"] in ("white", "black")
    await arenas.withdraw(tid, winner.account.id)
    # A withdrawn player keeps its line: the watcher hears nothing of standings, the player hears `active` false.
    me = await Socket.open(app, tournament_ws(tid), headers=winner.token())
    line = await heard(me, lambda m: m["type"] == "me" and not m["active"], "the player's withdrawal")
    assert line["joined"] and line["standing"]["rank"] == 1 and line["page"] == 1
    await watcher.close()
    await me.close()


async def test_a_player_is_told_of_each_new_game_and_a_watcher_of_none(app: Any) -> None:
    arenas: Arenas = app.state.parts.arenas
    ann, bob = await member(app, "Ann"), await member(app, "Bob")
    tid = await arenas.create(ann.account.id, arena())
    await arenas.join(tid, ann.account.id, ann.name)
    mine = await Socket.open(app, tournament_ws(tid), headers=ann.session(csrf=False))
    theirs = await Socket.open(app, tournament_ws(tid))
    assert (await heard(mine, lambda m: m["type"] == "me", "Ann's line"))["game"] is None
    await arenas.join(tid, bob.account.id, bob.name)
    told = await heard(mine, lambda m: m["type"] == "yourGame", "Ann's game")
    games = await playing(app, tid)
    assert told["match"] == games[ann.account.id] and told["url"] == f"/matches/{told['match']}"
    assert told["opponent"] == "Bob" and told["colour"] in ("white", "black") and told["tournament"] == tid
    # They play again after the end: a second yourGame, for the new match.
    await app.state.parts.gateway.resign(told["match"], caller(bob))
    await arenas.settled()
    again = await heard(mine, lambda m: m["type"] == "yourGame", "Ann's next game")
    assert again["match"] != told["match"] and again["match"] == (await playing(app, tid))[ann.account.id]
    seen = await theirs.nothing_for(0.2)
    assert all(m["type"] not in ("yourGame", "me") for m in seen), seen
    # A socket opened while a game is on is not sent to it again: its `me` names the game.
    late = await Socket.open(app, tournament_ws(tid), headers=ann.token())
    line = await heard(late, lambda m: m["type"] == "me", "the line")
    assert line["game"] == again["match"]
    assert all(m["type"] != "yourGame" for m in await late.nothing_for(0.2))
    for sock in (mine, theirs, late):
        await sock.close()


async def test_pages_of_the_standings_and_a_bad_page(app: Any) -> None:
    arenas: Arenas = app.state.parts.arenas
    people = [await member(app, f"Page{i:02d}") for i in range(PAGE_SIZE + 3)]
    tid = await arenas.create(people[0].account.id, arena(starts_in_seconds=600))  # not started: nobody paired
    for p in people:
        await arenas.join(tid, p.account.id, p.name)
    sock = await Socket.open(app, tournament_ws(tid, page=2), headers=people[-1].token())
    second = await heard(sock, lambda m: m["type"] == "arena", "page 2")
    assert second["page"] == 2 and second["pages"] == 2 and len(second["standings"]) == 3
    assert [s["rank"] for s in second["standings"]] == [PAGE_SIZE + 1, PAGE_SIZE + 2, PAGE_SIZE + 3]
    assert second["tournament"]["status"] == "created"
    await sock.send({"type": "page", "page": 1})
    top = await heard(sock, lambda m: m["type"] == "arena" and m["page"] == 1, "page 1")
    assert len(top["standings"]) == PAGE_SIZE and top["standings"][0]["rank"] == 1
    await sock.send({"type": "page", "page": "two"})
    refused = await heard(sock, lambda m: m["type"] == "error", "a refusal")
    assert refused["error"] == "bad_request" and "page" in refused["detail"]
    await sock.close()
    with pytest.raises(Closed) as closed:
        bad = await Socket.open(app, tournament_ws(tid) + "?page=0")
        await bad.receive()
    assert closed.value.code == 1008 and "page" in closed.value.reason
    with pytest.raises(Closed) as missing:
        nowhere = await Socket.open(app, tournament_ws("Nothing0Here"))
        await nowhere.receive()
    assert missing.value.code == 1008 and missing.value.reason.startswith("no_such_tournament")


async def test_the_stream_carries_the_same_and_refuses_a_missing_arena(app: Any) -> None:
    arenas: Arenas = app.state.parts.arenas
    ann = await member(app, "Ann")
    tid = await arenas.create(ann.account.id, arena())
    async with Stream(app, "GET", f"/api/v1/tournaments/{tid}/stream", headers=ann.token()) as stream:
        assert stream.status == 200
        assert (await stream.next())["type"] == "hello"
        first = await stream.next()
        assert first["type"] == "arena" and first["tournament"]["players"] == 0
        assert (await stream.next())["type"] == "me"
        await arenas.join(tid, ann.account.id, ann.name)
        kinds = {}
        while set(kinds) != {"arena", "me"}:
            line = await stream.next()
            kinds[line["type"]] = line
        assert kinds["arena"]["standings"][0]["name"] == "Ann" and kinds["me"]["joined"]
    async with Stream(app, "GET", "/api/v1/tournaments/Nothing0Here/stream") as missing:
        assert missing.status == 404 and (await missing.whole())["error"] == "no_such_tournament"
    async with Stream(app, "GET", f"/api/v1/tournaments/{tid}/stream?page=0") as bad:
        assert bad.status == 400


async def test_a_change_on_one_process_reaches_a_watcher_of_the_other(two: tuple[Any, Any]) -> None:
    one, other = two
    arenas: Arenas = one.state.parts.arenas
    ann, bob = await member(one, "Ann"), await member(one, "Bob")
    tid = await arenas.create(ann.account.id, arena())
    there = await Socket.open(other, tournament_ws(tid))
    player = await Socket.open(other, tournament_ws(tid), headers=ann.token())
    await heard(there, arena_with(0), "the empty arena")
    await heard(player, lambda m: m["type"] == "me", "Ann's line")
    await arenas.join(tid, ann.account.id, ann.name)
    await heard(there, arena_with(1), "Ann's join, made on the other process")
    await arenas.join(tid, bob.account.id, bob.name)
    told = await heard(player, lambda m: m["type"] == "yourGame", "Ann's game, made on the other process")
    await one.state.parts.gateway.resign(told["match"], caller(ann))
    await arenas.settled()
    await heard(there, lambda m: m["type"] == "arena" and m["standings"][0]["score"] == 2,
                "the game's end, written on the other process")
    assert other.state.parts.arena_live.readings >= 3
    await there.close()
    await player.close()


async def test_a_burst_of_changes_is_read_once_for_all_its_watchers(app: Any) -> None:
    """After a reading the next waits `every`: the nudges of a burst meanwhile make one reading."""
    arenas: Arenas = app.state.parts.arenas
    live = app.state.parts.arena_live
    gate, waiting = asyncio.Event(), asyncio.Event()

    async def held(seconds: float) -> None:
        waiting.set()
        await gate.wait()
        gate.clear()

    live.pause, live.every = held, 3600.0  # every reading is followed by the pause
    people = [await member(app, f"Burst{i}") for i in range(6)]
    tid = await arenas.create(people[0].account.id, arena(starts_in_seconds=600))
    socks = [await Socket.open(app, tournament_ws(tid)) for _ in range(20)]
    for sock in socks:
        await heard(sock, arena_with(0), "the arena")
    await asyncio.wait_for(waiting.wait(), DEADLINE)
    assert live.readings == 1  # one reading for twenty watchers
    for p in people:
        await arenas.join(tid, p.account.id, p.name)
    assert live.readings == 1  # held: the joins wait for the pause's end
    gate.set()
    for sock in socks:
        message = await heard(sock, lambda m: m["type"] == "arena", "the burst")
        assert message["tournament"]["players"] == len(people)  # all six at once, not one by one
    assert live.readings == 2
    for sock in socks:
        await sock.close()
    await until(lambda: live.watching() == 0, "the watchers to be gone")


async def test_the_end_is_pushed_with_the_podium_and_ends_the_stream(app: Any) -> None:
    arenas: Arenas = app.state.parts.arenas
    now = arenas.clock()
    arenas.clock = lambda: now
    ann, bob = await member(app, "Ann"), await member(app, "Bob")
    tid = await arenas.create(ann.account.id, arena(minutes=30))
    for p in (ann, bob):
        await arenas.join(tid, p.account.id, p.name)
    await arenas.tick()  # this process saw it running
    async with Stream(app, "GET", f"/api/v1/tournaments/{tid}/stream") as stream:
        line = await stream.next()
        while line["type"] != "arena":
            line = await stream.next()
        assert line["tournament"]["status"] == "started" and line["podium"] == []
        arenas.clock = lambda: now + 31 * 60  # past its end: the tick sees it over, and says so
        await arenas.tick()
        while line["type"] != "arena" or line["tournament"]["status"] != "finished":
            line = await stream.next()
        assert [s["name"] for s in line["podium"]] == [s["name"] for s in line["standings"][:2]]
        assert len(line["podium"]) == 2
        with pytest.raises(AssertionError, match="the stream ended"):
            await stream.next()

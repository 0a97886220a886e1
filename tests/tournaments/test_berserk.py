"""Berserk through REST, on SQLite and PostgreSQL: White and Black each halve
their own clock (the increment kept), the halved clock reaches the match's
stream as an update, the game's flags are set and a berserk win scores a point
more; every refusal is a named JSON error that changes nothing; two berserks at
once, on one process or two, land once."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from sqlalchemy import update

from app.config import Settings
from app.db.tournament_models import tournament_games, tournament_players
from app.main import create_app

from ..api.members import Member, member
from ..api.streams import Stream
from ..conftest import ROW, FakeTime
from .conftest import games

BASE = "/api/v1/tournaments"
NEW = {"kind": "arena", "name": "Berserk Blitz", "variant": "standard", "time_control": "5+3", "minutes": 60,
       "starts_in_seconds": 0, "rated": False}
FULL, HALF = 300_000, 150_000


async def arena_game(app: Any, client: httpx.AsyncClient, tag: str, **fields: Any,
                     ) -> tuple[str, str, dict[str, Member]]:
    """An arena of two players, paired at once: its id, the game's match, each colour's member."""
    ann, bob = await member(app, f"Ann{tag}"), await member(app, f"Bob{tag}")
    r = await client.post(BASE, json={**NEW, **fields}, headers=ann.token())
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    for who in (ann, bob):
        r = await client.post(f"{BASE}/{tid}/join", headers=who.token())
        assert r.status_code == 200, r.text
    [pairing] = r.json()["pairings"]
    by_name = {ann.name: ann, bob.name: bob}
    return tid, pairing["match"], {"white": by_name[pairing["white"]], "black": by_name[pairing["black"]]}


async def berserk(client: httpx.AsyncClient, tid: str, who: Member | None, **body: Any) -> httpx.Response:
    return await client.post(f"{BASE}/{tid}/berserk", json=body or None,
                             headers=who.token() if who is not None else {})


async def state(client: httpx.AsyncClient, match_id: str) -> dict[str, Any]:
    r = await client.get(f"/api/v1/matches/{match_id}")
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


async def act(client: httpx.AsyncClient, match_id: str, who: Member, action: dict[str, Any]) -> dict[str, Any]:
    version = (await state(client, match_id))["version"]
    r = await client.post(f"/api/v1/matches/{match_id}/actions", json={"action": action, "version": version},
                          headers=who.token())
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()["match"]
    return body


async def setups(client: httpx.AsyncClient, match_id: str, seats: dict[str, Member]) -> dict[str, Any]:
    await act(client, match_id, seats["white"], {"type": "setup", "backrow": ROW})
    return await act(client, match_id, seats["black"], {"type": "setup", "backrow": ROW})


async def play_one(client: httpx.AsyncClient, match_id: str, seats: dict[str, Member]) -> str:
    """The side to move plays its first legal action; answers that side."""
    mover = (await state(client, match_id))["to_move"]
    legal = (await client.get(f"/api/v1/matches/{match_id}/legal", headers=seats[mover].token())).json()
    await act(client, match_id, seats[mover], legal["actions"][0])
    return str(mover)


async def flags(app: Any, match_id: str) -> tuple[bool, bool]:
    [game] = [g for g in await games(app, await _tid_of(app, match_id)) if g.match_id == match_id]
    return bool(game.white_berserk), bool(game.black_berserk)


async def _tid_of(app: Any, match_id: str) -> str:
    async with app.state.parts.engine.connect() as conn:
        return str((await conn.execute(tournament_games.select().where(
            tournament_games.c.match_id == match_id))).one().tournament_id)


async def _next_update(stream: Stream) -> dict[str, Any]:
    while True:
        line = await stream.next()
        if line["type"] == "update":
            return line


async def test_white_and_black_each_halve_their_own_clock_pushed_to_the_stream_and_a_win_scores_more(
        app: Any, client: httpx.AsyncClient) -> None:
    tid, match_id, seats = await arena_game(app, client, "Both")
    async with Stream(app, "GET", f"/api/v1/matches/{match_id}/stream") as stream:
        await stream.next()  # the snapshot
        r = await berserk(client, tid, seats["white"])
        assert r.status_code == 200, r.text
        assert r.json()["colour"] == "white"
        clock = r.json()["match"]["clock"]
        assert (clock["white"], clock["black"], clock["increment"]) == (HALF, FULL, 3000)  # the increment stays
        r = await berserk(client, tid, seats["black"], match=match_id)
        assert r.status_code == 200, r.text
        assert r.json()["match"]["clock"]["black"] == HALF
        pushed = [await _next_update(stream) for _ in range(2)]
    assert [(u["player"], u["action"]) for u in pushed] == [("white", {"type": "berserk"}),
                                                             ("black", {"type": "berserk"})]
    assert pushed[0]["match"]["clock"]["white"] == HALF and pushed[0]["match"]["clock"]["black"] == FULL
    assert pushed[1]["match"]["clock"]["black"] == HALF and "berserk" in pushed[1]["words"]
    assert await flags(app, match_id) == (True, True)
    r = await berserk(client, tid, seats["white"])
    assert r.status_code == 409 and r.json()["error"] == "already_berserk", r.text
    await setups(client, match_id, seats)
    r = await client.post(f"/api/v1/matches/{match_id}/resign", headers=seats["black"].token())
    assert r.status_code == 200, r.text
    await app.state.parts.arenas.settled()
    standings = {s["name"]: s["score"] for s in (await client.get(f"{BASE}/{tid}")).json()["standings"]}
    assert standings == {seats["white"].name: 3, seats["black"].name: 0}  # a win 2, berserk 1


async def test_after_your_first_turn_it_is_too_late_but_the_opponent_may_still(
        app: Any, client: httpx.AsyncClient) -> None:
    FakeTime(app.state.parts.service)  # time stands still: the clocks read exactly
    tid, match_id, seats = await arena_game(app, client, "Late")
    await setups(client, match_id, seats)  # a setup is no turn: berserk is still open
    mover = await play_one(client, match_id, seats)
    waiter = "black" if mover == "white" else "white"
    before = (await state(client, match_id))["clock"]
    r = await berserk(client, tid, seats[mover])
    assert r.status_code == 403 and r.json()["error"] == "berserk_too_late", r.text
    assert "first place, pass or remove" in r.json()["detail"]
    assert (await state(client, match_id))["clock"][mover] == before[mover]  # nothing changed
    r = await berserk(client, tid, seats[waiter])
    assert r.status_code == 200, r.text
    assert r.json()["match"]["clock"][waiter] == before[waiter] // 2


async def test_a_clock_under_the_floor_is_refused(app: Any, client: httpx.AsyncClient) -> None:
    time = FakeTime(app.state.parts.service)
    tid, match_id, seats = await arena_game(app, client, "Low")
    arenas = app.state.parts.arenas
    arenas.clock = lambda: time.now  # the arena runs on the same moved time
    after = await setups(client, match_id, seats)
    mover = after["to_move"]
    time.advance(275)  # 25 s left on the mover's running clock: under the 30 s floor
    r = await berserk(client, tid, seats[mover])
    assert r.status_code == 403 and r.json()["error"] == "berserk_clock_too_low", r.text
    assert "30 s" in r.json()["detail"]
    assert (await state(client, match_id))["clock"][mover] == 25_000
    assert await flags(app, match_id) == (False, False)


async def test_strangers_spectators_guests_and_hostile_bodies_are_refused_by_name(
        app: Any, client: httpx.AsyncClient) -> None:
    tid, match_id, seats = await arena_game(app, client, "Odd")
    stranger, spectator = await member(app, "StrangerOdd"), await member(app, "WatcherOdd")
    r = await client.post(f"{BASE}/{tid}/join", headers=stranger.token())  # in the arena, waiting, no game
    assert r.status_code == 200, r.text
    for who in (stranger, spectator):
        r = await berserk(client, tid, who)
        assert r.status_code == 403 and r.json()["error"] == "not_your_game", r.text
        r = await berserk(client, tid, who, match=match_id)  # naming someone else's game helps nothing
        assert r.status_code == 403 and r.json()["error"] == "not_your_game", r.text
    r = await berserk(client, tid, None)
    assert r.status_code == 401 and r.json()["error"] == "unauthorized", r.text
    r = await berserk(client, tid, seats["white"], match="NoSuchMatch1")
    assert r.status_code == 403 and r.json()["error"] == "not_your_game", r.text
    for body in ({"match": 12}, {"match": "x" * 25}, {"colour": "black"}, {"match": None, "extra": 1}):
        r = await client.post(f"{BASE}/{tid}/berserk", json=body, headers=seats["white"].token())
        assert r.status_code == 400 and r.json()["error"] == "bad_request", (body, r.text)
    r = await client.post(f"{BASE}/{tid}/berserk", content=b"[", headers={
        **seats["white"].token(), "Content-Type": "application/json"})
    assert r.status_code == 400, r.text
    r = await client.post(f"{BASE}/NoSuchArena1/berserk", headers=seats["white"].token())
    assert r.status_code == 404 and r.json()["error"] == "no_such_tournament", r.text
    r = await berserk(client, tid, seats["white"], match=f"{match_id}\x00")
    assert r.status_code in (400, 403) and r.json()["error"] in ("bad_request", "not_your_game"), r.text
    clock = (await state(client, match_id))["clock"]
    assert (clock["white"], clock["black"]) == (FULL, FULL)  # no refusal changed the match
    assert await flags(app, match_id) == (False, False)


async def test_an_arena_not_running_and_an_unclocked_game_are_refused(app: Any, client: httpx.AsyncClient) -> None:
    ann = await member(app, "AnnSoon")
    r = await client.post(BASE, json={**NEW, "starts_in_seconds": 600}, headers=ann.token())
    soon = r.json()["id"]
    r = await client.post(f"{BASE}/{soon}/join", headers=ann.token())
    r = await berserk(client, soon, ann)
    assert r.status_code == 409 and r.json()["error"] == "tournament_not_started", r.text

    tid, match_id, seats = await arena_game(app, client, "Post")
    # A correspondence game between the same two accounts, made the game of theirs under way in the arena.
    r = await client.post("/api/v1/matches", json={"options": {"time_control": {"type": "correspondence",
                                                                                  "days": 1}},
                                                    "seat": "white", "opponent": "human"},
                          headers=seats["white"].token())
    assert r.status_code == 201, r.text
    post = r.json()["match"]["id"]
    r = await client.post(f"/api/v1/matches/{post}/join", json={}, headers=seats["black"].token())
    assert r.status_code == 200, r.text
    untimed = await client.post("/api/v1/matches", json={"options": {}, "seat": "white", "opponent": "human"},
                                headers=seats["white"].token())
    loose = untimed.json()["match"]["id"]
    r = await client.post(f"/api/v1/matches/{loose}/join", json={}, headers=seats["black"].token())
    assert r.status_code == 200, r.text
    engine = app.state.parts.engine
    for other in (post, loose):
        async with engine.begin() as conn:
            await conn.execute(tournament_games.insert().values(
                tournament_id=tid, match_id=other, white=seats["white"].account.id,
                black=seats["black"].account.id, white_rating=1500.0, black_rating=1500.0, status="playing",
                made_ms=0))
            await conn.execute(update(tournament_players).where(tournament_players.c.tournament_id == tid)
                               .values(match_id=other))
        r = await berserk(client, tid, seats["white"])
        assert r.status_code == 403 and r.json()["error"] == "berserk_unclocked", r.text

    arenas = app.state.parts.arenas
    arenas.clock = lambda: 10**11  # long after the arena's end
    r = await berserk(client, tid, seats["white"])
    assert r.status_code == 409 and r.json()["error"] == "tournament_finished", r.text


@pytest.fixture
async def second(settings: Settings) -> AsyncIterator[Any]:
    """Another app on the same database: another process, with its own caches."""
    other = create_app(settings)
    async with other.router.lifespan_context(other):
        yield other


async def test_two_berserks_at_once_land_once_on_one_process_or_two(
        app: Any, client: httpx.AsyncClient, second: Any) -> None:
    tid, match_id, seats = await arena_game(app, client, "Race")
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=second), base_url="http://testserver") as other:
        answers = await asyncio.gather(berserk(client, tid, seats["white"]), berserk(client, tid, seats["white"]),
                                       berserk(other, tid, seats["white"]), berserk(other, tid, seats["black"]),
                                       berserk(client, tid, seats["black"]))
    white, black = answers[:3], answers[3:]
    for side in (white, black):
        assert sorted(r.status_code for r in side) == [200] + [409] * (len(side) - 1), [r.text for r in side]
        assert all(r.json()["error"] == "already_berserk" for r in side if r.status_code == 409)
    clock = (await state(client, match_id))["clock"]
    assert (clock["white"], clock["black"]) == (HALF, HALF)  # halved once each, never twice
    log = (await client.get(f"/api/v1/matches/{match_id}/actions")).json()
    assert sorted(e["player"] for e in log if e["action"]["type"] == "berserk") == ["black", "white"]
    assert await flags(app, match_id) == (True, True)

"""A player is in one real-time game at a time, whichever way games are made
(app/matches/playing.py), on SQLite and PostgreSQL: an arena and a quick-pairing
pool, or two arenas, pairing one player at once on two processes give them one
game; a player in a seek's game or an arena game is paired nowhere else until
it is over. A correspondence match does not count: it is played a move a day."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from sqlalchemy import func, select

from app.config import Settings
from app.db.models import matches, seats
from app.main import create_app
from app.pools import store as pool_store
from app.tournaments import store

from ..api.members import Member, member
from .conftest import arena, caller, games, playing

POOL = "standard:5+3"
CORRESPONDENCE = {"variant": "standard", "time_control": {"type": "correspondence", "days": 1}}
REALTIME = {"variant": "standard", "time_control": {"type": "realtime", "minutes": 5, "increment": 3}}


@pytest.fixture
async def second(settings: Settings) -> AsyncIterator[Any]:
    """Another app on the same database: another process."""
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        yield app


async def live(app: Any, who: Member) -> int:
    """How many running real-time matches the member is seated in."""
    query = (select(func.count()).select_from(seats.join(matches, matches.c.id == seats.c.match_id))
             .where(seats.c.account_id == who.account.id, matches.c.status == "active",
                    matches.c.options[("time_control", "type")].as_string() == "realtime"))
    async with app.state.parts.engine.connect() as conn:
        return int((await conn.execute(query)).scalar_one())


async def wait_in_pool(app: Any, who: Member, pool: str = POOL) -> None:
    """A place in the pool, taken without pairing it (the race pairs)."""
    pools = app.state.parts.pools
    seeker = pool_store.Seeker(f"account:{who.account.id}", who.name, who.account.id, None)
    await pool_store.join(app.state.parts.engine, pool, seeker, None, pools.now_ms(), pools.lease_ms,
                          0, pool_store.Caps(0, 0, 1))


async def test_an_arena_and_a_pool_pairing_one_player_at_once_give_them_one_game(app: Any, second: Any) -> None:
    arenas, pools = app.state.parts.arenas, second.state.parts.pools
    engine = app.state.parts.engine
    for round_ in range(4):
        ann, bob, cy = [await member(app, f"{n}{round_}Race") for n in ("Ann", "Bob", "Cy")]
        tid = await arenas.create(ann.account.id, arena(f"Race {round_}"))
        for m in (ann, bob):  # in the arena's rows, not paired yet
            await store.join(engine, tid, m.account.id, m.name, arenas.now_ms())
        for m in (ann, cy):
            await wait_in_pool(second, m)
        if round_ % 2:  # either maker first to the database
            made = await asyncio.gather(arenas.pair(tid), pools.pair(POOL))
        else:
            made = (await asyncio.gather(pools.pair(POOL), arenas.pair(tid)))[::-1]
        assert await live(app, ann) == 1, f"round {round_}: {made}"
        assert sum(made) == 1  # the other maker found Ann playing and made nothing
        assert await live(app, bob) + await live(app, cy) == 1
        for m in (ann, cy):  # the one left waiting leaves: the next round's pool is its own
            await pool_store.leave(engine, f"account:{m.account.id}", None)


async def test_two_arenas_on_two_processes_pairing_one_player_give_them_one_game(app: Any, second: Any) -> None:
    one, two = app.state.parts.arenas, second.state.parts.arenas
    engine = app.state.parts.engine
    for round_ in range(3):
        ann, bob, cy = [await member(app, f"{n}{round_}Twin") for n in ("Ann", "Bob", "Cy")]
        first = await one.create(ann.account.id, arena(f"First {round_}"))
        other = await one.create(ann.account.id, arena(f"Other {round_}"))
        for tid, m in ((first, ann), (first, bob), (other, ann), (other, cy)):
            await store.join(engine, tid, m.account.id, m.name, one.now_ms())
        made = await asyncio.gather(one.pair(first), two.pair(other))
        assert sorted(made) == [0, 1] and await live(app, ann) == 1


async def test_a_player_in_a_seek_game_is_paired_in_the_arena_once_it_is_over(app: Any) -> None:
    arenas, gateway = app.state.parts.arenas, app.state.parts.gateway
    ann, bob, dee = [await member(app, f"{n}Seek") for n in ("Ann", "Bob", "Dee")]
    seek = await gateway.create(caller(ann), REALTIME)
    await gateway.join(seek.match["id"], caller(dee))
    letter = await gateway.create(caller(ann), CORRESPONDENCE)
    await gateway.join(letter.match["id"], caller(dee))  # a correspondence game does not count
    tid = await arenas.create(ann.account.id, arena())
    for m in (ann, bob):
        await arenas.join(tid, m.account.id, m.name)
    assert await games(app, tid) == [] and await live(app, ann) == 1  # Ann plays the seek's game
    await gateway.resign(seek.match["id"], caller(dee))
    await arenas.tick()
    [game] = await games(app, tid)
    assert {game.white, game.black} == {ann.account.id, bob.account.id}


async def test_a_player_in_an_arena_game_waits_in_a_real_time_pool_until_it_is_over(app: Any) -> None:
    arenas, pools = app.state.parts.arenas, app.state.parts.pools
    ann, bob, cy = [await member(app, f"{n}Pool") for n in ("Ann", "Bob", "Cy")]
    tid = await arenas.create(ann.account.id, arena())
    for m in (ann, bob):
        await arenas.join(tid, m.account.id, m.name)
    [game] = await games(app, tid)
    for m in (ann, cy):
        await wait_in_pool(app, m)
    assert await pools.pair(POOL) == 0 and await live(app, cy) == 0  # Ann is skipped while she plays
    await arenas.withdraw(tid, ann.account.id)
    await app.state.parts.gateway.resign(game.match_id, caller(bob))
    await arenas.settled()
    assert (await playing(app, tid))[ann.account.id] is None
    assert await pools.pair(POOL) == 1 and await live(app, ann) == await live(app, cy) == 1


async def test_a_player_in_an_arena_game_is_paired_in_a_correspondence_pool(app: Any) -> None:
    arenas, pools = app.state.parts.arenas, app.state.parts.pools
    ann, bob, cy = [await member(app, f"{n}Letter") for n in ("Ann", "Bob", "Cy")]
    tid = await arenas.create(ann.account.id, arena())
    for m in (ann, bob):
        await arenas.join(tid, m.account.id, m.name)
    for m in (ann, cy):
        await wait_in_pool(app, m, "standard:1d")
    assert await pools.pair("standard:1d") == 1 and await live(app, ann) == 1

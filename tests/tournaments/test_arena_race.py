"""One arena paired by two processes at once (two apps on one database, as two
server processes), on SQLite and PostgreSQL: however the joins, pairings and
endings interleave, nobody is ever in two games at once, every game has its
match, and the kept standings equal a recomputation from the games."""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from collections.abc import AsyncIterator
from typing import Any

import pytest
from sqlalchemy import select

from app.config import Settings
from app.db.models import matches
from app.main import create_app
from app.tournaments import Arenas, store
from app.tournaments.service import recomputed

from ..api.members import member
from .conftest import arena, caller, games


@pytest.fixture
async def second(settings: Settings) -> AsyncIterator[Any]:
    """Another app on the same database: another process, with its own caches."""
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        yield app


async def _check(app: Any, tid: str) -> None:
    engine = app.state.parts.engine
    joined = await store.players_of(engine, tid)
    played = await games(app, tid)
    running = [g for g in played if g.status == "playing"]
    seats = Counter(a for g in running for a in (g.white, g.black))
    assert not seats or seats.most_common(1)[0][1] == 1, "a player in two games at once"
    assert {p.account_id: p.match_id for p in joined if p.match_id is not None} == {
        a: g.match_id for g in running for a in (g.white, g.black)}
    async with engine.connect() as conn:
        made = set((await conn.execute(select(matches.c.id))).scalars())
    assert {g.match_id for g in played} <= made
    again = recomputed(joined, await store.games_of(engine, tid))
    assert {p.account_id: (p.score, p.games, p.streak) for p in joined} == {
        a: (s.score, s.games, s.streak) for a, s in again.items()}


@pytest.mark.parametrize("seed", [1, 2])
async def test_two_processes_pairing_one_arena_never_put_a_player_in_two_games(
        app: Any, second: Any, seed: int) -> None:
    rng = random.Random(seed)
    one: Arenas = app.state.parts.arenas
    two: Arenas = second.state.parts.arenas
    people = [await member(app, f"Racer{seed}x{i}") for i in range(12)]
    by_id = {m.account.id: m for m in people}
    tid = await one.create(people[0].account.id, arena())
    # Everyone joins at once, half on each process, while both processes pair.
    await asyncio.gather(*(rng.choice((one, two)).join(tid, m.account.id, m.name) for m in people),
                         *(side.pair(tid) for side in (one, two) for _ in range(3)))
    await _check(app, tid)
    await one.tick()  # a pairing lost to the other process is made again by the next tick at the latest
    assert sum(g.status == "playing" for g in await games(app, tid)) == 6  # all twelve paired
    gateways = (app.state.parts.gateway, second.state.parts.gateway)
    for _ in range(4):
        running = [g for g in await games(app, tid) if g.status == "playing"]
        ending = rng.sample(running, k=max(1, len(running) // 2))
        await asyncio.gather(*(rng.choice(gateways).resign(g.match_id, caller(by_id[rng.choice((g.white, g.black))]))
                               for g in ending))
        # Each process writes the endings it hears and its tick's; both pair at once.
        await asyncio.gather(one.settled(), two.settled(), one.tick(), two.tick(), one.pair(tid), two.pair(tid))
        await _check(app, tid)
        withdrawn = rng.choice(people)
        await rng.choice((one, two)).withdraw(tid, withdrawn.account.id)
        await rng.choice((one, two)).join(tid, withdrawn.account.id, withdrawn.name)
        await _check(app, tid)
    finished = [g for g in await games(app, tid) if g.status == "finished"]
    assert len(finished) >= 4

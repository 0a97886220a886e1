"""One Swiss event moved on by two processes at once (two apps on one
database), on SQLite and PostgreSQL: however their ticks, settlings and joins
interleave, each round is paired once, each game gets one match, and nobody
has a seat in a match the event does not know."""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from collections.abc import AsyncIterator
from typing import Any

import pytest
from sqlalchemy import func, select

from app.config import Settings
from app.db.models import seats
from app.main import create_app
from app.tournaments.swiss import Swisses

from ..api.members import member
from .swiss_helpers import end_by, event, games, rounds_paired


@pytest.fixture
async def second(settings: Settings) -> AsyncIterator[Any]:
    """Another app on the same database: another process, with its own caches."""
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        yield app


async def _check(app: Any, tid: str, accounts: list[int]) -> None:
    made = await games(app, tid)
    per_round = Counter(g.round for g in made)
    assert await rounds_paired(app, tid) == sorted(per_round)
    in_round = Counter((g.round, k) for g in made for k in (g.white, g.black) if k is not None)
    assert not in_round or max(in_round.values()) == 1, "a player paired twice in a round"
    ids = [g.match_id for g in made if g.match_id is not None]
    assert len(ids) == len(set(ids))
    async with app.state.parts.engine.connect() as conn:
        seated = (await conn.execute(select(func.count()).select_from(seats).where(
            seats.c.account_id.in_(accounts)))).scalar_one()
    assert seated == 2 * len(ids), "a match made that no game of the event holds"


@pytest.mark.parametrize("seed", [1, 2])
async def test_two_processes_pair_each_round_once(app: Any, second: Any, seed: int) -> None:
    rng = random.Random(seed)
    one: Swisses = app.state.parts.swisses
    two: Swisses = second.state.parts.swisses
    now = one.clock()
    for side in (one, two):
        side.clock = lambda: now
    people = [await member(app, f"SwRace{seed}x{i}") for i in range(9)]
    by_id = {m.account.id: m for m in people}
    accounts = list(by_id)
    tid = await one.create(people[0].account.id, event(rounds=3, interval=0, starts_in_seconds=10))
    await asyncio.gather(*(rng.choice((one, two)).join(tid, m.account.id, m.name) for m in people))
    for side in (one, two):
        side.clock = lambda: now + 10
    for number in (1, 2, 3):
        # Both processes tick and move the event on at once, several times over.
        await asyncio.gather(*(rng.choice((one.tick, two.tick, lambda: one.advance(tid),
                                           lambda: two.advance(tid)))() for _ in range(6)))
        await _check(app, tid, accounts)
        assert await rounds_paired(app, tid) == list(range(1, number + 1))
        running = [g for g in await games(app, tid) if g.round == number and g.black is not None]
        assert len(running) == 4 and all(g.status == "playing" for g in running)
        for g in running:
            await end_by(app, rng.choice(("white resigns", "black resigns", "draw")), g, by_id[g.white],
                         by_id[g.black])
        await asyncio.gather(one.settled(), two.settled(), one.tick(), two.tick(), one.settle(), two.settle())
        await _check(app, tid, accounts)
    await asyncio.gather(one.tick(), two.tick())
    assert (await one.view(tid))["status"] == "finished"
    assert await rounds_paired(app, tid) == [1, 2, 3]

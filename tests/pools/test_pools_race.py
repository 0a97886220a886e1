"""Quick pairing raced on two processes (issue 20, "Checks"): many players press
pools at once through two apps on one database, as two server processes would.
Everyone ends in at most one match, nobody is paired with themself, no match is
made without its two players, and nobody is left waiting while a partner of
their kind waits in the same pool. On SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from sqlalchemy import select

from app.config import Settings
from app.db.models import matches, seats
from app.db.pool_models import pool_seekers
from app.main import create_app

from ..api.members import member
from ..conftest import make_settings
from .conftest import PROXY, Presser

POOLS = ["standard:5+3", "standard:10+5", "rotating:10+5"]


@pytest.fixture
def settings(database_url: str) -> Settings:
    """Places that outlast a slow machine: what expires is another test's matter."""
    return make_settings(database_url, pool_lease_seconds=600.0, pool_again_seconds=600.0, trusted_proxies=[PROXY])


@pytest.fixture
async def second(settings: Any) -> AsyncIterator[httpx.AsyncClient]:
    """Another app on the same database: another process, with its own caches."""
    app = create_app(settings)
    transport = httpx.ASGITransport(app=app)
    async with app.router.lifespan_context(app), httpx.AsyncClient(transport=transport,
                                                                   base_url="http://testserver") as c:
        yield c


async def _press(presser: Presser, pools: list[str]) -> None:
    await asyncio.gather(*(presser.join(pool) for pool in pools))


@pytest.mark.parametrize("seed", [1, 2])
async def test_many_presses_on_two_processes_pair_each_player_once(
        app: Any, client: httpx.AsyncClient, second: httpx.AsyncClient, seed: int) -> None:
    rng = random.Random(seed)
    players = [Presser(client if i % 2 else second, f"Guest{i}") for i in range(18)]
    players += [Presser(second if i % 2 else client, member=await member(app, f"Racer{seed}x{i}"))
                for i in range(8)]
    for p in players:
        if p.member is None:  # a guest's ticket first, so that its presses are one player's
            await p.join(rng.choice(POOLS))
    choices = {id(p): rng.sample(POOLS, rng.choice((1, 2))) for p in players}
    await asyncio.gather(*(_press(p, choices[id(p)]) for p in players))
    # Every waiter asks once more, at once, on its process: what the presses left is paired now.
    await asyncio.gather(*(p.wait() for p in players))

    engine = app.state.parts.engine
    async with engine.connect() as conn:
        rows = (await conn.execute(select(pool_seekers))).all()
        made = {r.id for r in (await conn.execute(select(matches.c.id))).all()}
        seat_rows = (await conn.execute(select(seats.c.match_id, seats.c.account_id, seats.c.name))).all()
    paired = [r for r in rows if r.match_id is not None]
    assert Counter(r.player for r in paired).most_common(1)[0][1] == 1 if paired else True  # one match each
    by_match: dict[str, list[Any]] = {}
    for r in paired:
        by_match.setdefault(r.match_id, []).append(r)
    assert set(by_match) == made, "a match made without its two players, or a pairing without its match"
    for match_id, two in by_match.items():
        assert len(two) == 2 and two[0].player != two[1].player, match_id  # nobody with themself
        assert (two[0].account_id is None) == (two[1].account_id is None)  # guests with guests
        assert two[0].pool == two[1].pool
    for match_id in made:
        named = [s for s in seat_rows if s.match_id == match_id]
        assert len(named) == 2 and (named[0].account_id is None or named[0].account_id != named[1].account_id)
    assert not any(r.player in {p.player for p in paired} for r in rows if r.match_id is None), \
        "a paired player still waits in another pool"
    left = Counter((r.pool, r.account_id is None) for r in rows if r.match_id is None)
    assert all(n <= 1 for n in left.values()), f"partners left waiting side by side: {left}"
    # And every player hears the same: its answer names its own match, or that it waits.
    answers = await asyncio.gather(*(p.wait() for p in players))
    assert sorted(a["match"]["id"] for a in answers if a["status"] == "paired") == \
        sorted(m for m, two in by_match.items() for _ in two)

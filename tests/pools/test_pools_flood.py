"""One client cannot flood the pools, on SQLite and PostgreSQL.

Two hundred joins from one address without credentials were all accepted,
and a hundred of them paired with another of the same address's tickets. Now
an address holds at most `POOL_PLACES_PER_ADDRESS` places and an account at
most `POOL_PLACES_PER_ACCOUNT`, counted in the database (so on every process),
and two places of one address are never paired together.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select

from app.db.pool_models import pool_seekers
from app.main import create_app
from app.pools import POOLS

from ..api.members import member
from .conftest import BASE, Clock, Presser

FLOODER = "203.0.113.66"


async def _flood(client: httpx.AsyncClient, joins: int, pool: str = "standard:10+5") -> list[httpx.Response]:
    """`joins` first joins from one address, no credentials: each a new guest."""
    return [await client.post(f"{BASE}/{pool}/join", json={"name": f"Flood{i}"},
                              headers={"X-Forwarded-For": FLOODER}) for i in range(joins)]


async def _places(app: Any) -> int:
    async with app.state.parts.engine.connect() as conn:
        return int((await conn.execute(select(func.count()).select_from(pool_seekers).where(
            pool_seekers.c.match_id.is_(None)))).scalar_one())


async def test_one_addresss_joins_hold_at_most_its_cap_and_never_meet(app: Any, client: httpx.AsyncClient) -> None:
    cap = app.state.parts.settings.pool_places_per_address
    answers = await _flood(client, 20)
    accepted = [r for r in answers if r.status_code == 200]
    refused = [r for r in answers if r.status_code != 200]
    assert len(accepted) == cap and all(r.json()["status"] == "waiting" for r in accepted)
    for r in refused:
        assert r.status_code == 429 and r.json()["error"] == "too_many_places", r.text
        assert r.json()["limit"] == cap and "POOL_PLACES_PER_ADDRESS" in r.json()["detail"]
        assert int(r.headers["retry-after"]) >= 1
    assert await _places(app) == cap
    stranger = Presser(client, "Stranger")  # another address: paired with the longest waiting of them
    paired = await stranger.join()
    assert paired["status"] == "paired"
    assert await _places(app) == cap - 1
    assert (await _flood(client, 1))[0].status_code == 200  # the place freed is the address's again


async def test_one_addresss_tickets_wait_in_every_pool_unpaired(app: Any, client: httpx.AsyncClient) -> None:
    """Two guests and an account of one address, in two pools each: nobody is
    paired, however long they wait; the computer is offered as to anyone alone."""
    clock = Clock(app.state.parts.pools)
    one = [Presser(client, "Ada", address=FLOODER), Presser(client, "Bo", address=FLOODER)]
    same_accounts = [Presser(client, member=await member(app, n), address=FLOODER) for n in ("Cy", "Di")]
    for presser in [*one, *same_accounts]:
        for pool in ("standard:10+5", "standard:5+3"):
            assert (await presser.join(pool))["status"] == "waiting"
    clock.advance(app.state.parts.settings.pool_offer_seconds)
    for presser in [*one, *same_accounts]:
        answer = await presser.wait()
        assert answer["status"] == "waiting" and answer["computer"] is not None


async def test_renewing_a_place_at_the_cap_is_not_a_new_place(app: Any, client: httpx.AsyncClient) -> None:
    cap = app.state.parts.settings.pool_places_per_address
    guest = Presser(client, "Ada", address=FLOODER)
    pools = list(POOLS)[:cap]
    for pool in pools:
        await guest.join(pool)
    await guest.join(pools[0])  # pressed again: the same place
    body = await guest.join(list(POOLS)[cap], status=429)
    assert body["error"] == "too_many_places"
    await guest.leave(pools[0])
    await guest.join(list(POOLS)[cap])  # one left: one more may be taken


async def test_a_place_whose_lease_ran_out_frees_room(app: Any, client: httpx.AsyncClient) -> None:
    clock = Clock(app.state.parts.pools)
    cap = app.state.parts.settings.pool_places_per_address
    assert [r.status_code for r in await _flood(client, cap + 1)] == [200] * cap + [429]
    clock.advance(app.state.parts.settings.pool_lease_seconds + 1)  # nobody asked: the places ran out
    assert [r.status_code for r in await _flood(client, cap + 1)] == [200] * cap + [429]


async def test_an_account_holds_at_most_its_cap_from_any_address(app: Any, client: httpx.AsyncClient) -> None:
    cap = app.state.parts.settings.pool_places_per_account
    ada = await member(app, "Ada")
    pools = list(POOLS)
    for i, pool in enumerate(pools[:cap]):  # each from an address of its own
        assert (await Presser(client, member=ada, address=f"198.51.100.{i + 1}").join(pool))["status"] == "waiting"
    body = await Presser(client, member=ada, address="198.51.100.200").join(pools[cap], status=429)
    assert body["error"] == "too_many_places" and body["limit"] == cap
    assert "POOL_PLACES_PER_ACCOUNT" in body["detail"]


@pytest.fixture
async def second(settings: Any) -> AsyncIterator[httpx.AsyncClient]:
    """Another app on the same database: another process."""
    other = create_app(settings)
    async with other.router.lifespan_context(other), httpx.AsyncClient(
            transport=httpx.ASGITransport(app=other), base_url="http://testserver") as c:
        yield c


async def test_the_cap_is_counted_on_every_process(app: Any, client: httpx.AsyncClient,
                                                   second: httpx.AsyncClient) -> None:
    """Twenty joins of one address at once, split between two processes: the
    cap holds for the two together, and none of them is paired with another."""
    cap = app.state.parts.settings.pool_places_per_address
    answers = await asyncio.gather(*(
        (client, second)[i % 2].post(f"{BASE}/standard:10+5/join", json={"name": f"Flood{i}"},
                                     headers={"X-Forwarded-For": FLOODER}) for i in range(20)))
    codes = sorted(r.status_code for r in answers)
    assert codes == [200] * cap + [429] * (20 - cap), codes
    assert all(r.json()["status"] == "waiting" for r in answers if r.status_code == 200)
    assert await _places(app) == cap

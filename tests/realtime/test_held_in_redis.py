"""The per-address caps held in Redis (app/realtime/held_in_redis.py), with the
real Redis: two `Claims` stand for two processes. The cap holds summed over
both; a place given back on one is free on the other; a process that stops
renewing (killed) frees its places once its claim runs out; a Redis that lost
everything is told again at the next renewal; with Redis away each process
holds the cap alone. Skipped without Redis (failed under CI=true)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import redis.asyncio as aredis

from app.realtime.held_in_redis import Claims, RedisPerAddress
from tests.waiting import until

CAP = 3


@pytest.fixture
async def two(redis_server: str, redis_prefix: str) -> AsyncIterator[tuple[Claims, Claims]]:
    a, b = (Claims(redis_server, redis_prefix, claim_seconds=30.0) for _ in range(2))
    await a.start()
    await b.start()
    try:
        yield a, b
    finally:
        await a.close()
        await b.close()


def sockets(claims: Claims) -> RedisPerAddress:
    counter = claims.counter("sockets", CAP)
    assert isinstance(counter, RedisPerAddress)
    return counter


async def test_the_cap_holds_over_both_processes(two: tuple[Claims, Claims]) -> None:
    a, b = map(sockets, two)
    assert await a.claim("10.1.0.1") and await a.claim("10.1.0.1") and await b.claim("10.1.0.1")
    assert not await b.claim("10.1.0.1") and not await a.claim("10.1.0.1")
    assert await b.claim("10.1.0.2")  # another address: a count of its own
    a.give_back("10.1.0.1")
    await two[0].settled()
    assert await b.claim("10.1.0.1")
    assert not await a.claim("10.1.0.1")
    assert (a.of("10.1.0.1"), b.of("10.1.0.1")) == (1, 2)


async def test_an_ipv6_address_counts_as_its_64(two: tuple[Claims, Claims]) -> None:
    a, b = map(sockets, two)
    for n in range(CAP):
        assert await (a if n % 2 else b).claim(f"2001:db8:0:1::{n + 1}")
    assert not await a.claim("2001:db8:0:1::ff")
    assert await a.claim("2001:db8:0:2::1")


async def test_a_closed_process_frees_its_places_at_once(two: tuple[Claims, Claims]) -> None:
    a, b = map(sockets, two)
    for _ in range(CAP):
        assert await a.claim("10.2.0.1")
    assert not await b.claim("10.2.0.1")
    await two[0].close()
    assert await b.claim("10.2.0.1")


async def test_a_killed_process_frees_its_places_when_its_claim_runs_out(
        redis_server: str, redis_prefix: str) -> None:
    """It never closes: its renewals stop (as a process killed -9), and its
    alive key runs out SOCKET_CLAIM_SECONDS after the last one."""
    dying, living = Claims(redis_server, redis_prefix, claim_seconds=0.5), Claims(redis_server, redis_prefix)
    await dying.start()
    await living.start()
    client = aredis.Redis.from_url(redis_server)
    try:
        held, other = sockets(dying), sockets(living)
        for _ in range(CAP):
            assert await held.claim("10.3.0.1")
        assert not await other.claim("10.3.0.1")
        assert dying._renewing is not None
        dying._renewing.cancel()  # killed: no renewal, no close
        await until(lambda: _gone(client, dying), "the killed process's claim to run out")
        assert all([await other.claim("10.3.0.1") for _ in range(CAP)])
        assert not await other.claim("10.3.0.1")
    finally:
        await client.aclose()
        await living.close()
        await dying.redis.aclose()


async def _gone(client: aredis.Redis, claims: Claims) -> bool:
    return not await client.exists(claims.alive_prefix + claims.me)


async def test_what_redis_lost_is_told_again_at_the_next_renewal(
        two: tuple[Claims, Claims], redis_server: str, redis_prefix: str) -> None:
    a, b = map(sockets, two)
    for _ in range(CAP):
        assert await a.claim("10.4.0.1")
    client = aredis.Redis.from_url(redis_server)
    try:
        lost = [key async for key in client.scan_iter(f"{redis_prefix}:*")]
        await client.delete(*lost)  # as a Redis restarted with nothing on disk
    finally:
        await client.aclose()
    assert await b.claim("10.4.0.1")  # nothing held anywhere, as far as Redis knows
    b.give_back("10.4.0.1")
    await two[1].settled()
    await two[0].renew()  # its key had gone: its whole set written again
    assert not await b.claim("10.4.0.1")


async def test_with_redis_away_each_process_holds_the_cap_alone() -> None:
    away = Claims("redis://127.0.0.1:1/0", "magery-away")  # nothing listens on port 1
    await away.start()  # the start goes on: a guard never stops the server
    try:
        assert not away.up
        counter = sockets(away)
        assert all([await counter.claim("10.5.0.1") for _ in range(CAP)])
        assert not await counter.claim("10.5.0.1")
        counter.give_back("10.5.0.1")
        assert await counter.claim("10.5.0.1")
    finally:
        await away.close()


def test_no_cap_is_counted_in_this_process_only(redis_server: str) -> None:
    assert not isinstance(Claims(redis_server).counter("sockets", 0), RedisPerAddress)

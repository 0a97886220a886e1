"""Two real uvicorn processes on one PostgreSQL database with REALTIME_BUS=redis,
on a Redis of this module's own (started here, so that it can be restarted):
a match played through one reaches the sockets of both, every version once and
in order; a process with no socket of a match is not subscribed to its lane
(Redis's own count says so); Redis restarted under a stream of actions loses
nothing, and every socket catches up with no duplicate. Skipped without
PostgreSQL or redis-server (failed under CI=true)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator

import httpx
import pytest
import redis
from websockets.asyncio.client import connect

from app.realtime.redis_bus import lane_of
from tests.realtime.redis_process import RedisProcess
from tests.realtime.test_processes import Match, Server, two_servers, updates_until, versions
from tests.waiting import until

PREFIX = "magery-two"


@pytest.fixture(scope="module")
def servers(postgres_url: str, redis_process: RedisProcess) -> Iterator[tuple[Server, Server]]:
    bus = {"realtime_bus": "redis", "redis_url": redis_process.url, "redis_prefix": PREFIX}
    with two_servers(postgres_url, **bus) as both:
        yield both


@pytest.fixture
async def http() -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(timeout=30) as client:
        yield client


def lane(match_id: str) -> str:
    return f"{PREFIX}:lane:{lane_of(match_id)}"


async def test_a_match_played_through_one_process_reaches_the_sockets_of_both(
        servers: tuple[Server, Server], http: httpx.AsyncClient) -> None:
    a, b = servers
    match = await Match(http, a.base, 31).start()
    async with connect(a.ws(match.id)) as on_a, connect(b.ws(match.id)) as on_b:
        starts = [versions(await updates_until(ws, match.state["version"]))[-1] for ws in (on_a, on_b)]
        for _ in range(20):
            await match.act()
        for ws, start in zip((on_a, on_b), starts, strict=True):
            got = await updates_until(ws, match.state["version"])
            assert versions(got) == list(range(start + 1, match.state["version"] + 1))
            assert got[-1]["match"]["arena"] == match.state["arena"]


async def test_a_process_with_no_socket_of_a_match_is_not_subscribed_to_its_lane(
        servers: tuple[Server, Server], http: httpx.AsyncClient, redis_process: RedisProcess) -> None:
    a, b = servers
    # Every process hears the site channel (nudges); no match is held yet.
    await until(lambda: redis_process.subscribers(f"{PREFIX}:site") == 2, "both processes on the site channel")
    match = await Match(http, a.base, 32).start()
    await until(lambda: redis_process.subscribers(lane(match.id)) == 0, "earlier tests' rooms to close")
    async with connect(b.ws(match.id)) as on_b:
        await updates_until(on_b, match.state["version"])
        await until(lambda: redis_process.subscribers(lane(match.id)) == 1, "B alone on the match's lane")
        await match.act()  # made through A, which holds no socket of it: it publishes, never subscribes
        await updates_until(on_b, match.state["version"])
        assert redis_process.subscribers(lane(match.id)) == 1
        async with connect(a.ws(match.id)) as on_a:
            await updates_until(on_a, match.state["version"])
            await until(lambda: redis_process.subscribers(lane(match.id)) == 2, "A on the lane too")
        await until(lambda: redis_process.subscribers(lane(match.id)) == 1, "A to leave the lane")
    await until(lambda: redis_process.subscribers(lane(match.id)) == 0, "B to leave the lane")


async def test_redis_restarted_under_a_stream_of_actions_loses_nothing(
        servers: tuple[Server, Server], http: httpx.AsyncClient, redis_process: RedisProcess) -> None:
    """Actions go on through both processes while Redis stops and starts again:
    each socket, on either process, ends holding every version once, in order."""
    a, b = servers
    match = await Match(http, a.base, 33).start()
    through_b = Match(http, b.base, 34)
    through_b.id, through_b.tokens, through_b.state = match.id, match.tokens, match.state
    async with connect(a.ws(match.id)) as on_a, connect(b.ws(match.id)) as on_b:
        starts = [versions(await updates_until(ws, match.state["version"]))[-1] for ws in (on_a, on_b)]
        await until(lambda: redis_process.subscribers(lane(match.id)) == 2, "both on the match's lane")
        acted, done = 0, False

        async def play(n: int | None = None) -> None:
            nonlocal acted
            while not done and (n is None or n > 0):  # alternately through A and B, each from where the other left
                side, other = (match, through_b) if acted % 2 == 0 else (through_b, match)
                await side.act()
                other.state = side.state
                acted += 1
                n = None if n is None else n - 1

        await play(4)
        stream = asyncio.create_task(play())
        await until(lambda: acted >= 8, "the stream to be under way")
        await asyncio.to_thread(redis_process.stop)
        away = acted
        await until(lambda: acted >= away + 6, "actions made while Redis is away")
        await asyncio.to_thread(redis_process.start)
        back = acted
        await until(lambda: acted >= back + 6, "actions made once Redis is back")
        done = True
        await stream
        final = max(match.state["version"], through_b.state["version"])
        for ws, start in zip((on_a, on_b), starts, strict=True):
            got = await updates_until(ws, final)
            assert versions(got) == list(range(start + 1, final + 1))
        # Both processes back on the lane and the site channel.
        await until(lambda: redis_process.subscribers(lane(match.id)) == 2, "both on the lane again")
        await until(lambda: redis_process.subscribers(f"{PREFIX}:site") == 2, "both on the site channel again")


async def test_what_redis_never_delivered_is_caught_up_from_the_database(
        servers: tuple[Server, Server], http: httpx.AsyncClient, redis_process: RedisProcess) -> None:
    """Both listening links cut and kept away (Redis takes no new client) while
    actions are made through A: every announcement of them is published to no
    one, lost for good. When the links come back, B's socket is brought up to
    date from the database all the same, every version once."""
    a, b = servers
    match = await Match(http, a.base, 35).start()
    admin = redis.Redis(port=redis_process.port, decode_responses=True)
    try:
        async with connect(b.ws(match.id)) as on_b:
            start = versions(await updates_until(on_b, match.state["version"]))[-1]
            await until(lambda: redis_process.subscribers(lane(match.id)) == 1, "B on the match's lane")
            listeners = [c for c in admin.client_list() if c.get("name") == f"{PREFIX}:listen"]
            assert len(listeners) == 2
            admin.config_set("maxclients", len(admin.client_list()) - 2)  # no new link until told
            try:
                for client in listeners:
                    admin.client_kill_filter(_id=client["id"])
                for _ in range(5):
                    await match.act()  # announced to a Redis where nobody listens
            finally:
                admin.config_set("maxclients", 10000)
            got = await updates_until(on_b, match.state["version"])
            assert versions(got) == list(range(start + 1, match.state["version"] + 1))
    finally:
        admin.close()

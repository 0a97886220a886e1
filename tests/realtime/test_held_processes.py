"""Two real server processes with REDIS_URL count one address's sockets
together (app/realtime/held_in_redis.py): the cap holds summed over both, a
socket closed on one frees a place on the other, and the places of a process
killed -9 come back once its claim runs out (SOCKET_CLAIM_SECONDS, short here).
Skipped without PostgreSQL or Redis (failed under CI=true)."""

from __future__ import annotations

import secrets
import signal
from collections.abc import AsyncIterator, Iterator

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from tests.realtime.test_processes import Match, Server, two_servers
from tests.waiting import until

CAP = 3


@pytest.fixture(scope="module")
def servers(postgres_url: str, redis_server: str) -> Iterator[tuple[Server, Server]]:
    held = {"realtime_bus": "redis", "redis_url": redis_server, "redis_prefix": f"magery-held-{secrets.token_hex(4)}",
            "ws_sockets_per_address": str(CAP), "socket_claim_seconds": "2"}
    with two_servers(postgres_url, **held) as both:
        yield both


@pytest.fixture
async def http() -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(timeout=30) as client:
        yield client


async def opened(url: str) -> ClientConnection | None:
    """The socket, once the server admitted it (its first message came), or None
    when it was closed 1008 too_many_sockets."""
    ws = await connect(url)
    try:
        await ws.recv()
    except ConnectionClosed as closed:
        assert closed.rcvd is not None and closed.rcvd.code == 1008, closed
        assert closed.rcvd.reason.startswith("too_many_sockets"), closed.rcvd.reason
        return None
    return ws


async def refused(url: str) -> bool:
    ws = await opened(url)
    if ws is not None:
        await ws.close()
    return ws is None


async def test_the_cap_holds_summed_over_both_processes(
        servers: tuple[Server, Server], http: httpx.AsyncClient) -> None:
    a, b = servers
    match = await Match(http, a.base, 51).start()
    held = [await opened(a.ws(match.id)), await opened(a.ws(match.id)), await opened(b.ws(match.id))]
    try:
        assert all(ws is not None for ws in held)
        assert await refused(b.ws(match.id))
        assert await refused(a.ws(match.id))
        assert held[0] is not None
        await held[0].close()  # a place free on A: B may take it
        again: list[ClientConnection] = []

        async def b_admits() -> bool:
            ws = await opened(b.ws(match.id))
            if ws is not None:
                again.append(ws)
            return ws is not None

        await until(b_admits, "B to admit the place A gave back")
        held[0] = again[0]
        assert await refused(a.ws(match.id))
    finally:
        for ws in held:
            if ws is not None:
                await ws.close()


async def test_a_killed_process_gives_its_places_back_when_its_claim_runs_out(
        servers: tuple[Server, Server], http: httpx.AsyncClient) -> None:
    a, b = servers
    match = await Match(http, a.base, 52).start()

    async def a_is_free() -> bool:  # what earlier tests held is given back
        ws = await opened(a.ws(match.id))
        if ws is not None:
            await ws.close()
        return ws is not None

    await until(a_is_free, "earlier sockets' places to be free")
    held = [await opened(b.ws(match.id)) for _ in range(CAP)]
    try:
        assert all(ws is not None for ws in held)
        assert await refused(a.ws(match.id))
        b.proc.send_signal(signal.SIGKILL)  # no close: its claim just stops being renewed
        b.proc.wait(30)
        mine: list[ClientConnection] = []

        async def a_admits() -> bool:
            ws = await opened(a.ws(match.id))
            if ws is not None:
                mine.append(ws)
            return ws is not None

        await until(a_admits, "the killed process's claim to run out")
        mine += [ws for ws in [await opened(a.ws(match.id)) for _ in range(CAP - 1)] if ws is not None]
        assert len(mine) == CAP
        assert await refused(a.ws(match.id))
        for ws in mine:
            await ws.close()
    finally:
        for ws in held:
            if ws is not None:
                await ws.close()  # its server is gone: at once
        b.start()  # the module's pair whole again
        b.wait_ready()

"""Issue 12, defect 6: the write limits hold across processes, and behind a proxy.

Two app instances on one PostgreSQL database (two server processes) share one
budget per token and per address (app/kernel/limits.py, SharedWindow); on
SQLite one process counts in memory. X-Forwarded-For is believed only from an
address in TRUSTED_PROXIES, and then the address it names is the one counted.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AsyncExitStack
from typing import Any

import httpx
import pytest

from app.kernel.errors import RateLimited
from app.kernel.limits import SharedWindow, SlidingWindow
from app.main import create_app

from ..conftest import Api, make_settings

LIMIT = 4


@pytest.fixture
async def two_processes(postgres_url: str, database_url: str) -> AsyncIterator[list[Any]]:
    """Two apps with a small write budget on the (emptied) PostgreSQL database."""
    if not database_url.startswith("postgres"):
        pytest.skip("shared counting is PostgreSQL's (SQLite has one process)")
    async with AsyncExitStack() as stack:
        apps = []
        for _ in range(2):
            app = create_app(make_settings(database_url, rate_limit_writes=LIMIT, rate_window_seconds=600))
            await stack.enter_async_context(app.router.lifespan_context(app))
            # No batch of counts goes to the table in the background (a test flushes by
            # hand): counts in flight are seen by neither process until they land (the
            # limit is "about"), and whether a flush began mid-test would depend on how
            # long the machine took to get there (a second, SharedWindow.sync_seconds).
            app.state.parts.gateway.limiter.sync_seconds = float("inf")
            apps.append(app)
        yield apps


def _client(app: Any, address: str, stack: AsyncExitStack) -> Any:
    transport = httpx.ASGITransport(app=app, client=(address, 1234))
    return stack.enter_async_context(httpx.AsyncClient(transport=transport, base_url="http://t"))


async def test_the_limiter_is_shared_on_postgres_and_local_on_sqlite(app: Any, database_url: str) -> None:
    kind = SharedWindow if database_url.startswith("postgres") else SlidingWindow
    assert isinstance(app.state.parts.gateway.limiter, kind)


async def test_one_address_has_one_budget_across_two_processes(two_processes: list[Any]) -> None:
    async with AsyncExitStack() as stack:
        clients = [await _client(app, "10.1.0.1", stack) for app in two_processes]
        codes = [(await clients[i % 2].post("/api/v1/matches", json={})).status_code for i in range(12)]
    assert codes.count(201) == LIMIT and codes[:LIMIT] == [201] * LIMIT, codes
    assert set(codes[LIMIT:]) == {429}, codes


async def test_one_token_has_one_budget_across_two_processes(two_processes: list[Any]) -> None:
    async with AsyncExitStack() as stack:
        maker = Api(await _client(two_processes[0], "10.2.0.1", stack))
        game = await maker.start()
        codes = []
        for i in range(10):  # each from a new address, through either process: the token's budget counts
            client = await _client(two_processes[i % 2], f"10.2.1.{i}", stack)
            r = await client.post(f"/api/v1/matches/{game.id}/draw", json={"offer": i % 2 == 0},
                                  headers=game.auth("white"))
            codes.append(r.status_code)
            if r.status_code == 429:
                assert r.json()["error"] == "rate_limited" and 1 <= int(r.headers["Retry-After"]) <= 600
    assert codes[:LIMIT] == [200] * LIMIT and set(codes[LIMIT:]) == {429}, codes


async def test_many_light_writers_are_counted_in_batches(two_processes: list[Any]) -> None:
    """Far from the budget nothing waits for the database; the counts still reach it."""
    limiter = two_processes[0].state.parts.gateway.limiter
    assert isinstance(limiter, SharedWindow)
    await limiter.hit("addr:light")
    assert limiter._pending == {"addr:light": 1}
    await limiter._flush()
    assert limiter._pending == {} and limiter._total == {"addr:light": 1}
    other = two_processes[1].state.parts.gateway.limiter
    for _ in range(LIMIT - 1):
        await other.hit("addr:light")  # the second hit here is near the budget: counted at once
    with pytest.raises(Exception, match="too many writes"):
        await other.hit("addr:light")


async def test_a_window_is_cut_at_the_same_instant_in_every_process(two_processes: list[Any],
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Windows are aligned to the epoch on the limiter's clock: both processes
    refuse the budget's next write with the seconds left in the window, and
    both let writes through again once the window has ended."""
    now = [1_800_000_599.5]  # half a second before a 600 s window ends
    monkeypatch.setattr(SharedWindow, "clock", staticmethod(lambda: now[0]))
    first, second = (app.state.parts.gateway.limiter for app in two_processes)
    for i in range(LIMIT):
        await (first, second)[i % 2].hit("addr:edge")
    for limiter in (first, second):
        with pytest.raises(RateLimited) as refused:
            await limiter.hit("addr:edge")
        assert refused.value.retry_after == 1
    now[0] += 1.0  # the next window: the count begins again, in both
    await second.hit("addr:edge")
    await first.hit("addr:edge")


async def test_forwarded_for_is_believed_only_from_a_trusted_proxy(database_url: str) -> None:
    settings = make_settings(database_url, rate_limit_writes=2, rate_window_seconds=600,
                             trusted_proxies=["10.9.0.0/16"])
    app = create_app(settings)
    async with app.router.lifespan_context(app), AsyncExitStack() as stack:
        proxy = await _client(app, "10.9.0.7", stack)
        stranger = await _client(app, "10.8.0.7", stack)

        async def create(client: Any, forwarded: str) -> int:
            r = await client.post("/api/v1/matches", json={}, headers={"X-Forwarded-For": forwarded})
            return int(r.status_code)

        # Through the proxy, each client named has a budget of its own.
        assert [await create(proxy, "203.0.113.1") for _ in range(3)] == [201, 201, 429]
        assert [await create(proxy, "198.51.100.2, 10.9.0.1") for _ in range(3)] == [201, 201, 429]
        # From anywhere else the header names nobody: the peer itself is counted.
        assert [await create(stranger, f"192.0.2.{i}") for i in range(3)] == [201, 201, 429]

    plain = create_app(make_settings(database_url, rate_limit_writes=2, rate_window_seconds=600))
    async with plain.router.lifespan_context(plain), AsyncExitStack() as stack:
        peer = await _client(plain, "10.9.0.7", stack)  # no trusted proxies: never believed
        codes = [(await peer.post("/api/v1/matches", json={},
                                  headers={"X-Forwarded-For": f"192.0.2.{i}"})).status_code for i in range(3)]
        assert codes == [201, 201, 429]

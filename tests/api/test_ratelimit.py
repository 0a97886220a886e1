"""Write limits, per token and per address: 429 rate_limited with Retry-After;
reads are never limited; a refused write changes nothing."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from app.main import create_app

from ..conftest import ROW, Api, make_settings
from ..waiting import until


@pytest.fixture
async def limited(database_url: str) -> AsyncIterator[Any]:
    app = create_app(make_settings(database_url, rate_limit_writes=4, rate_window_seconds=60))
    async with app.router.lifespan_context(app):
        yield app


def _client(app: Any, address: str) -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=app, client=(address, 1234))
    return httpx.AsyncClient(transport=transport, base_url="http://t")


async def test_429_with_retry_after_per_address(limited: Any) -> None:
    async with _client(limited, "10.0.0.1") as a, _client(limited, "10.0.0.2") as b:
        codes = [(await a.post("/api/v1/matches", json={})).status_code for _ in range(5)]
        assert codes == [201] * 4 + [429]
        r = await a.post("/api/v1/matches", json={})
        assert r.status_code == 429 and r.json()["error"] == "rate_limited" and r.json()["detail"]
        assert 1 <= int(r.headers["Retry-After"]) <= 60
        # Another address is not affected; reads are never limited.
        assert (await b.post("/api/v1/matches", json={})).status_code == 201
        for _ in range(10):
            assert (await a.get("/api/v1/matches")).status_code == 200


async def test_429_per_token_across_addresses(limited: Any) -> None:
    async with _client(limited, "10.0.1.1") as a:
        api = Api(a)
        game = await api.start()  # 2 writes from this address
    codes = []
    for i in range(6):  # each from a new address: only the token's budget counts
        async with _client(limited, f"10.0.2.{i}") as c:
            r = await c.post(f"/api/v1/matches/{game.id}/draw", json={"offer": i % 2 == 0},
                             headers=game.auth("white"))
            codes.append(r.status_code)
            if r.status_code == 429:
                assert r.json()["error"] == "rate_limited" and int(r.headers["Retry-After"]) >= 1
    assert codes[:4] == [200] * 4 and codes[4:] == [429, 429], codes


async def test_a_limited_write_changes_nothing(limited: Any) -> None:
    async with _client(limited, "10.0.3.1") as a:
        api = Api(a)
        game = await api.start()
        await api.act(game, "white", {"type": "setup", "backrow": ROW})
        await api.act(game, "black", {"type": "setup", "backrow": ROW})  # 4 writes: the budget
        r = await api.post(game, "white", {"type": "pass"})
        assert r.status_code == 429
        assert (await api.state(game))["version"] == game.version


async def test_a_refused_write_is_held_before_its_429_and_holds_up_nobody(database_url: str) -> None:
    """A client writing past its budget waits RATE_LIMIT_HOLD_SECONDS for each 429
    (it slows itself down); meanwhile the server answers everyone else at once,
    the fast path and the declared routes alike."""
    import asyncio

    app = create_app(make_settings(database_url, rate_limit_writes=2, rate_window_seconds=60,
                                   rate_limit_hold_seconds=1.0))
    async with app.router.lifespan_context(app), _client(app, "10.0.9.1") as a, _client(app, "10.0.9.2") as b:
        game = await Api(a).start()  # the two writes of this address
        act = {"action": {"type": "setup", "backrow": ROW}, "version": game.version}
        # The holds last until the test ends them: the other client's reads are
        # answered while both are held, however long the machine takes over them.
        holds: list[float] = []
        over = asyncio.Event()

        async def hold(seconds: float) -> None:
            holds.append(seconds)
            await over.wait()

        app.state.parts.gateway.pause = hold
        done: list[str] = []

        async def refused(call: Any) -> int:
            r = await call
            done.append("429")
            return int(r.status_code)

        writes = [asyncio.create_task(refused(call)) for call in (
            a.post(f"/api/v1/matches/{game.id}/actions", json=act, headers=game.auth("white")),
            a.post(f"/api/v1/matches/{game.id}/resign", headers=game.auth("black")))]
        await until(lambda: len(holds) == 2, "both refused writes to be held")
        for _ in range(5):
            assert (await b.get(f"/api/v1/matches/{game.id}")).status_code == 200
            done.append("read")
        over.set()
        assert await asyncio.gather(*writes) == [429, 429]  # the fast path's and the declared route's
        assert holds == [1.0, 1.0]  # each held RATE_LIMIT_HOLD_SECONDS
        assert done == ["read"] * 5 + ["429"] * 2  # another client was answered while both were held
        assert (await Api(b).state(game))["version"] == game.version  # nothing changed

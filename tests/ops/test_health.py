"""`/healthz` says the process answers; `/readyz` says the database answers and
stands at the head migration (503 otherwise, and while shutting down). Both are
answered ahead of every limit."""

from __future__ import annotations

from typing import Any

import httpx

from app.db import head, make_engine
from app.db.migrate import downgrade, upgrade
from tests.realtime.conftest import custom_app

DEAD = "postgresql+asyncpg://postgres@127.0.0.1:1/nowhere"  # nothing listens on port 1


async def test_healthz_and_readyz_answer_200_on_a_ready_server(client: httpx.AsyncClient) -> None:
    r = await client.get("/healthz")
    assert r.status_code == 200 and r.json() == {"status": "ok"}
    r = await client.get("/readyz")
    assert r.status_code == 200, r.text
    assert r.json()["status"] == "ready" and r.json()["migration"] == head()
    assert r.headers["cache-control"] == "no-store"
    assert (await client.head("/readyz")).status_code == 200


async def test_readyz_is_503_while_the_database_is_out_of_reach(app: Any, client: httpx.AsyncClient) -> None:
    ops = app.state.parts.ops
    real = ops.engine
    ops.engine = make_engine(DEAD)
    try:
        r = await client.get("/readyz")
        assert r.status_code == 503, r.text
        assert r.json()["status"] == "unready" and "out of reach" in r.json()["detail"]
        assert (await client.get("/healthz")).status_code == 200  # alive all the same
    finally:
        await ops.engine.dispose()
        ops.engine = real
    assert (await client.get("/readyz")).status_code == 200


async def test_readyz_is_503_while_migrations_are_behind(app: Any, client: httpx.AsyncClient) -> None:
    engine = app.state.parts.engine
    await downgrade(engine, "0001")
    try:
        r = await client.get("/readyz")
        assert r.status_code == 503, r.text
        assert "0001" in r.json()["detail"] and str(head()) in r.json()["detail"]
    finally:
        await upgrade(engine)
    assert (await client.get("/readyz")).status_code == 200


async def test_readyz_is_503_once_the_server_is_shutting_down(app: Any, client: httpx.AsyncClient) -> None:
    await app.state.parts.hub.close(1001)
    r = await client.get("/readyz")
    assert r.status_code == 503 and r.json()["detail"] == "shutting down"
    assert (await client.get("/healthz")).status_code == 200


async def test_probes_are_outside_every_limit(database_url: str) -> None:
    # One write allowed per window: the probes do not spend it, and are never refused.
    async with custom_app(database_url, rate_limit_writes=1, rate_window_seconds=60) as (_, api):
        for _ in range(60):
            for path in ("/healthz", "/readyz", "/metrics"):
                r = await api.client.get(path)
                assert r.status_code == 200, (path, r.text)
        await api.create()  # the one write is still there to spend
        r = await api.client.post(api.base, json={"options": {}, "seat": "white"})
        assert r.status_code == 429  # and the limit itself still holds


async def test_the_probes_take_only_get_and_head(client: httpx.AsyncClient) -> None:
    r = await client.post("/healthz")
    assert r.status_code == 405 and r.headers["allow"] == "GET, HEAD"
    assert r.json()["error"] == "method_not_allowed"


async def test_readyz_waits_for_the_database_as_long_as_it_is_told(database_url: str) -> None:
    """READY_TIMEOUT_SECONDS is the wait: a database slower than it is unready,
    and the answer names the setting's value."""
    async with custom_app(database_url, ready_timeout_seconds=0.000001) as (_, api):
        r = await api.client.get("/readyz")
        assert r.status_code == 503 and r.json()["detail"] == "the database gave no answer within 1e-06 s"

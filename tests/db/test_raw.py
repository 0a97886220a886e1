"""The driver connections the hot statements use (app/db/raw.py) never hand a
broken connection to their next user: one whose backend died in mid-statement
is dropped from the pool, and one that died while it sat in the pool is
skipped. Before, the next user got "connection is closed" or, in a race during
a PostgreSQL restart, "another operation is in progress" (a 500, found by
bench/proofs.py chaos). PostgreSQL only: SQLite has no such path."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import asyncpg
import pytest
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from app.db.raw import raw_asyncpg

from ..conftest import _asyncpg_dsn
from ..waiting import until


@pytest.fixture
async def one_connection(postgres_url: str) -> AsyncIterator[AsyncEngine]:
    """An engine whose pool holds one connection: the next user gets the same one."""
    engine = create_async_engine(postgres_url, pool_size=1, max_overflow=0)
    yield engine
    await engine.dispose()


async def kill(postgres_url: str, pid: int) -> None:
    admin = await asyncpg.connect(_asyncpg_dsn(postgres_url))
    try:
        # Waits (up to 5 s) until the backend has exited, so that what follows
        # never races its goodbye.
        await admin.execute("SELECT pg_terminate_backend($1, 5000)", pid)
    finally:
        await admin.close()


async def _running(postgres_url: str, pid: int, query: str) -> bool:
    admin = await asyncpg.connect(_asyncpg_dsn(postgres_url))
    try:
        return bool(await admin.fetchval(
            "SELECT count(*) FROM pg_stat_activity WHERE pid = $1 AND state = 'active' AND query = $2",
            pid, query))
    finally:
        await admin.close()


async def test_a_connection_killed_mid_statement_is_not_handed_on(
        one_connection: AsyncEngine, postgres_url: str) -> None:
    pids: list[int] = []

    async def sleeper() -> None:
        async with raw_asyncpg(one_connection) as raw:
            pids.append(raw.get_server_pid())
            await raw.fetch("SELECT pg_sleep(60)")  # ended by the kill long before

    task = asyncio.create_task(sleeper())
    await until(lambda: pids, "the statement's connection")
    await until(lambda: _running(postgres_url, pids[0], "SELECT pg_sleep(60)"), "the statement to run")
    await kill(postgres_url, pids[0])
    with pytest.raises(asyncpg.exceptions.ConnectionDoesNotExistError):
        await task
    async with raw_asyncpg(one_connection) as raw:  # the same pool's next user
        assert await raw.fetchval("SELECT 7") == 7
        assert raw.get_server_pid() != pids[0]


async def test_a_connection_that_died_in_the_pool_is_skipped(
        one_connection: AsyncEngine, postgres_url: str) -> None:
    async with raw_asyncpg(one_connection) as raw:
        pid = raw.get_server_pid()
    await kill(postgres_url, pid)  # as a restart does to every idle connection
    await until(raw.is_closed, "the pooled connection to hear its backend's goodbye")
    async with raw_asyncpg(one_connection) as raw:
        assert await raw.fetchval("SELECT 8") == 8
        assert raw.get_server_pid() != pid


async def test_a_refused_row_keeps_its_connection(one_connection: AsyncEngine) -> None:
    async with raw_asyncpg(one_connection) as raw:
        pid = raw.get_server_pid()
        await raw.execute("CREATE TEMP TABLE once (k int PRIMARY KEY)")
        await raw.execute("INSERT INTO once VALUES (1)")
    with pytest.raises(asyncpg.UniqueViolationError):
        async with raw_asyncpg(one_connection) as raw:
            await raw.execute("INSERT INTO once VALUES (1)")
    async with raw_asyncpg(one_connection) as raw:
        assert raw.get_server_pid() == pid  # not dropped: only our data was refused


async def test_a_statement_that_could_not_start_runs_on_another_connection(
        one_connection: AsyncEngine, monkeypatch: pytest.MonkeyPatch) -> None:
    """The race bench/proofs.py chaos met twice: the server's goodbye reached a
    pooled connection before its close did, and asyncpg refused to start the
    statement ("another operation is in progress"; nothing was sent). `fetch`
    drops that connection and runs the statement on a fresh one."""
    from app.db import raw as raw_module

    real = raw_module.raw_asyncpg
    first_pid: list[int] = []

    class Refusing:
        def __init__(self, inner: Any) -> None:
            self.inner = inner

        async def fetch(self, *args: Any) -> Any:
            raise asyncpg.exceptions.InternalClientError(
                "cannot switch to state 12; another operation (2) is in progress")

    @contextlib.asynccontextmanager
    async def once_refusing(engine: AsyncEngine) -> AsyncIterator[Any]:
        async with real(engine) as conn:
            if not first_pid:
                first_pid.append(conn.get_server_pid())
                yield Refusing(conn)
            else:
                yield conn

    monkeypatch.setattr(raw_module, "raw_asyncpg", once_refusing)
    rows = await raw_module.fetch(one_connection, "SELECT pg_backend_pid() AS pid")
    assert first_pid and rows[0]["pid"] != first_pid[0]  # the refusing connection was dropped

    async def always(*args: Any) -> Any:
        raise asyncpg.exceptions.InternalClientError("something else went wrong")

    Refusing.fetch = always  # type: ignore[method-assign]
    first_pid.clear()
    with pytest.raises(asyncpg.exceptions.InternalClientError):  # any other client error is a bug: raised
        await raw_module.fetch(one_connection, "SELECT 1")

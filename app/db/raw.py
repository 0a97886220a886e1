"""The driver's own connection (asyncpg), for the few hot statements that skip
SQLAlchemy's execution layer (the action save, the shared rate counters).

SQLAlchemy never sees what happens on such a connection, so it cannot tell
when the link broke in mid-statement: handed back to the pool, the broken
connection failed its next user ("connection is closed", or during a
PostgreSQL restart "another operation is in progress", a 500 that
bench/proofs.py caught). So here:

- a pooled connection already closed (the server went away while it sat in
  the pool) is dropped before use and another taken;
- a statement that fails for any reason but the server refusing our data
  drops its connection from the pool, cancellation included;
- `fetch` runs one statement, and if the connection turns out to have heard
  the server's goodbye while it sat in the pool (asyncpg refuses to start the
  statement: "cannot switch to state …; another operation is in progress",
  raised before a byte is sent, so nothing ran), runs it on another one.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

import asyncpg
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

STALE_TRIES = 32  # closed connections skipped before giving up (a pool holds fewer)
_NOT_STARTED = "another operation"  # asyncpg's words when a statement could not start


async def _drop(conn: AsyncConnection) -> None:
    with contextlib.suppress(Exception):
        await conn.invalidate()


@contextlib.asynccontextmanager
async def raw_asyncpg(engine: AsyncEngine) -> AsyncIterator[Any]:
    """`async with raw_asyncpg(engine) as raw:` a live pooled asyncpg connection."""
    for _ in range(STALE_TRIES):
        async with engine.connect() as conn:
            raw = (await conn.get_raw_connection()).driver_connection
            assert raw is not None
            if raw.is_closed():
                await _drop(conn)
                continue
            try:
                yield raw
            except asyncpg.exceptions.IntegrityConstraintViolationError:
                raise  # the server refused the row (class 23): the connection is sound
            except BaseException:
                await _drop(conn)
                raise
            return
    raise asyncpg.exceptions.ConnectionDoesNotExistError("every pooled connection was closed")


async def fetch(engine: AsyncEngine, sql: str, *args: Any) -> list[Any]:
    """`raw.fetch(sql, *args)` on a live pooled connection (see the module's docstring)."""
    for _ in range(STALE_TRIES):
        try:
            async with raw_asyncpg(engine) as raw:
                return list(await raw.fetch(sql, *args))
        except asyncpg.exceptions.InternalClientError as error:
            if _NOT_STARTED not in str(error):
                raise
            # That connection is dropped (raw_asyncpg); the statement never started.
    raise asyncpg.exceptions.ConnectionDoesNotExistError("every pooled connection was closed")

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
from typing import Any

import asyncpg
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.util import greenlet_spawn

STALE_TRIES = 32  # closed connections skipped before giving up (a pool holds fewer)
_NOT_STARTED = "another operation"  # asyncpg's words when a statement could not start


async def _drop(fairy: Any) -> None:
    """Out of the pool for good: closed, and its place in the pool freed."""
    with contextlib.suppress(Exception):
        await greenlet_spawn(fairy.invalidate)


class _Lent:
    """One pooled driver connection for an `async with` block, taken from the
    engine's pool itself (its "fairy", one hop into SQLAlchemy's greenlet each
    way) rather than through an `AsyncConnection`, whose checkout and return
    cost some 3 greenlet hops and two objects a statement: we measured
    ~75 µs of CPU for that against ~30 µs for this, on every action saved."""

    __slots__ = ("engine", "fairy")

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.fairy: Any = None

    async def __aenter__(self) -> Any:
        take = self.engine.sync_engine.raw_connection
        for _ in range(STALE_TRIES):
            fairy = await greenlet_spawn(take)
            raw = fairy.driver_connection
            if raw is None or raw.is_closed():
                await _drop(fairy)
                continue
            self.fairy = fairy
            return raw
        raise asyncpg.exceptions.ConnectionDoesNotExistError("every pooled connection was closed")

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: Any) -> None:
        fairy, self.fairy = self.fairy, None
        if kind is None or issubclass(kind, asyncpg.exceptions.IntegrityConstraintViolationError):
            # Done, or the server refused the row (class 23): the connection is sound.
            # Returned in the greenlet: a pool over its size closes it, which awaits.
            await greenlet_spawn(fairy.close)
        else:
            await _drop(fairy)  # cancellation included: the link's state is unknown


def raw_asyncpg(engine: AsyncEngine) -> _Lent:
    """`async with raw_asyncpg(engine) as raw:` a live pooled asyncpg connection."""
    return _Lent(engine)


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

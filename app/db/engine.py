"""The async engine for DATABASE_URL: SQLite (aiosqlite) or Postgres (asyncpg)."""

from __future__ import annotations

import secrets
from typing import Any

from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

POOLERS = ("none", "pgbouncer")


def is_sqlite(url: str) -> bool:
    return url.startswith("sqlite")


def _statement_name() -> str:
    """A prepared statement's name no other client of the pooler will ever use."""
    return f"__magery_{secrets.token_hex(12)}__"


def pooled_connect_args() -> dict[str, Any]:
    """What asyncpg and SQLAlchemy need behind a pooler that lends a server
    connection per transaction (PgBouncer's pool_mode=transaction, which keeps
    no prepared statement of its own before 1.21):

    - no statement is kept prepared between transactions: the next transaction
      may run on another server connection, where it does not exist, while the
      server connection we left may go to another client that prepares the same
      name (asyncpg numbers its statements from 1 in every client);
    - asyncpg's own statements (the raw saves, app/db/raw.py) are then unnamed,
      and asyncpg parses each again in the same round trip as its execution;
    - SQLAlchemy still prepares each statement (for the result's columns) inside
      its transaction, under a name nobody else uses; the pooler's reset query
      (DEALLOCATE ALL, docs/operations.md) clears them when the transaction ends.
    """
    return {"statement_cache_size": 0, "prepared_statement_cache_size": 0,
            "prepared_statement_name_func": _statement_name}


def make_engine(url: str, pool_size: int = 32, max_overflow: int = 8, pooler: str = "none") -> AsyncEngine:
    """`pooler`: "pgbouncer" when a pooler in transaction mode stands between
    the server and PostgreSQL (DATABASE_POOLER)."""
    if pooler not in POOLERS:
        raise ValueError(f"pooler is one of {', '.join(POOLERS)}, not {pooler!r}")
    if is_sqlite(url):
        # One file, many readers, one writer: WAL, and wait for the lock rather than fail.
        engine = create_async_engine(url, connect_args={"timeout": 30})

        @event.listens_for(engine.sync_engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        return engine
    return create_async_engine(
        url, pool_size=pool_size, max_overflow=max_overflow, pool_pre_ping=False,
        connect_args=pooled_connect_args() if pooler != "none" else {},
    )

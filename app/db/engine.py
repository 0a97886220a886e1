"""The async engine for DATABASE_URL: SQLite (aiosqlite) or Postgres (asyncpg)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine


def is_sqlite(url: str) -> bool:
    return url.startswith("sqlite")


def make_engine(url: str, pool_size: int = 32, max_overflow: int = 8) -> AsyncEngine:
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
    )

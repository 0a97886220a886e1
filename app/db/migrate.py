"""`alembic upgrade head`, from inside the running server (or a test).

Alembic's env.py (migrations/env.py) runs on a connection handed to it here, so
the same code works for sqlite+aiosqlite and postgresql+asyncpg URLs and inside
an event loop. On Postgres an advisory lock makes server processes that start
together migrate one after the other.
"""

from __future__ import annotations

import functools
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import text
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine

ROOT = Path(__file__).resolve().parents[2]
_MIGRATION_LOCK = 0x4D41_4745  # "MAGE"


def alembic_config(url: str | None = None) -> Config:
    cfg = Config(str(ROOT / "alembic.ini"))
    cfg.set_main_option("script_location", str(ROOT / "migrations"))
    if url:
        cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


def _run(connection: Connection, revision: str, down: bool) -> None:
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _MIGRATION_LOCK})
    cfg = alembic_config()
    cfg.attributes["connection"] = connection
    if down:
        command.downgrade(cfg, revision)
    else:
        command.upgrade(cfg, revision)


async def upgrade(engine: AsyncEngine, revision: str = "head") -> None:
    if revision == "head" and await _stands_at(engine) == head():
        return  # nothing to do: no need to load and run every migration script to learn it
    async with engine.begin() as conn:
        await conn.run_sync(_run, revision, False)


async def downgrade(engine: AsyncEngine, revision: str = "base") -> None:
    async with engine.begin() as conn:
        await conn.run_sync(_run, revision, True)


async def revision(engine: AsyncEngine) -> str | None:
    """The revision the database stands at (None before any migration)."""
    async with engine.connect() as conn:
        found = await conn.execute(text("SELECT version_num FROM alembic_version"))
        return found.scalar_one_or_none()


async def _stands_at(engine: AsyncEngine) -> str | None:
    """The database's revision, or None when it has none yet (no alembic_version)."""
    try:
        return await revision(engine)
    except DBAPIError:
        return None


@functools.cache
def head() -> str | None:
    """The newest revision of migrations/ (they do not change while the server runs)."""
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config()).get_current_head()

"""Alembic environment: runs on a connection given by app/db/migrate.py, or, from
the command line, on DATABASE_URL (the server's settings)."""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy.engine import Connection

from app.db.models import Base

config = context.config
target_metadata = Base.metadata


def _migrate(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


async def _online() -> None:
    from app.config import Settings
    from app.db.engine import make_engine

    settings = Settings()
    url = config.get_main_option("sqlalchemy.url") or settings.database_url
    # The whole run is one transaction (below): it passes through a pooler too.
    engine = make_engine(url, pooler=settings.database_pooler)
    async with engine.begin() as conn:
        await conn.run_sync(_migrate)
    await engine.dispose()


if context.is_offline_mode():
    raise SystemExit("offline (--sql) migrations are not supported; run against a database")

connection = config.attributes.get("connection")
if connection is not None:
    _migrate(connection)
else:
    asyncio.run(_online())

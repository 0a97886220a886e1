"""Alembic makes the schema, on SQLite and on PostgreSQL alike."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect

from app.db import make_engine, upgrade
from app.db.migrate import downgrade
from app.db.models import Base

TABLES = {"matches", "seats", "actions", "draw_offers", "alembic_version"}


def _differences(conn) -> list:  # type: ignore[no-untyped-def]
    return compare_metadata(MigrationContext.configure(conn), Base.metadata)


async def test_migrations_down_and_up_match_the_models(database_url: str) -> None:
    engine = make_engine(database_url)
    try:
        async with engine.connect() as conn:
            assert set(await conn.run_sync(lambda c: inspect(c).get_table_names())) >= TABLES
            assert await conn.run_sync(_differences) == []
        await downgrade(engine)
        async with engine.connect() as conn:
            assert await conn.run_sync(lambda c: set(inspect(c).get_table_names())) <= {"alembic_version"}
        await upgrade(engine)
        await upgrade(engine)  # at head already: nothing to do
        async with engine.connect() as conn:
            assert set(await conn.run_sync(lambda c: inspect(c).get_table_names())) >= TABLES
            assert await conn.run_sync(_differences) == []
    finally:
        await engine.dispose()

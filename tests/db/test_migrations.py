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


async def _snapshot(engine) -> dict[str, list]:  # type: ignore[no-untyped-def]
    """Every row of the match tables, as 0006 knew their columns."""
    from sqlalchemy import text

    kept = {"matches": "id, status, variant, options, seed, version, state, result, created_at, rematch_of",
            "seats": "match_id, colour, name, token_hash, bot, joined_at",
            "actions": "match_id, version, player, action, automatic, public",
            "bot_matches": "match_id, owner"}
    async with engine.connect() as conn:
        return {table: [tuple(r) for r in (await conn.execute(
            text(f"SELECT {columns} FROM {table} ORDER BY 1, 2"))).all()] for table, columns in kept.items()}


async def test_a_database_at_0006_upgrades_with_its_matches_intact(database_url: str) -> None:
    from sqlalchemy import text

    from app.matches import MatchService
    from tests.conftest import ROW, make_settings

    engine = make_engine(database_url)
    service = MatchService(engine, make_settings(database_url), bot_levels=("random",))
    try:
        guests = await service.lobby.create({}, seat="white", name="Ada")
        await service.lobby.join(guests.match["id"], name="Bo")
        await service.mover.act(guests.match["id"], "white", {"type": "setup", "backrow": ROW}, 1)
        await service.lobby.create({}, seat="black", name="Cy", opponent="bot:random")
        await service.lobby.create({}, name="Di")  # waiting for an opponent
        await downgrade(engine, "0006")
        before = await _snapshot(engine)
        assert len(before["matches"]) == 3 and len(before["seats"]) == 5 and before["actions"]
        await upgrade(engine)
        assert await _snapshot(engine) == before
        async with engine.connect() as conn:
            assert (await conn.execute(text("SELECT count(*) FROM matches WHERE rated"))).scalar() == 0
            # Guests' matches stay guests': no seat gains an account.
            assert (await conn.execute(
                text("SELECT count(*) FROM seats WHERE account_id IS NOT NULL"))).scalar() == 0
            computers = (await conn.execute(text(
                "SELECT name, computer FROM accounts WHERE computer IS NOT NULL ORDER BY name"))).all()
            assert [tuple(c) for c in computers] == [("Greedy", "greedy"), ("Random", "random"),
                                                      ("Strong", "strong")]
            assert await conn.run_sync(_differences) == []
    finally:
        await engine.dispose()

"""The match list's player filter is served by an index (migration 0002), on
SQLite and on PostgreSQL alike: no scan of every seat."""

from __future__ import annotations

from sqlalchemy import text

from app.db import make_engine


async def test_the_player_filter_uses_the_lower_name_index(database_url: str) -> None:
    engine = make_engine(database_url)
    query = "SELECT match_id FROM seats WHERE lower(name) = :player"
    try:
        async with engine.connect() as conn:
            if engine.dialect.name == "postgresql":
                # An empty table would be scanned whatever the indexes: ask for the
                # plan with scans priced out, so only an index that fits shows up.
                await conn.execute(text("SET LOCAL enable_seqscan = off"))
                plan = "\n".join((await conn.execute(text(f"EXPLAIN {query}"), {"player": "ada"})).scalars())
            else:
                rows = await conn.execute(text(f"EXPLAIN QUERY PLAN {query}"), {"player": "ada"})
                plan = "\n".join(str(r[-1]) for r in rows)
    finally:
        await engine.dispose()
    assert "ix_seats_name_lower" in plan, plan

"""The log row's public state is written compressed with lz4 on PostgreSQL
(migration 0014, issue 22: pglz was about a tenth of PostgreSQL's CPU per action)."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from app.db import make_engine, upgrade
from app.db.migrate import downgrade
from app.matches import MatchService
from tests.conftest import ROW, make_settings


async def _compression(engine) -> str:  # type: ignore[no-untyped-def]
    async with engine.connect() as conn:
        return (await conn.execute(text(
            "SELECT attcompression::text FROM pg_attribute WHERE attrelid = 'actions'::regclass AND attname = 'public'"
        ))).scalar_one()


async def _written_with(engine) -> set[str | None]:  # type: ignore[no-untyped-def]
    async with engine.connect() as conn:
        return {r[0] for r in (await conn.execute(text(
            "SELECT pg_column_compression(public) FROM actions WHERE length(public::text) > 2100"))).all()}


async def test_an_action_s_log_row_is_compressed_with_lz4(database_url: str) -> None:
    if not database_url.startswith("postgresql"):
        pytest.skip("a PostgreSQL storage setting; SQLite stores the row as it is")
    engine = make_engine(database_url)
    service = MatchService(engine, make_settings(database_url), bot_levels=("random",))
    try:
        assert await _compression(engine) == "l"
        created = await service.lobby.create({}, seat="white", name="Ada")
        match_id = created.match["id"]
        await service.lobby.join(match_id, name="Bo")
        await service.mover.act(match_id, "white", {"type": "setup", "backrow": ROW}, 1)
        await service.mover.act(match_id, "black", {"type": "setup", "backrow": ROW}, 2)
        # Rows past PostgreSQL's inline limit are compressed, each with lz4.
        assert await _written_with(engine) == {"lz4"}

        await downgrade(engine, "0013")  # back to the server's default (pglz here)
        assert await _compression(engine) == ""
        await upgrade(engine)
        assert await _compression(engine) == "l"
    finally:
        await engine.dispose()

"""Reads of the action log's stored public states (the history the replay walks).

Each log row keeps the public state right after it (`actions.public`, what its
websocket update carried), so a version's state is read back, never rebuilt
from pictures. Kept apart from store.py, which holds the service's hot path;
here too the small reads beside a record's: its version alone, a page's states.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db import raw
from app.db.models import actions, matches


async def current_version(engine: AsyncEngine, match_id: str) -> tuple[int, bool] | None:
    """(the match's version now, whether it is finished), or None if there is no such match."""
    async with engine.connect() as conn:
        row = (await conn.execute(
            select(matches.c.version, matches.c.status).where(matches.c.id == match_id))).first()
        return None if row is None else (row.version, row.status == "finished")


async def entries_between(engine: AsyncEngine, match_id: str, first: int, last: int) -> list[Any]:
    """The log rows with `first <= version <= last`, in order, each with its public state."""
    async with engine.connect() as conn:
        return list((await conn.execute(
            select(actions.c.version, actions.c.player, actions.c.action, actions.c.automatic,
                   actions.c.at, actions.c.public)
            .where(actions.c.match_id == match_id, actions.c.version >= first,
                   actions.c.version <= last)
            .order_by(actions.c.version))).all())


async def finished_log(engine: AsyncEngine, match_id: str) -> tuple[Any, list[Any]] | None:
    """(the match's row: status, version, seed, options, chaos, custom; its log in
    version order), read in one transaction so the two agree; None if no such match."""
    async with engine.connect() as conn, conn.begin():
        row = (await conn.execute(
            select(matches.c.status, matches.c.version, matches.c.seed, matches.c.options,
                   matches.c.chaos, matches.c.custom).where(matches.c.id == match_id))).first()
        if row is None or row.status != "finished":
            return (row, []) if row is not None else None
        log = list((await conn.execute(
            select(actions.c.version, actions.c.player, actions.c.action, actions.c.automatic)
            .where(actions.c.match_id == match_id).order_by(actions.c.version))).all())
        return row, log


_VERSION_NOW = "SELECT version FROM matches WHERE id = $1"


async def version_now(engine: AsyncEngine, match_id: str) -> int | None:
    """The match's stored version (None: no such match), in one small statement:
    on PostgreSQL the driver's own, one round trip with no transaction (a single
    statement is atomic), a fifth of a load's CPU."""
    if engine.dialect.name == "postgresql":
        rows = await raw.fetch(engine, _VERSION_NOW, match_id)
        return rows[0][0] if rows else None
    async with engine.connect() as conn:
        return (await conn.execute(select(matches.c.version).where(matches.c.id == match_id))).scalar()


async def states(engine: AsyncEngine, ids: list[str]) -> dict[str, tuple[int, Any]]:
    """{id: (version, state)}: a caller pairs a state only with a row of its version."""
    if not ids:
        return {}
    async with engine.connect() as conn:
        return {r.id: (r.version, r.state) for r in (await conn.execute(
            select(matches.c.id, matches.c.version, matches.c.state).where(matches.c.id.in_(ids)))).all()}

"""The reads behind a player's export (export.py), beside the match list's own
(store.page): one page of an account's finished matches, with their seats and
states in one statement, and when the match an export resumes after was made."""

from __future__ import annotations

from typing import Any

from sqlalchemy import and_, or_, select
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.models import matches, seats

from .store import _ROW_COLUMNS, _SEAT_COLUMNS, _seats_of


async def created_of(engine: AsyncEngine, match_id: str) -> Any:
    """When the match was made, or None if there is no such match."""
    async with engine.connect() as conn:
        return (await conn.execute(select(matches.c.created_at).where(matches.c.id == match_id))).scalar()


async def finished_of(
    engine: AsyncEngine, account_id: int, *, limit: int, after: tuple[Any, str] | None,
    since: Any = None, until: Any = None, variant: str | None = None, rated: bool | None = None,
) -> tuple[list[Any], dict[str, list[Any]], dict[str, Any]]:
    """One page of the finished matches an account sat at, newest first (keyset
    on created_at, id, as `page`), made within [since, until), with their seats
    and their states, in one statement: (rows, seats by match, state by match)."""
    q = select(*_ROW_COLUMNS, matches.c.state).where(
        matches.c.status == "finished",
        matches.c.id.in_(select(seats.c.match_id).where(seats.c.account_id == account_id)))
    if since is not None:
        q = q.where(matches.c.created_at >= since)
    if until is not None:
        q = q.where(matches.c.created_at < until)
    if variant:
        q = q.where(matches.c.variant == variant)
    if rated is not None:
        q = q.where(matches.c.rated.is_(rated))
    if after is not None:
        at, last_id = after
        q = q.where(or_(matches.c.created_at < at, and_(matches.c.created_at == at, matches.c.id < last_id)))
    chosen = q.order_by(matches.c.created_at.desc(), matches.c.id.desc()).limit(limit).subquery()
    joined = (select(chosen, *_SEAT_COLUMNS).select_from(_seats_of(chosen))
              .order_by(chosen.c.created_at.desc(), chosen.c.id.desc()))
    async with engine.connect() as conn:
        found = (await conn.execute(joined)).all()
    rows: list[Any] = []
    by_match: dict[str, list[Any]] = {}
    state_of: dict[str, Any] = {}
    for r in found:
        if r.id not in by_match:
            rows.append(r)
            by_match[r.id] = []
            state_of[r.id] = r.state
        if r.seat_colour is not None:
            by_match[r.id].append(r)
    return rows, by_match, state_of

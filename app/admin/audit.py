"""The audit log: every admin action (sign-in, its failures, sign-out,
moderation, export, accounts made or removed), newest first in the dashboard."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.admin_models import admin_audit

KINDS = ("sign_in", "sign_in_failure", "sign_out", "moderation", "export_match", "export_history",
         "user_added", "user_removed")


async def record(
    engine: AsyncEngine, kind: str, now: datetime, admin: str | None = None, match_id: str | None = None,
    address: str | None = None, **detail: Any,
) -> None:
    assert kind in KINDS, kind
    async with engine.begin() as conn:
        await conn.execute(admin_audit.insert().values(
            at=now, admin=admin[:64] if admin else None, kind=kind, match_id=match_id,
            address=(address or "")[:64] or None, detail=detail))


async def page(engine: AsyncEngine, kind: str | None, before: int | None, limit: int) -> list[dict[str, Any]]:
    """Entries newest first, `limit` of them, older than entry `before` if given."""
    q = select(admin_audit)
    if kind:
        q = q.where(admin_audit.c.kind == kind)
    if before is not None:
        q = q.where(admin_audit.c.id < before)
    q = q.order_by(admin_audit.c.id.desc()).limit(limit)
    async with engine.connect() as conn:
        rows = (await conn.execute(q)).all()
    return [{"id": r.id, "at": r.at.isoformat(), "admin": r.admin, "kind": r.kind, "match_id": r.match_id,
             "address": r.address, "detail": r.detail} for r in rows]

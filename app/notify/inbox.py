"""A player's inbox, read: a page of notices (newest first), the unread count,
marking read."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.notify_models import notifications
from app.kernel.moments import stamp

from .kinds import text

MOST_PAGE = 50


def shown(row: Any) -> dict[str, Any]:
    return {"id": row.id, "kind": row.kind, "text": text(row.kind, row.data), "data": row.data,
            "created_at": stamp(row.created_ms), "read": row.read_ms is not None}


class Inbox:
    def __init__(self, engine: AsyncEngine, clock: Callable[[], float] = time.time) -> None:
        self.engine, self.clock = engine, clock

    async def page(self, account_id: int, before: int | None = None, limit: int = 20) -> dict[str, Any]:
        """Notices older than the id `before` (None: the newest), `limit` of them;
        `next` is the `before` of the next page (None: this is the last)."""
        limit = max(1, min(limit, MOST_PAGE))
        query = select(notifications).where(notifications.c.account_id == account_id)
        if before is not None:
            query = query.where(notifications.c.id < before)
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query.order_by(notifications.c.id.desc()).limit(limit + 1))).all()
            unread = await _unread(conn, account_id)
        more = len(rows) > limit
        rows = rows[:limit]
        return {"notifications": [shown(r) for r in rows], "unread": unread,
                "next": rows[-1].id if more else None}

    async def latest(self, account_id: int) -> tuple[int, int]:
        """(the newest notice's id, 0 if none; how many are unread): what a live page needs."""
        async with self.engine.connect() as conn:
            newest = (await conn.execute(select(func.max(notifications.c.id)).where(
                notifications.c.account_id == account_id))).scalar()
            unread = await _unread(conn, account_id)
        return int(newest or 0), unread

    async def since(self, account_id: int, after: int, limit: int = MOST_PAGE) -> list[dict[str, Any]]:
        """Notices newer than the id `after`, oldest first."""
        async with self.engine.connect() as conn:
            rows = (await conn.execute(select(notifications).where(
                notifications.c.account_id == account_id, notifications.c.id > after)
                .order_by(notifications.c.id).limit(limit))).all()
        return [shown(r) for r in rows]

    async def mark_read(self, account_id: int, ids: Sequence[int] | None = None, up_to: int | None = None) -> int:
        """Mark read the notices `ids`, or all up to the id `up_to`, or (neither) all;
        answers the unread count after."""
        query = update(notifications).where(notifications.c.account_id == account_id,
                                            notifications.c.read_ms.is_(None))
        if ids is not None:
            query = query.where(notifications.c.id.in_(list(ids)))
        if up_to is not None:
            query = query.where(notifications.c.id <= up_to)
        async with self.engine.begin() as conn:
            await conn.execute(query.values(read_ms=int(self.clock() * 1000)))
            return await _unread(conn, account_id)


async def _unread(conn: Any, account_id: int) -> int:
    return int((await conn.execute(select(func.count()).select_from(notifications).where(
        notifications.c.account_id == account_id, notifications.c.read_ms.is_(None)))).scalar_one())

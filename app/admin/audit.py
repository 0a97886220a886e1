"""The audit log: every admin action (sign-in, its failures, sign-out,
moderation, export, the admin role given or taken, players' accounts closed or
reopened, chat lines hidden or their reports dismissed, accounts muted in
chat, an admin renamed when admins became accounts, arenas cancelled and
players removed from them), newest first in the
dashboard. The role's changes, closings and reopenings are written by the
account service (app/accounts/), in the transaction that makes them.

Failed sign-ins are written by `Batch`: a burst of them from one address
is a few inserts of many rows, not a transaction per try
on the event loop every other match shares; each try still answers only once
its own row is stored."""

from __future__ import annotations

import asyncio
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.admin_models import admin_audit

KINDS = ("sign_in", "sign_in_failure", "sign_out", "moderation", "export_match", "export_history",
         "user_added", "user_removed", "account_closed", "account_reopened",
         "chat_hidden", "chat_report_dismissed", "chat_muted",  # the match chat
         "admin_renamed",  # an admin's name made an account name (migration 0016)
         "fair_play_cleared", "rating_refunded",  # the fair-play queue
         "tournament_cancelled", "tournament_player_removed")  # the arenas (app/admin/tournaments.py)


async def record(
    engine: AsyncEngine, kind: str, now: datetime, admin: str | None = None, match_id: str | None = None,
    address: str | None = None, **detail: Any,
) -> None:
    async with engine.begin() as conn:
        await conn.execute(admin_audit.insert().values(_row(kind, now, admin, match_id, address, detail)))


def _row(kind: str, now: datetime, admin: str | None, match_id: str | None, address: str | None,
         detail: dict[str, Any]) -> dict[str, Any]:
    assert kind in KINDS, kind
    return {"at": now, "admin": admin[:64] if admin else None, "kind": kind, "match_id": match_id,
            "address": (address or "")[:64] or None, "detail": detail}


def _seen(stored: asyncio.Future[None]) -> None:
    """Mark a failed insert's error as seen, should every try waiting on it have gone."""
    if not stored.cancelled():
        stored.exception()


class Batch:
    """Entries written together: an entry waits while an insert runs, then goes
    in one insert with every entry that came meanwhile. `record` returns once
    the entry is stored (or raises what the insert raised)."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self._rows: list[dict[str, Any]] = []
        self._stored: asyncio.Future[None] | None = None  # the next insert's, shared by its rows
        self._writer: asyncio.Task[None] | None = None

    async def record(self, kind: str, now: datetime, admin: str | None = None, address: str | None = None,
                     **detail: Any) -> None:
        self._rows.append(_row(kind, now, admin, None, address, detail))
        if self._stored is None:
            self._stored = asyncio.get_running_loop().create_future()
            self._stored.add_done_callback(_seen)
        stored = self._stored
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write())
        await asyncio.shield(stored)  # a caller that goes away leaves the insert to the others

    async def _write(self) -> None:
        while self._rows:
            rows, stored = self._rows, self._stored
            self._rows, self._stored = [], None
            assert stored is not None
            try:
                async with self.engine.begin() as conn:
                    await conn.execute(admin_audit.insert(), rows)
            except asyncio.CancelledError:
                stored.cancel()
                raise
            except Exception as error:  # told to every try that waits on these rows
                stored.set_exception(error)
            else:
                stored.set_result(None)


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

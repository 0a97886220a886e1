"""The admins' arenas: the latest ones with their players, and what an admin
does to one: cancel it, or remove a player from it (app/tournaments/
moderation.py says what each does). Each needs a reason, and each is in the
audit log."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.tournament_models import tournament_players, tournaments
from app.kernel import text
from app.kernel.errors import BadRequest
from app.kernel.moments import ms_of, stamp
from app.tournaments import moderation

from . import audit

SHOWN = 100
MOST_REASON = 500


def _status(row: Any, now_ms: int) -> str:
    if row.cancelled_ms is not None:
        return "cancelled"
    if now_ms < row.starts_ms:
        return "created"
    return "started" if now_ms < row.ends_ms else "finished"


async def listing(engine: AsyncEngine, now: datetime) -> list[dict[str, Any]]:
    """The latest SHOWN arenas to start, each with its players (a removed one marked)."""
    now_ms = ms_of(now)
    async with engine.connect() as conn:
        rows = (await conn.execute(select(tournaments).order_by(tournaments.c.starts_ms.desc(), tournaments.c.id)
                                   .limit(SHOWN))).all()
        joined = (await conn.execute(
            select(tournament_players.c.tournament_id, tournament_players.c.name, tournament_players.c.removed_ms,
                   tournament_players.c.active)
            .where(tournament_players.c.tournament_id.in_([r.id for r in rows]))
            .order_by(func.lower(tournament_players.c.name)))).all() if rows else []
    players: dict[str, list[dict[str, Any]]] = {}
    for p in joined:
        players.setdefault(p.tournament_id, []).append(
            {"name": p.name, "removed": p.removed_ms is not None, "active": bool(p.active)})
    return [{"id": r.id, "name": r.name, "variant": r.variant, "time_control": r.time_control, "rated": r.rated,
             "status": _status(r, now_ms), "scheduled": r.schedule_key is not None,
             "starts_at": stamp(r.starts_ms), "ends_at": stamp(r.ends_ms),
             "cancelled_at": None if r.cancelled_ms is None else stamp(r.cancelled_ms),
             "players": players.get(r.id, [])} for r in rows]


def _reason(reason: object) -> str:
    kept = text.check("reason", reason, line_breaks=False) if isinstance(reason, str) else ""
    if not kept.strip() or len(kept) > MOST_REASON:
        raise BadRequest(f"reason: say why, in 1 to {MOST_REASON} characters", field="reason")
    return kept.strip()


async def cancel(engine: AsyncEngine, tournament_id: str, reason: object, admin: str, now: datetime,
                 address: str | None) -> None:
    why = _reason(reason)
    await moderation.cancel(engine, tournament_id, ms_of(now))
    await audit.record(engine, "tournament_cancelled", now, admin, address=address, tournament=tournament_id,
                       reason=why)


async def remove(engine: AsyncEngine, tournament_id: str, name: object, reason: object, admin: str, now: datetime,
                 address: str | None) -> str:
    """Remove the player; answers their name as they joined. A second removal changes nothing and is not audited."""
    why = _reason(reason)
    if not isinstance(name, str) or not name.strip():
        raise BadRequest("name: the player to remove", field="name")
    removed, changed = await moderation.remove(engine, tournament_id, name.strip(), ms_of(now))
    if changed:
        await audit.record(engine, "tournament_player_removed", now, admin, address=address,
                           tournament=tournament_id, player=removed, reason=why)
    return removed

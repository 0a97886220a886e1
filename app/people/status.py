"""Players' status at a glance (`GET /users/status`, `GET /bots/online`):
online (presence.py), playing (seated in a running match), and title.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import and_, exists, select
from sqlalchemy.ext.asyncio import AsyncEngine

from app.accounts.titles import title_of
from app.db.account_models import accounts
from app.db.models import matches, seats


@dataclass(frozen=True, slots=True)
class Status:
    id: int
    name: str
    online: bool
    playing: bool
    title: str | None


def _playing() -> Any:
    return exists().where(seats.c.account_id == accounts.c.id, seats.c.match_id == matches.c.id,
                          matches.c.status == "active")


def _online(since: datetime) -> Any:
    return and_(accounts.c.last_seen.is_not(None), accounts.c.last_seen >= since)


async def statuses(engine: AsyncEngine, names: Sequence[str], since: datetime) -> list[Status]:
    """Each open account named (any case), in the order asked; a name nobody has is left out."""
    wanted = [n.lower() for n in names]
    query = (select(accounts.c.id, accounts.c.name, accounts.c.name_lower, accounts.c.bot_at,
                    _online(since).label("online"), _playing().label("playing"))
             .where(accounts.c.name_lower.in_(wanted), accounts.c.closed_at.is_(None)))
    async with engine.connect() as conn:
        rows = {r.name_lower: r for r in (await conn.execute(query)).all()}
    out, told = [], set()
    for name in wanted:
        r = rows.get(name)
        if r is not None and name not in told:
            told.add(name)
            out.append(Status(r.id, r.name, bool(r.online), bool(r.playing), title_of(r.bot_at)))
    return out


async def bots_online(engine: AsyncEngine, since: datetime, most: int) -> list[Status]:
    """The bot accounts online now, the most recently seen first, at most `most`."""
    query = (select(accounts.c.id, accounts.c.name, accounts.c.bot_at, _playing().label("playing"))
             .where(accounts.c.bot_at.is_not(None), accounts.c.closed_at.is_(None), _online(since))
             .order_by(accounts.c.last_seen.desc(), accounts.c.id).limit(most))
    async with engine.connect() as conn:
        rows = (await conn.execute(query)).all()
    return [Status(r.id, r.name, True, bool(r.playing), title_of(r.bot_at)) for r in rows]

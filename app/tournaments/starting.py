"""An arena's start told to those who joined it before: found by the tick every
process runs, written once per player however many processes find it (the
notice's once-key), in the transaction that reads who joined.

Only arenas begun within `WITHIN_MS` are looked at: a server down when one began
tells of it when back if it is still young, and never of one begun long ago.
"""

from __future__ import annotations

from collections.abc import Collection

from sqlalchemy import and_, select
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.notify_models import notifications
from app.db.tournament_models import tournament_players as players
from app.db.tournament_models import tournaments
from app.notify import Notice, write
from app.notify.kinds import TOURNAMENT_STARTING

WITHIN_MS = 10 * 60_000


def once_key(tournament_id: str) -> str:
    return f"arena-start:{tournament_id}"


async def tell_started(engine: AsyncEngine, channels: Collection[str], now_ms: int) -> list[int]:
    """Notices for every player of an arena begun lately who was not told yet;
    answers the accounts told (to wake their pages)."""
    async with engine.connect() as conn:
        young = (await conn.execute(select(tournaments.c.id, tournaments.c.name).where(
            tournaments.c.starts_ms <= now_ms, tournaments.c.starts_ms > now_ms - WITHIN_MS,
            tournaments.c.ends_ms > now_ms))).all()
    told: list[int] = []
    for arena in young:
        key = once_key(arena.id)
        async with engine.begin() as conn:
            untold = (await conn.execute(select(players.c.account_id).where(
                players.c.tournament_id == arena.id, players.c.active.is_(True),
                ~select(notifications.c.id).where(and_(notifications.c.account_id == players.c.account_id,
                                                       notifications.c.once_key == key)).exists()))).scalars().all()
            if untold:
                told += await write(conn, [Notice(account, TOURNAMENT_STARTING,
                                                  {"tournament_id": arena.id, "name": arena.name}, once_key=key)
                                           for account in untold], channels, now_ms)
    return told

"""Whether a player is away from a match: no socket of theirs open to it on
any process. A push about a match is for a player who is not looking at it;
one who has its page open sees the move land there.

Every process writes the seats it holds sockets of to the database
(app/realtime/presence.py) and says so again at each heartbeat, so the
seat's row is the one place that knows, for all processes at once; the rule
read here is REST's own (app/matches/record.py `seat_here`): connected, and
said so within `ttl_ms` (a process that died stops saying it, and its
sockets count as gone that long after its last word).
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.models import seats
from app.kernel.moments import ms_of
from app.matches.record import seat_here


async def watching(engine: AsyncEngine, account_id: int, match_id: str, now_ms: int, ttl_ms: int) -> bool:
    """Whether the account holds a seat of the match with a socket open to it,
    on any process."""
    query = select(seats.c.connected, seats.c.last_seen).where(
        seats.c.match_id == match_id, seats.c.account_id == account_id, seats.c.bot.is_(None))
    async with engine.connect() as conn:
        rows = (await conn.execute(query)).all()
    return any(seat_here(None, row.connected, ms_of(row.last_seen), now_ms, ttl_ms) for row in rows)

"""The correspondence clock's alarm: once 80% of a move's time is used, the
player to move is told (inbox, push, email as they chose), once per move.

Every process ticks (app/main.py); each tick reads the running correspondence
clocks and writes a notice for each one past its alarm. The notice's once-key
is the match and its version (a move makes a new version), so however many
processes tick, the alarm of one move is written once; a move made meanwhile
changes the version and the next move gets an alarm of its own."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.models import matches, seats
from app.db.outage import OutageLog, database_unavailable
from app.notify import Channels, Notice, write
from app.notify.kinds import CLOCK_ALARM

log = logging.getLogger(__name__)
SHARE = 0.8  # of the move's time used: lichess's CorresAlarm rings at the same point


async def ring(engine: AsyncEngine, channels: Channels, now_ms: int) -> int:
    """One tick: the alarms due, written; answers how many were new."""
    query = select(matches.c.id, matches.c.version, matches.c.options, matches.c.white_ms, matches.c.black_ms,
                   matches.c.clock_running, matches.c.clock_since_ms).where(
        matches.c.status == "active", matches.c.clock_running.is_not(None), matches.c.clock_since_ms.is_not(None))
    async with engine.connect() as conn:
        due = [r for r in (await conn.execute(query)).all()
               if (r.options.get("time_control") or {}).get("type") == "correspondence"
               and now_ms - r.clock_since_ms >= SHARE * (r.white_ms if r.clock_running == "white" else r.black_ms)]
        if not due:
            return 0
        rows = (await conn.execute(select(seats.c.match_id, seats.c.colour, seats.c.account_id, seats.c.name,
                                          seats.c.bot).where(seats.c.match_id.in_([r.id for r in due])))).all()
    by_seat = {(s.match_id, s.colour): s for s in rows}
    notices = []
    for r in due:
        mover = by_seat.get((r.id, r.clock_running))
        opponent = by_seat.get((r.id, "black" if r.clock_running == "white" else "white"))
        if mover is None or mover.account_id is None or mover.bot is not None:
            continue
        stored = r.white_ms if r.clock_running == "white" else r.black_ms
        left_ms = max(0, stored - (now_ms - r.clock_since_ms))
        notices.append(Notice(mover.account_id, CLOCK_ALARM, {
            "match_id": r.id, "colour": r.clock_running, "opponent": opponent.name if opponent else None,
            "hours_left": round(left_ms / 3_600_000, 1)}, once_key=f"alarm:{r.id}:{r.version}"))
    if not notices:
        return 0
    async with engine.begin() as conn:
        told = await write(conn, notices, channels.names, now_ms)
    channels.told(told)
    return len(told)


async def ring_forever(engine: AsyncEngine, channels: Channels, every_seconds: float,
                       outage: OutageLog | None = None, clock: Callable[[], float] = time.time) -> None:
    """A tick every `every_seconds`, on every process, for as long as the app runs."""
    while True:
        began = time.monotonic()
        try:
            await ring(engine, channels, int(clock() * 1000))
            if outage is not None:
                outage.reached(began)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            if outage is not None and database_unavailable(exc):
                outage.failed("the clock's alarm", exc)
            else:
                log.exception("the clock's alarm's tick failed")
        await asyncio.sleep(every_seconds)

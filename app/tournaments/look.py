"""What the arenas' tick has to do now, asked in one statement.

Every process ticks every second, and most ticks find nothing to do: no arena
game ended, no arena began or ended, none to close nor to tell of, and the
running arenas (the schedule keeps several) with fewer than two players
waiting. Asked one by one, with each running arena's waiting players read in
full, that was half a dozen queries a second and more per running arena
(bench/capacity.py's profile). One statement tells which of them would find
anything; the tick asks only those. The database stays the truth: whatever
another process did is in what the next look reads.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import ColumnElement, false, func, literal, select, true
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.models import matches
from app.db.tournament_models import tournament_games as games
from app.db.tournament_models import tournament_players as players
from app.db.tournament_models import tournaments

from .podium import CLOSE_AFTER_MS
from .starting import WITHIN_MS


@dataclass(frozen=True, slots=True)
class Look:
    ended: bool  # an arena game still playing whose match is over (store.ended finds some)
    turned: bool  # an arena began or ended in (since, now] (people.turned finds some)
    closing: bool  # an arena over or cancelled whose podium is not kept (podium.to_close finds some)
    young: bool  # an arena begun within WITHIN_MS and running (starting.tell_started looks at it)
    running: dict[str, bool]  # each running arena: whether two of its players wait unpaired


async def look(engine: AsyncEngine, since_ms: int | None, now_ms: int) -> Look:
    """One statement: the flags, and a row per running arena (or one row of
    NULLs beside the flags when none runs). Each flag is the existence of a row
    that its own query would find, with that query's conditions; `running`'s
    second field is a superset of what pairing needs (two active players in no
    game of this arena), so an arena it leaves out has nobody to pair."""
    ended = (select(games.c.id).join(matches, matches.c.id == games.c.match_id)
             .where(games.c.status == "playing", matches.c.status == "finished").exists())
    turned: ColumnElement[bool]
    if since_ms is None:
        turned = false()
    else:
        turned = select(tournaments.c.id).where(
            ((tournaments.c.starts_ms > since_ms) & (tournaments.c.starts_ms <= now_ms))
            | ((tournaments.c.ends_ms > since_ms) & (tournaments.c.ends_ms <= now_ms))).exists()
    closing = select(tournaments.c.id).where(
        tournaments.c.closed_ms.is_(None),
        (tournaments.c.ends_ms <= now_ms - CLOSE_AFTER_MS) | tournaments.c.cancelled_ms.is_not(None)).exists()
    young = select(tournaments.c.id).where(
        tournaments.c.starts_ms <= now_ms, tournaments.c.starts_ms > now_ms - WITHIN_MS,
        tournaments.c.ends_ms > now_ms).exists()
    flags = select(ended.label("ended"), turned.label("turned"), closing.label("closing"),
                   young.label("young")).subquery("flags")
    waiting = (select(func.count()).select_from(players)
               .where(players.c.tournament_id == tournaments.c.id, players.c.active.is_(True),
                      players.c.match_id.is_(None))
               .correlate(tournaments).scalar_subquery())
    running = (select(tournaments.c.id, (waiting >= literal(2)).label("pairable"))
               .where(tournaments.c.starts_ms <= now_ms, tournaments.c.ends_ms > now_ms).subquery("running"))
    query = select(flags, running.c.id, running.c.pairable).select_from(flags.outerjoin(running, true()))
    async with engine.connect() as conn:
        rows = (await conn.execute(query)).all()
    first = rows[0]
    return Look(bool(first.ended), bool(first.turned), bool(first.closing), bool(first.young),
                {r.id: bool(r.pairable) for r in rows if r.id is not None})

"""An arena's end: its result kept once, the first three (the podium) written
for good, and their trophies read back for the players' profiles.

What counts, as on lichess: the standings freeze when the arena's clock runs
out. A game still under way then is played out as a match like any other (it
moves ratings when the arena was rated) but scores nothing in the arena, nor
does one that ends after an admin cancelled the arena: `counts` says which.
The podium is the standings' first three, by score then performance, among
players who finished a game in time (nobody is on the podium for a game never
played). A cancelled arena keeps no podium.

Any process may close an arena: the one whose update marks it closed (its
`closed_ms` empty before) writes the podium, in the same transaction, from the
standings read there, so it is written once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import or_, select, update
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.tournament_models import tournament_games as games
from app.db.tournament_models import tournament_players as players
from app.db.tournament_models import tournament_podiums as podiums
from app.db.tournament_models import tournaments
from app.kernel.moments import ms_of

from .standings import Standing

PLACES = 3
# An arena is closed this long after its end, not at once: a match that
# finished just in time may be committing its end as the clock runs out.
CLOSE_AFTER_MS = 5_000
TROPHIES_SHOWN = 50  # the latest a profile lists


@dataclass(frozen=True, slots=True)
class Place:
    place: int
    account_id: int
    name: str
    score: int
    games: int
    performance: int | None


def end_ms(ends_ms: int, cancelled_ms: int | None) -> int:
    """When an arena stopped counting: its end, or its cancel if sooner."""
    return ends_ms if cancelled_ms is None else min(ends_ms, cancelled_ms)


def counts(finished_at: datetime | None, ends_ms: int, cancelled_ms: int | None) -> bool:
    """Whether a game whose match finished at `finished_at` scores in its arena:
    it ended before the arena did (or before its cancel)."""
    return finished_at is not None and ms_of(finished_at) < end_ms(ends_ms, cancelled_ms)


def chosen(table: Sequence[Standing], ids: dict[str, int]) -> list[Place]:
    """The podium from the final standings (ranked already): the first three who played."""
    played = [s for s in table if s.games > 0]
    return [Place(i, ids[s.name], s.name, s.score, s.games, s.performance)
            for i, s in enumerate(played[:PLACES], start=1)]


async def to_close(engine: AsyncEngine, now_ms: int) -> list[str]:
    """Arenas over (CLOSE_AFTER_MS ago) or cancelled whose result is not kept yet."""
    async with engine.connect() as conn:
        return list((await conn.execute(select(tournaments.c.id).where(
            tournaments.c.closed_ms.is_(None),
            or_(tournaments.c.ends_ms <= now_ms - CLOSE_AFTER_MS, tournaments.c.cancelled_ms.is_not(None)))
            .order_by(tournaments.c.ends_ms))).scalars())


Rank = Callable[[Sequence[Any], Sequence[Any]], list[Standing]]


async def close(engine: AsyncEngine, tournament_id: str, now_ms: int, rank: Rank) -> bool:
    """Mark the arena closed and write its podium, once, whichever process gets
    here first (False: another did). `rank` makes the standings from the
    players' and the games' rows (the service's own ranking)."""
    async with engine.begin() as conn:
        done = await conn.execute(update(tournaments).where(
            tournaments.c.id == tournament_id, tournaments.c.closed_ms.is_(None)).values(closed_ms=now_ms))
        if done.rowcount != 1:
            return False
        cancelled = (await conn.execute(select(tournaments.c.cancelled_ms).where(
            tournaments.c.id == tournament_id))).scalar_one()
        if cancelled is not None:
            return True
        joined = (await conn.execute(select(players).where(players.c.tournament_id == tournament_id,
                                                           players.c.removed_ms.is_(None)))).all()
        played = (await conn.execute(select(games).where(games.c.tournament_id == tournament_id)
                                     .order_by(games.c.id.desc()))).all()
        ids = {p.name: p.account_id for p in joined}
        for place in chosen(rank(joined, played), ids):
            await conn.execute(podiums.insert().values(
                tournament_id=tournament_id, place=place.place, account_id=place.account_id, name=place.name,
                score=place.score, games=place.games, performance=place.performance, at_ms=now_ms))
    return True


async def podium_of(engine: AsyncEngine, tournament_id: str) -> list[dict[str, Any]]:
    async with engine.connect() as conn:
        rows = (await conn.execute(select(podiums).where(podiums.c.tournament_id == tournament_id)
                                   .order_by(podiums.c.place))).all()
    return [{"place": r.place, "name": r.name, "score": r.score, "games": r.games, "performance": r.performance}
            for r in rows]


async def trophies_of(engine: AsyncEngine, account_id: int) -> list[Any]:
    """The account's podium places, the latest first: (tournament, name, place, at_ms)."""
    query = (select(podiums.c.tournament_id, tournaments.c.name, podiums.c.place, podiums.c.at_ms)
             .select_from(podiums.join(tournaments, tournaments.c.id == podiums.c.tournament_id))
             .where(podiums.c.account_id == account_id)
             .order_by(podiums.c.at_ms.desc(), podiums.c.id.desc()).limit(TROPHIES_SHOWN))
    async with engine.connect() as conn:
        return list((await conn.execute(query)).all())

"""What an arena tells its players' live channels (app/people): the arenas a
person plays in, with their status now, the arena of each of their games, and
the nudges that wake their channels when any of it changes.

An arena begins and ends by the clock, with no commit to announce it: every
process's tick (service.tick) notices the moments that passed since its last
tick and rings its own channels' keys (`here`: each process hears the clock
itself, nothing needs the bus). A join and a pairing happen on one process and
are rung on every one.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.tournament_models import tournament_games as games
from app.db.tournament_models import tournament_players as players
from app.db.tournament_models import tournaments
from app.realtime.nudges import Nudges

KEPT_MS = 3_600_000  # an arena stays in its players' picture this long after its end
MOST_SHOWN = 20  # a person's arenas in the picture at once, the latest to start first


def person_key(account_id: int) -> str:
    """The key of a person's channel (the challenges wing names it: app/challenges/service.py)."""
    return f"person:a:{account_id}"


async def arenas_of(engine: AsyncEngine, account_id: int, now_ms: int) -> list[Any]:
    """The arenas the account joined (playing or paused) that are not long over, with its row's
    `active` and `player` (its name in the standings)."""
    query = (select(tournaments, players.c.active, players.c.name.label("player"))
             .select_from(tournaments.join(players, players.c.tournament_id == tournaments.c.id))
             .where(players.c.account_id == account_id, tournaments.c.ends_ms > now_ms - KEPT_MS)
             .order_by(tournaments.c.starts_ms.desc(), tournaments.c.id).limit(MOST_SHOWN))
    async with engine.connect() as conn:
        return list((await conn.execute(query)).all())


async def arena_of_games(engine: AsyncEngine, match_ids: Iterable[str]) -> dict[str, str]:
    """{match id: its arena} of those matches that are arena games."""
    wanted = sorted(set(match_ids))
    if not wanted:
        return {}
    async with engine.connect() as conn:
        rows = (await conn.execute(select(games.c.match_id, games.c.tournament_id)
                                   .where(games.c.match_id.in_(wanted)))).all()
    return {r.match_id: r.tournament_id for r in rows}


async def turned(engine: AsyncEngine, since_ms: int, now_ms: int) -> list[int]:
    """The accounts in arenas that began or ended in (since_ms, now_ms]."""
    moment = (((tournaments.c.starts_ms > since_ms) & (tournaments.c.starts_ms <= now_ms))
              | ((tournaments.c.ends_ms > since_ms) & (tournaments.c.ends_ms <= now_ms)))
    async with engine.connect() as conn:
        return sorted(set((await conn.execute(
            select(players.c.account_id).join(tournaments, tournaments.c.id == players.c.tournament_id)
            .where(moment))).scalars()))


def ring(nudges: Nudges | None, accounts: Iterable[int], everywhere: bool = True) -> None:
    """Wake the accounts' channels: on every process, or (`everywhere` False) here only."""
    if nudges is None:
        return
    for account in sorted(set(accounts)):
        key = person_key(account)
        if everywhere:
            nudges.nudge(key)
        else:
            nudges.here(key)

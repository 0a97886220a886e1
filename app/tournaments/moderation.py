"""An admin's hand on an arena: cancel it, or remove a player from it.

A cancel stops the arena at once: nobody is paired or joins again, and it
keeps no podium. Its games under way are left to be played out as the
matches they are (rated when the arena was): ending them would take a result
from two players who did nothing wrong, and their end scores nothing in the
cancelled arena (podium.counts).

A removed player's standing is dropped (their row stays, marked, so that they
cannot join again); a game of theirs under way is played out, and counts for
their opponent as any game does.
"""

from __future__ import annotations

from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.tournament_models import tournament_players as players
from app.db.tournament_models import tournaments

from . import store
from .errors import NoSuchPlayer, NoSuchTournament, TournamentOver


async def cancel(engine: AsyncEngine, tournament_id: str, now_ms: int) -> None:
    """Cancel an arena not over yet; refused (409) once it is over or cancelled."""
    async with engine.begin() as conn:
        row = (await conn.execute(select(tournaments.c.ends_ms, tournaments.c.cancelled_ms).where(
            tournaments.c.id == tournament_id))).first()
        if row is None:
            raise NoSuchTournament(f"no tournament {tournament_id!r}")
        done = await conn.execute(update(tournaments).where(
            tournaments.c.id == tournament_id, tournaments.c.cancelled_ms.is_(None),
            tournaments.c.ends_ms > now_ms).values(cancelled_ms=now_ms))
        if done.rowcount != 1:
            raise TournamentOver("the arena is over or cancelled already: there is nothing to cancel")


async def remove(engine: AsyncEngine, tournament_id: str, name: str, now_ms: int) -> tuple[str, bool]:
    """Remove the player named `name` (any case) from the arena: answers their
    name as they joined and whether this call removed them (False: already out)."""
    async with engine.begin() as conn:
        exists = (await conn.execute(select(tournaments.c.id).where(tournaments.c.id == tournament_id))).first()
        if exists is None:
            raise NoSuchTournament(f"no tournament {tournament_id!r}")
        row = (await conn.execute(select(players).where(
            players.c.tournament_id == tournament_id, func.lower(players.c.name) == name.lower()))).first()
        if row is None:
            raise NoSuchPlayer(f"nobody named {name!r} joined this tournament")
        await store.hold(conn, tournament_id, [row.account_id])
        done = await conn.execute(update(players).where(players.c.id == row.id, players.c.removed_ms.is_(None))
                                  .values(removed_ms=now_ms, active=False))
    return row.name, bool(done.rowcount)

"""What an arena game's page adds (templates/_arena_game.html): the way back to
its arena, and for its player while the arena runs and the game is on, the
Berserk button (POST /api/v1/tournaments/{id}/berserk: halve your clock before
your first action, for one more point if you win) until they have gone berserk
or played their first turn: a reloaded page offers no refusal-to-be."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.models import actions
from app.matches.berserk import OWN_TURNS
from app.tournaments import store
from app.tournaments.service import status_of


async def of(engine: AsyncEngine, match: Mapping[str, Any], viewer: str | None) -> dict[str, Any] | None:
    """The arena of `match` as its page shows it, or None: no arena's game."""
    tournament_id = await store.arena_of_game(engine, match["id"])
    if tournament_id is None:
        return None
    arena = await store.arena(engine, tournament_id)
    if arena is None:
        return None
    players = match.get("players") or {}
    colour = next((c for c in ("white", "black") if viewer is not None
                   and (players.get(c) or {}).get("name") == viewer), None)
    running = status_of(arena, int(time.time() * 1000)) == "started"
    offered = colour is not None and running and match.get("status") != "finished"
    return {"id": arena.id, "name": arena.name, "colour": colour,
            "berserk": offered and not await _past_berserk(engine, match["id"], colour)}


async def _past_berserk(engine: AsyncEngine, match_id: str, colour: str | None) -> bool:
    """Whether `colour` went berserk already or played a turn: the button is gone for good."""
    kind = actions.c.action["type"].as_string()
    async with engine.connect() as conn:
        found = (await conn.execute(select(actions.c.version).where(
            actions.c.match_id == match_id, actions.c.player == colour,
            kind.in_([*OWN_TURNS, "berserk"])).limit(1))).first()
    return found is not None


"""What an arena game's page adds (templates/_arena_game.html): the way back to
its arena, and for its player while the arena runs and the game is on, the
Berserk button (POST /api/v1/tournaments/{id}/berserk: halve your clock before
your first action, for one more point if you win)."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

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
    mine = viewer is not None and viewer in ((players.get(c) or {}).get("name") for c in ("white", "black"))
    running = status_of(arena, int(time.time() * 1000)) == "started"
    return {"id": arena.id, "name": arena.name,
            "berserk": mine and running and match.get("status") != "finished"}


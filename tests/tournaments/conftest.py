"""Helpers for the arenas' tests: accounts that join, games ended through the gateway."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select

from app.config import Settings
from app.db.tournament_models import tournament_games, tournament_players
from app.matches import Caller
from app.tournaments import Arenas, NewArena

from ..conftest import make_settings


@pytest.fixture
def settings(database_url: str) -> Settings:
    """No tick while a test runs: the test settles and pairs when it says (the
    tick's own test asks for one)."""
    return make_settings(database_url, tournament_tick_seconds=3600.0)


@pytest.fixture
def arenas(app: Any) -> Arenas:
    found: Arenas = app.state.parts.arenas
    return found


def arena(name: str = "Hourly Blitz", starts_in_seconds: int = 0, rated: bool = False,
          minutes: int = 60) -> NewArena:
    return NewArena(name, "standard", "5+3", minutes, starts_in_seconds, rated)


def caller(member: Any) -> Caller:
    return Caller(account_id=member.account.id, account=member.name)


async def playing(app: Any, tournament_id: str) -> dict[int, str | None]:
    """Each player's game now (None: free)."""
    async with app.state.parts.engine.connect() as conn:
        rows = (await conn.execute(select(tournament_players).where(
            tournament_players.c.tournament_id == tournament_id))).all()
    return {r.account_id: r.match_id for r in rows}


async def games(app: Any, tournament_id: str) -> list[Any]:
    async with app.state.parts.engine.connect() as conn:
        return list((await conn.execute(select(tournament_games).where(
            tournament_games.c.tournament_id == tournament_id).order_by(tournament_games.c.id))).all())

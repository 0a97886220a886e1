"""Every process's arena tick runs by itself (app/db/ticking.py, started
with the app): an arena that begins pairs those who joined before it, with no
call of anyone's."""

from __future__ import annotations

from typing import Any

import pytest

from app.config import Settings
from app.tournaments import Arenas

from ..api.members import member
from ..conftest import make_settings
from ..waiting import until
from .conftest import arena, games


@pytest.fixture
def settings(database_url: str) -> Settings:
    return make_settings(database_url, tournament_tick_seconds=0.05)


async def test_an_arena_that_begins_pairs_its_players_on_the_tick(app: Any) -> None:
    arenas: Arenas = app.state.parts.arenas
    ann, bob = await member(app, "TickAnn"), await member(app, "TickBob")
    tid = await arenas.create(ann.account.id, arena(starts_in_seconds=600))
    for m in (ann, bob):
        await arenas.join(tid, m.account.id, m.name)
    assert await games(app, tid) == []
    now = arenas.clock()
    arenas.clock = lambda: now + 601  # the arena's start has come
    await until(lambda: games(app, tid), "the tick to pair the arena that began")

"""An arena's end (app/tournaments/podium.py), on SQLite and PostgreSQL: the
standings freeze at the end (a game that ends later is played out and scores
nothing, as on lichess), the podium is kept once however many processes close
the arena, each player's games are read back, and the winner's trophy shows
on their profile, as JSON and as the page."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx
import pytest
from sqlalchemy import select

from app.config import Settings
from app.db.tournament_models import tournament_podiums, tournaments
from app.main import create_app
from app.tournaments import Arenas, podium
from app.tournaments.service import standings

from ..api.members import Member, member
from .conftest import arena, caller, games

BASE = "/api/v1/tournaments"


class Clock:
    """One moved clock for the arenas and the match service of each app given."""

    def __init__(self, *apps: Any) -> None:
        self.now: float = apps[0].state.parts.arenas.clock()
        for app in apps:
            app.state.parts.arenas.clock = self.read
            app.state.parts.service.clock = self.read

    def read(self) -> float:
        return self.now


async def _three_games(app: Any, ann: Member, bob: Member, cy: Member, clock: Clock) -> str:
    """Ann beats Bob, Bob beats Cy, both in time; then Ann and Cy are paired
    (each avoids the last opponent) and that game is left running."""
    arenas: Arenas = app.state.parts.arenas
    gateway = app.state.parts.gateway
    tid = await arenas.create(ann.account.id, arena(minutes=1))
    for m in (ann, bob, cy):
        await arenas.join(tid, m.account.id, m.name)
    [first] = await games(app, tid)
    assert {first.white, first.black} == {ann.account.id, bob.account.id}
    clock.now += 5
    await gateway.resign(first.match_id, caller(bob))
    await arenas.settled()
    second = (await games(app, tid))[-1]
    assert {second.white, second.black} == {bob.account.id, cy.account.id}
    clock.now += 5
    await gateway.resign(second.match_id, caller(cy))
    await arenas.settled()
    third = (await games(app, tid))[-1]
    assert {third.white, third.black} == {ann.account.id, cy.account.id} and third.status == "playing"
    return tid


async def test_the_end_freezes_the_standings_and_keeps_the_podium_and_the_trophy(
        app: Any, client: httpx.AsyncClient) -> None:
    arenas: Arenas = app.state.parts.arenas
    ann, bob, cy = [await member(app, n) for n in ("EndAnn", "EndBob", "EndCy")]
    clock = Clock(app)
    tid = await _three_games(app, ann, bob, cy, clock)
    running = await client.get(f"{BASE}/{tid}")
    assert "podium" not in running.json()
    clock.now += 52  # past the end (T+62): the game of Ann and Cy is still under way
    third = (await games(app, tid))[-1]
    await app.state.parts.gateway.resign(third.match_id, caller(ann))
    await arenas.settled()
    late = (await games(app, tid))[-1]
    assert late.status == "finished" and late.result is not None
    assert late.counted is False and (late.white_points, late.black_points) == (None, None)
    await arenas.tick()  # closed only a few seconds after the end
    body = (await client.get(f"{BASE}/{tid}")).json()
    assert body["status"] == "finished" and body["podium"] == []
    table = [(s["name"], s["score"], s["games"], s["performance"]) for s in body["standings"]]
    assert table == [(ann.name, 2, 1, 2000), (bob.name, 2, 2, 1500), (cy.name, 0, 1, 1000)]  # Cy's late win: nothing
    clock.now += podium.CLOSE_AFTER_MS / 1000
    await arenas.tick()
    body = (await client.get(f"{BASE}/{tid}")).json()
    assert body["podium"] == [
        {"place": 1, "name": ann.name, "score": 2, "games": 1, "performance": 2000},
        {"place": 2, "name": bob.name, "score": 2, "games": 2, "performance": 1500},
        {"place": 3, "name": cy.name, "score": 0, "games": 1, "performance": 1000}]
    # The winner's trophy, on the user API and the profile page.
    user = (await client.get(f"/api/v1/users/{ann.name}")).json()
    [trophy] = user["trophies"]
    assert {k: trophy[k] for k in ("tournament", "name", "place")} == {"tournament": tid, "name": "Hourly Blitz",
                                                                       "place": 1}
    assert trophy["at"].endswith("Z")
    assert (await client.get(f"/api/v1/users/{bob.name}")).json()["trophies"][0]["place"] == 2
    page = (await client.get(f"/@/{ann.name}")).text
    assert "Trophies" in page and "Winner" in page and "Hourly Blitz" in page
    other = await member(app, "EndDee")
    assert (await client.get(f"/api/v1/users/{other.name}")).json()["trophies"] == []
    assert "Trophies" not in (await client.get(f"/@/{other.name}")).text


async def test_each_players_games_are_read_back_with_their_points(app: Any, client: httpx.AsyncClient) -> None:
    ann, bob, cy = [await member(app, n) for n in ("SheetAnn", "SheetBob", "SheetCy")]
    clock = Clock(app)
    tid = await _three_games(app, ann, bob, cy, clock)
    r = await client.get(f"{BASE}/{tid}/players/{bob.name.lower()}")
    assert r.status_code == 200, r.text
    body = r.json()
    assert {k: body[k] for k in ("name", "rank", "score", "games", "streak", "performance")} == {
        "name": bob.name, "rank": 2, "score": 2, "games": 2, "streak": 1, "performance": 1500}
    newest, oldest = body["pairings"]
    assert (newest["opponent"], newest["result"], newest["points"], newest["counted"]) == (cy.name, "win", 2, True)
    assert (oldest["opponent"], oldest["result"], oldest["points"], oldest["opponent_rating"]) == (
        ann.name, "loss", 0, 1500)
    playing = (await client.get(f"{BASE}/{tid}/players/{cy.name}")).json()["pairings"][0]
    assert playing["status"] == "playing" and playing["result"] is None and playing["points"] is None
    r = await client.get(f"{BASE}/{tid}/players/Nobody")
    assert r.status_code == 404 and r.json()["error"] == "no_such_player"
    r = await client.get(f"{BASE}/nosuch/players/{bob.name}")
    assert r.status_code == 404 and r.json()["error"] == "no_such_tournament"
    assert (await client.get(f"{BASE}/{tid}/players/x")).status_code == 400  # not a name


@pytest.fixture
async def second(settings: Settings) -> AsyncIterator[Any]:
    """Another app on the same database: another process."""
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        yield app


async def test_two_processes_closing_one_arena_keep_one_podium(app: Any, second: Any) -> None:
    ann, bob, cy = [await member(app, n) for n in ("TwoAnn", "TwoBob", "TwoCy")]
    clock = Clock(app, second)
    tid = await _three_games(app, ann, bob, cy, clock)
    clock.now += 60 + podium.CLOSE_AFTER_MS / 1000
    one, two = app.state.parts.arenas, second.state.parts.arenas
    now = one.now_ms()
    rank: Callable[..., Any] = standings
    closed = await asyncio.gather(podium.close(one.engine, tid, now, rank), podium.close(two.engine, tid, now, rank),
                                  one.tick(), two.tick())
    assert sorted(closed[:2]) == [False, True]
    async with one.engine.connect() as conn:
        places = (await conn.execute(select(tournament_podiums.c.place, tournament_podiums.c.account_id).where(
            tournament_podiums.c.tournament_id == tid).order_by(tournament_podiums.c.place))).all()
        assert (await conn.execute(select(tournaments.c.closed_ms).where(tournaments.c.id == tid))).scalar_one()
    assert [tuple(p) for p in places] == [(1, ann.account.id), (2, bob.account.id), (3, cy.account.id)]
    assert await podium.to_close(one.engine, now) == []

"""An admin's cancel of an arena and removal of a player
(app/tournaments/moderation.py), on SQLite and PostgreSQL: what each does to
the pairing, the games under way, the standings and the podium."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from sqlalchemy import select

from app.db.models import matches
from app.tournaments import Arenas, moderation, podium
from app.tournaments.errors import NoSuchPlayer, NoSuchTournament, Removed, TournamentOver

from ..api.members import member
from .conftest import arena, caller, games, playing

BASE = "/api/v1/tournaments"


async def test_a_cancelled_arena_pairs_nobody_and_its_running_game_ends_as_a_match_scoring_nothing(
        app: Any, arenas: Arenas, client: httpx.AsyncClient) -> None:
    ann, bob, cy = [await member(app, n) for n in ("CanAnn", "CanBob", "CanCy")]
    tid = await arenas.create(ann.account.id, arena())
    for m in (ann, bob):
        await arenas.join(tid, m.account.id, m.name)
    [game] = await games(app, tid)
    await moderation.cancel(arenas.engine, tid, arenas.now_ms())
    body = (await client.get(f"{BASE}/{tid}")).json()
    assert body["status"] == "finished" and body["cancelled"] is True
    with pytest.raises(TournamentOver):
        await arenas.join(tid, cy.account.id, cy.name)
    with pytest.raises(TournamentOver):
        await moderation.cancel(arenas.engine, tid, arenas.now_ms())  # once only
    async with arenas.engine.connect() as conn:
        status = (await conn.execute(select(matches.c.status).where(matches.c.id == game.match_id))).scalar_one()
    assert status == "active"  # the game is left to be played out
    await app.state.parts.gateway.resign(game.match_id, caller(bob))
    await arenas.settled()
    [done] = await games(app, tid)
    assert done.status == "finished" and done.counted is False and done.white_points is None
    assert await playing(app, tid) == {ann.account.id: None, bob.account.id: None}  # free, not paired again
    await arenas.tick()
    body = (await client.get(f"{BASE}/{tid}")).json()
    assert body["podium"] == [] and all(s["score"] == 0 for s in body["standings"])
    assert await podium.to_close(arenas.engine, arenas.now_ms()) == []  # closed, with no podium


async def test_an_arena_over_cannot_be_cancelled_nor_an_unknown_one(app: Any, arenas: Arenas) -> None:
    ann = await member(app, "CanDee")
    tid = await arenas.create(ann.account.id, arena(minutes=1))
    with pytest.raises(NoSuchTournament):
        await moderation.cancel(arenas.engine, "nosuch", arenas.now_ms())
    with pytest.raises(TournamentOver):
        await moderation.cancel(arenas.engine, tid, arenas.now_ms() + 61_000)


async def test_a_removed_player_leaves_the_standings_cannot_rejoin_and_their_game_counts_for_the_opponent(
        app: Any, arenas: Arenas, client: httpx.AsyncClient) -> None:
    ann, bob, cy = [await member(app, n) for n in ("RemAnn", "RemBob", "RemCy")]
    tid = await arenas.create(ann.account.id, arena())
    for m in (ann, bob, cy):
        await arenas.join(tid, m.account.id, m.name)
    [game] = await games(app, tid)
    assert {game.white, game.black} == {ann.account.id, bob.account.id}
    name, changed = await moderation.remove(arenas.engine, tid, ann.name.upper(), arenas.now_ms())
    assert (name, changed) == (ann.name, True)
    assert await moderation.remove(arenas.engine, tid, ann.name, arenas.now_ms()) == (ann.name, False)
    assert {s["name"] for s in (await arenas.view(tid))["standings"]} == {bob.name, cy.name}
    with pytest.raises(Removed):
        await arenas.join(tid, ann.account.id, ann.name)
    r = await client.post(f"{BASE}/{tid}/join", headers=ann.token())
    assert r.status_code == 403 and r.json()["error"] == "removed_from_tournament", r.text
    r = await client.get(f"{BASE}/{tid}/players/{ann.name}")
    assert r.status_code == 404 and r.json()["error"] == "no_such_player"
    await app.state.parts.gateway.resign(game.match_id, caller(ann))  # played out: Bob's win counts
    await arenas.settled()
    table = {s["name"]: s for s in (await arenas.view(tid))["standings"]}
    assert table[bob.name]["score"] == 2 and ann.name not in table
    again = (await games(app, tid))[-1]
    assert {again.white, again.black} == {bob.account.id, cy.account.id}  # Ann is never paired again
    with pytest.raises(NoSuchPlayer):
        await moderation.remove(arenas.engine, tid, "Nobody", arenas.now_ms())
    with pytest.raises(NoSuchTournament):
        await moderation.remove(arenas.engine, "nosuch", ann.name, arenas.now_ms())

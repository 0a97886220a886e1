"""An arena kept in the database (app/tournaments/service.py), on SQLite and
PostgreSQL: joining pairs at once, a game's end scores and pairs again, a
withdrawal pauses, and the kept standings always equal a recomputation."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select

from app.db.models import matches
from app.kernel.errors import BadRequest
from app.tournaments import Arenas, NewArena, store
from app.tournaments.errors import NoSuchTournament, NotInTournament, TournamentOver
from app.tournaments.service import recomputed

from ..api.members import member
from .conftest import arena, caller, games, playing


async def test_two_who_join_a_running_arena_are_paired_at_once_and_a_third_waits(app: Any, arenas: Arenas) -> None:
    ann, bob, cy = [await member(app, n) for n in ("Ann1", "Bob1", "Cy1")]
    tid = await arenas.create(ann.account.id, arena())
    await arenas.join(tid, ann.account.id, ann.name)
    assert (await playing(app, tid))[ann.account.id] is None  # alone: waits
    await arenas.join(tid, bob.account.id, bob.name)
    now = await playing(app, tid)
    assert now[ann.account.id] is not None and now[ann.account.id] == now[bob.account.id]
    await arenas.join(tid, cy.account.id, cy.name)
    assert (await playing(app, tid))[cy.account.id] is None
    [game] = await games(app, tid)
    assert {game.white, game.black} == {ann.account.id, bob.account.id} and game.status == "playing"
    async with app.state.parts.engine.connect() as conn:
        match = (await conn.execute(select(matches).where(matches.c.id == game.match_id))).one()
    assert match.status == "active" and match.options["time_control"] == {"type": "realtime", "minutes": 5,
                                                                          "increment": 3}


async def test_a_game_ended_scores_its_players_and_pairs_them_again_with_another(app: Any, arenas: Arenas) -> None:
    ann, bob, cy = [await member(app, n) for n in ("Ann2", "Bob2", "Cy2")]
    tid = await arenas.create(ann.account.id, arena())
    for m in (ann, bob, cy):
        await arenas.join(tid, m.account.id, m.name)
    [first] = await games(app, tid)
    loser = ann if first.white == ann.account.id or first.black == ann.account.id else bob
    await app.state.parts.gateway.resign(first.match_id, caller(loser))
    await arenas.settled()  # heard from the match service's commit on this process
    table = {s["name"]: s for s in (await arenas.view(tid))["standings"]}
    winner = bob if loser is ann else ann
    assert table[winner.name]["score"] == 2 and table[loser.name]["score"] == 0
    assert table[winner.name]["games"] == table[loser.name]["games"] == 1
    first_done, second = await games(app, tid)
    assert first_done.status == "finished" and first_done.result in ("white", "black")
    assert cy.account.id in (second.white, second.black)  # not the two who just met
    assert {second.white, second.black} != {ann.account.id, bob.account.id}


async def test_a_draw_in_few_actions_scores_nothing_and_an_abort_counts_no_game(app: Any, arenas: Arenas) -> None:
    ann, bob = await member(app, "Ann3"), await member(app, "Bob3")
    tid = await arenas.create(ann.account.id, arena())
    for m in (ann, bob):
        await arenas.join(tid, m.account.id, m.name)
    gateway = app.state.parts.gateway
    [one] = await games(app, tid)
    await gateway.draw(one.match_id, caller(ann), True)
    await gateway.draw(one.match_id, caller(bob), True)
    await arenas.settled()
    one, two = await games(app, tid)
    assert one.result == "draw" and one.actions == 0 and (one.white_points, one.black_points) == (0, 0)
    await gateway.abort(two.match_id, caller(ann))
    await arenas.settled()
    done = await games(app, tid)
    assert done[1].result == "aborted" and done[1].white_points is None
    table = {s["name"]: s for s in (await arenas.view(tid))["standings"]}
    assert table[ann.name]["games"] == 1 and table[ann.name]["score"] == 0  # the abort is no game
    assert len(done) == 3 and done[2].status == "playing"  # and they play again


async def test_a_withdrawal_pauses_the_player_until_they_join_again(app: Any, arenas: Arenas) -> None:
    ann, bob = await member(app, "Ann4"), await member(app, "Bob4")
    tid = await arenas.create(ann.account.id, arena())
    for m in (ann, bob):
        await arenas.join(tid, m.account.id, m.name)
    [one] = await games(app, tid)
    await arenas.withdraw(tid, ann.account.id)  # the game under way is played out
    await app.state.parts.gateway.resign(one.match_id, caller(bob))
    await arenas.settled()
    assert len(await games(app, tid)) == 1 and await playing(app, tid) == {ann.account.id: None, bob.account.id: None}
    await arenas.join(tid, ann.account.id, ann.name)
    assert len(await games(app, tid)) == 2
    table = {s["name"]: s for s in (await arenas.view(tid))["standings"]}
    assert table[ann.name]["score"] == 2  # the score kept through the pause


async def test_an_arena_that_has_not_begun_pairs_nobody_until_it_does(app: Any, arenas: Arenas) -> None:
    ann, bob = await member(app, "Ann5"), await member(app, "Bob5")
    tid = await arenas.create(ann.account.id, arena(starts_in_seconds=600))
    for m in (ann, bob):
        await arenas.join(tid, m.account.id, m.name)
    assert (await arenas.view(tid))["status"] == "created" and await games(app, tid) == []
    now = arenas.clock()
    arenas.clock = lambda: now + 601
    await arenas.tick()
    assert (await arenas.view(tid))["status"] == "started" and len(await games(app, tid)) == 1


async def test_an_arena_over_is_joined_by_nobody_and_pairs_nobody(app: Any, arenas: Arenas) -> None:
    ann, bob = await member(app, "Ann6"), await member(app, "Bob6")
    tid = await arenas.create(ann.account.id, arena(minutes=1))
    await arenas.join(tid, ann.account.id, ann.name)
    now = arenas.clock()
    arenas.clock = lambda: now + 61
    with pytest.raises(TournamentOver):
        await arenas.join(tid, bob.account.id, bob.name)
    assert (await arenas.view(tid))["status"] == "finished"


async def test_unknown_arenas_and_players_are_refused_by_name(app: Any, arenas: Arenas) -> None:
    ann = await member(app, "Ann7")
    with pytest.raises(NoSuchTournament):
        await arenas.join("nope", ann.account.id, ann.name)
    tid = await arenas.create(ann.account.id, arena())
    with pytest.raises(NotInTournament):
        await arenas.withdraw(tid, ann.account.id)
    with pytest.raises(BadRequest, match="time_control"):
        await arenas.create(ann.account.id, NewArena("Blitz", "standard", "5 minutes", 60, 0, False))


async def test_the_kept_standings_equal_a_recomputation_after_many_endings(app: Any, arenas: Arenas) -> None:
    people = [await member(app, f"Sheet{i}") for i in range(6)]
    by_id = {m.account.id: m for m in people}
    tid = await arenas.create(people[0].account.id, arena())
    for m in people:
        await arenas.join(tid, m.account.id, m.name)
    gateway = app.state.parts.gateway
    for turn in range(12):
        running = [g for g in await games(app, tid) if g.status == "playing"]
        assert running, "somebody is always paired: six players, none withdrawn"
        g = running[turn % len(running)]
        how = turn % 3
        if how == 0:
            await gateway.resign(g.match_id, caller(by_id[g.white]))
        elif how == 1:
            await gateway.resign(g.match_id, caller(by_id[g.black]))
        else:
            await gateway.draw(g.match_id, caller(by_id[g.white]), True)
            await gateway.draw(g.match_id, caller(by_id[g.black]), True)
        await arenas.settled()
    joined = await store.players_of(app.state.parts.engine, tid)
    again = recomputed(joined, await store.games_of(app.state.parts.engine, tid))
    for p in joined:
        assert (p.score, p.games, p.streak) == (again[p.account_id].score, again[p.account_id].games,
                                                again[p.account_id].streak)
    assert sum(p.games for p in joined) == 24


async def test_a_player_in_a_game_of_one_arena_is_not_paired_in_another(app: Any, arenas: Arenas) -> None:
    ann, bob, cy, dee = [await member(app, n) for n in ("Ann8", "Bob8", "Cy8", "Dee8")]
    first = await arenas.create(ann.account.id, arena("First"))
    other = await arenas.create(ann.account.id, arena("Other"))
    for m in (ann, bob):
        await arenas.join(first, m.account.id, m.name)
    await arenas.join(other, ann.account.id, ann.name)
    await arenas.join(other, cy.account.id, cy.name)
    assert await games(app, other) == []  # Ann plays in the first arena
    await arenas.join(other, dee.account.id, dee.name)
    [game] = await games(app, other)
    assert {game.white, game.black} == {cy.account.id, dee.account.id}


async def test_the_tick_writes_an_ending_this_process_did_not_hear(app: Any, arenas: Arenas) -> None:
    ann, bob, cy = [await member(app, n) for n in ("Ann9", "Bob9", "Cy9")]
    tid = await arenas.create(ann.account.id, arena())
    for m in (ann, bob, cy):
        await arenas.join(tid, m.account.id, m.name)

    async def deaf(match_id: str, updates: Any) -> None:
        """As if the game had ended on another process."""

    arenas.publish = deaf  # type: ignore[method-assign]
    [game] = await games(app, tid)
    await app.state.parts.gateway.resign(game.match_id, caller(ann if ann.account.id == game.white else bob))
    assert [g.status for g in await games(app, tid)] == ["playing"]
    await arenas.tick()
    done, again = await games(app, tid)
    assert done.status == "finished" and again.status == "playing"
    assert cy.account.id in (again.white, again.black)


async def test_a_rated_arena_makes_rated_matches(app: Any, arenas: Arenas) -> None:
    ann, bob = await member(app, "Ann10"), await member(app, "Bob10")
    tid = await arenas.create(ann.account.id, arena(rated=True))
    for m in (ann, bob):
        await arenas.join(tid, m.account.id, m.name)
    [game] = await games(app, tid)
    async with app.state.parts.engine.connect() as conn:
        assert (await conn.execute(select(matches.c.rated).where(matches.c.id == game.match_id))).scalar_one()

"""Whole Swiss events kept in the database (app/tournaments/swiss), on SQLite
and PostgreSQL: players join before the start and late, one withdraws, odd
counts give byes, games end by a win, a draw, a resignation, a flag and an
abort; the rounds wait for their interval and their games; the standings
always agree with a recomputation from the matches."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from app.tournaments.errors import NoSuchTournament, NotInTournament, TournamentOver
from app.tournaments.swiss import trf

from ..api.members import member
from .swiss_helpers import end_by, event, games, recomputed, rounds_paired, swisses


async def _settle(app: Any) -> None:
    await swisses(app).settled()  # the ends heard from the match service's commits
    await swisses(app).tick()  # and whatever the tick finds


async def _agrees(app: Any, tid: str) -> dict[str, dict[str, Any]]:
    """The standings shown equal the scores and Buchholz made again from the matches."""
    view = await swisses(app).view(tid)
    score, buchholz = await recomputed(app, tid)
    names = {p.name: p.account_id for p in await _players(app, tid)}
    table = {s["name"]: s for s in view["standings"]}
    assert {n: s["score"] for n, s in table.items()} == {n: score.get(names[n], 0) for n in table}
    assert {n: s["buchholz"] for n, s in table.items()} == {n: buchholz.get(names[n], 0) for n in table}
    ranked = [(-s["score"], -s["buchholz"], -s["sonneborn_berger"]) for s in view["standings"]]
    assert ranked == sorted(ranked)
    return table


async def _players(app: Any, tid: str) -> list[Any]:
    from app.tournaments.swiss import store

    return await store.players_of(app.state.parts.engine, tid)


async def _play_round(app: Any, tid: str, number: int, by_id: dict[int, Any], endings: list[str]) -> list[Any]:
    made = [g for g in await games(app, tid) if g.round == number and g.black is not None]
    assert len(made) == len(endings)
    for how, g in zip(endings, made, strict=True):
        assert g.status == "playing" and g.match_id
        await end_by(app, how, g, by_id[g.white], by_id[g.black])
    await _settle(app)
    return made


async def test_a_whole_swiss_event_with_late_joiners_a_withdrawal_byes_and_every_ending(app: Any) -> None:
    sw = swisses(app)
    now = sw.clock()
    sw.clock = lambda: now
    people = [await member(app, f"Swiss{i}") for i in range(7)]
    by_id = {m.account.id: m for m in people}
    tid = await sw.create(people[0].account.id, event(rounds=3, interval=120, starts_in_seconds=60))
    for m in people[:5]:
        await sw.join(tid, m.account.id, m.name)
    await sw.tick()
    assert await games(app, tid) == [] and (await sw.view(tid))["status"] == "created"

    # Round 1 at the start: five players, so two games and a bye, scoring a win.
    sw.clock = lambda: now + 60
    await sw.tick()
    await sw.tick()  # a second tick pairs nothing more
    one = await games(app, tid)
    assert await rounds_paired(app, tid) == [1]
    assert len(one) == 3 and sum(g.black is None for g in one) == 1
    bye = next(g for g in one if g.black is None)
    assert bye.status == "finished" and bye.result == "bye" and bye.match_id is None
    for g in one:
        if g.black is not None:  # each match has the colours the pairing gave
            state = await app.state.parts.service.reads.get(g.match_id)
            assert (state["players"]["white"]["name"], state["players"]["black"]["name"]) == (
                by_id[g.white].name, by_id[g.black].name)
    view = await sw.view(tid)
    assert (view["kind"], view["status"], view["rounds"], view["round"]) == ("swiss", "started", 3, 1)
    assert "ends_at" not in view
    assert {s["name"]: s["score"] for s in view["standings"]}[by_id[bye.white].name] == 1.0

    await _play_round(app, tid, 1, by_id, ["white resigns", "draw"])
    await _agrees(app, tid)
    assert await rounds_paired(app, tid) == [1]  # every game is over, but the interval has not passed
    for m in people[5:]:  # two join late: round 1 missed, scoring nothing
        await sw.join(tid, m.account.id, m.name)

    # Round 2: seven players, a bye again, to someone who has not had one.
    sw.clock = lambda: now + 60 + 120
    await sw.tick()
    two = [g for g in await games(app, tid) if g.round == 2]
    assert len(two) == 4 and [g.black is None for g in two].count(True) == 1
    assert next(g for g in two if g.black is None).white != bye.white
    quitter = next(g for g in two if g.black is not None).white
    await sw.withdraw(tid, quitter)  # plays this game out, and no more
    sw.clock = lambda: now + 60 + 120 + 600
    await sw.tick()
    assert await rounds_paired(app, tid) == [1, 2]  # the interval has passed, but games are still on
    await _play_round(app, tid, 2, by_id, ["abort", "black resigns", "flag"])
    await _agrees(app, tid)

    # Round 3: six still in, no bye; the one who withdrew is not paired.
    assert await rounds_paired(app, tid) == [1, 2, 3]  # the interval had passed: paired as the last game ended
    three = [g for g in await games(app, tid) if g.round == 3]
    assert len(three) == 3 and all(g.black is not None for g in three)
    assert quitter not in {k for g in three for k in (g.white, g.black)}
    with pytest.raises(TournamentOver):
        await sw.join(tid, people[0].account.id, people[0].name)  # the last round is paired
    await _play_round(app, tid, 3, by_id, ["draw", "white resigns", "black resigns"])

    sw.clock = lambda: now + 60 + 120 + 600 + 120
    await sw.tick()
    view = await sw.view(tid)
    assert view["status"] == "finished" and view["round"] == 3 and view["next_round_at"] is None
    table = await _agrees(app, tid)
    assert table[by_id[quitter].name]["withdrawn"] is True
    # round 1: two games and a bye; round 2: two decided, an abort (nothing) and a bye; round 3: three games
    assert sum(s["score"] for s in table.values()) == 3 + 3 + 3
    everyone = await games(app, tid)
    late = {m.account.id for m in people[5:]}
    assert not late & {k for g in everyone if g.round == 1 for k in (g.white, g.black)}
    met = Counter(frozenset((g.white, g.black)) for g in everyone if g.black is not None and g.result != "aborted")
    assert max(met.values()) == 1, "a repeat pairing"
    assert Counter(g.white for g in everyone if g.black is None).most_common(1)[0][1] == 1, "two byes"
    assert {g.result for g in everyone} == {"white", "black", "draw", "aborted", "bye"}

    # The TRF reads back: seven players, three rounds, each one's points as shown.
    parsed = trf.read(await sw.trf(tid))
    assert len(parsed.player_sections) == 7 and parsed.x_section.number_of_rounds == 3
    assert sorted(p.points_times_ten for p in parsed.player_sections) == sorted(
        round(s["score"] * 10) for s in table.values())
    assert all(len(p.results) == 3 for p in parsed.player_sections)


async def test_refusals_of_joining_and_withdrawing(app: Any) -> None:
    sw = swisses(app)
    ann, bob = await member(app, "SwissAnn"), await member(app, "SwissBob")
    tid = await sw.create(ann.account.id, event(rounds=1, starts_in_seconds=0))
    with pytest.raises(NoSuchTournament):
        await sw.join("nope", ann.account.id, ann.name)
    with pytest.raises(NotInTournament):
        await sw.withdraw(tid, bob.account.id)
    await sw.join(tid, ann.account.id, ann.name)
    await sw.tick()  # one player at the start: nobody to pair, the event ends
    view = await sw.view(tid)
    assert view["status"] == "finished" and view["round"] == 0 and await games(app, tid) == []
    with pytest.raises(TournamentOver):
        await sw.join(tid, bob.account.id, bob.name)


async def test_a_correspondence_swiss_makes_correspondence_matches(app: Any) -> None:
    sw = swisses(app)
    ann, bob = await member(app, "SwissCorA"), await member(app, "SwissCorB")
    tid = await sw.create(ann.account.id, event(rounds=2, interval=86_400, starts_in_seconds=0,
                                                time_control={"type": "correspondence", "days": 2}))
    for m in (ann, bob):
        await sw.join(tid, m.account.id, m.name)
    await sw.tick()
    [game] = await games(app, tid)
    state = await app.state.parts.service.reads.get(game.match_id)
    assert state["clock"]["type"] == "correspondence"
    assert (await sw.view(tid))["time_control"] == {"type": "correspondence", "days": 2}

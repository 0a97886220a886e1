"""A round of an arena's pairing made in one transaction (app/matches/pairing_round.py
with app/tournaments/round_claims.py), on SQLite and PostgreSQL: a game whose
player was taken meanwhile (withdrawn, or seated in a real-time match made
elsewhere) is left out alone, with no match of its own kept, while the rest of
the round is made; every match made is announced and its players play it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import func, select

from app.db.models import matches, seats
from app.matches.pairing import Paired, Player
from app.tournaments import store
from app.tournaments.round_claims import Game, claim_round

from ..api.members import Member, member
from .conftest import arena, caller, games, playing

REALTIME = {"variant": "standard", "time_control": {"type": "realtime", "minutes": 5, "increment": 3}}


class Heard:
    """A listener of the match service's commits: the matches whose creation it was told."""

    def __init__(self) -> None:
        self.created: list[str] = []

    async def publish(self, match_id: str, updates: Sequence[Mapping[str, Any]]) -> None:
        self.created += [match_id for u in updates if u.get("type") == "created"]


async def seated(app: Any, who: Member) -> int:
    """How many matches the member has a seat in, whatever their state."""
    async with app.state.parts.engine.connect() as conn:
        return int((await conn.execute(select(func.count()).select_from(seats).where(
            seats.c.account_id == who.account.id))).scalar_one())


async def test_a_round_leaves_out_only_the_games_whose_players_were_taken(app: Any) -> None:
    arenas, gateway, engine = app.state.parts.arenas, app.state.parts.gateway, app.state.parts.engine
    people = [await member(app, f"Rounder{i}") for i in range(6)]
    outsider = await member(app, "Outsider")
    tid = await arenas.create(people[0].account.id, arena())
    for m in people:  # in the arena's rows, not paired yet
        await store.join(engine, tid, m.account.id, m.name, arenas.now_ms())
    chosen = [(people[0], people[1]), (people[2], people[3]), (people[4], people[5])]
    # Between the round's read of who waits and its transaction: one player
    # withdraws, another is seated in a real-time match made elsewhere.
    await arenas.withdraw(tid, people[1].account.id)
    elsewhere = await gateway.create(caller(people[5]), REALTIME)
    await gateway.join(elsewhere.match["id"], caller(outsider))
    heard = Heard()
    gateway.service.keeper.publisher.add(heard, reads_words=False)

    async def claim(conn: Any, made: Sequence[Paired]) -> set[str]:
        return await claim_round(conn, tid, [Game((a.account.id, b.account.id), (1500.0, 1500.0), p.match_id, p.colours)
                                             for (a, b), p in zip(chosen, made, strict=True)], arenas.now_ms())

    answered = await gateway.pair_all(REALTIME, [(Player(a.name, a.account.id, a.name),
                                                  Player(b.name, b.account.id, b.name)) for a, b in chosen], False, claim)
    assert [p is not None for p in answered] == [False, True, False]
    made = answered[1]
    assert made is not None
    [game] = await games(app, tid)
    assert game.match_id == made.match_id and {game.white, game.black} == {people[2].account.id, people[3].account.id}
    now = await playing(app, tid)
    assert now[people[2].account.id] == now[people[3].account.id] == made.match_id
    assert [now[m.account.id] for m in (people[0], people[1], people[4], people[5])] == [None] * 4
    # The lost games' matches are gone: their players sit only where they sat before.
    assert [await seated(app, m) for m in people] == [0, 0, 1, 1, 0, 1]
    async with engine.connect() as conn:
        assert int((await conn.execute(select(func.count()).select_from(matches))).scalar_one()) == 2
    assert heard.created == [made.match_id]  # announced as a single pairing is


async def test_a_round_of_the_service_pairs_everyone_free_and_skips_who_plays_elsewhere(app: Any) -> None:
    arenas, gateway, engine = app.state.parts.arenas, app.state.parts.gateway, app.state.parts.engine
    people = [await member(app, f"Sweeper{i}") for i in range(9)]
    tid = await arenas.create(people[0].account.id, arena())
    for m in people:
        await store.join(engine, tid, m.account.id, m.name, arenas.now_ms())
    elsewhere = await gateway.create(caller(people[8]), REALTIME)  # seated in a seek's game: not paired
    await gateway.join(elsewhere.match["id"], caller(await member(app, "Stranger")))
    assert await arenas.pair(tid) == 4
    running = await games(app, tid)
    paired = [a for g in running for a in (g.white, g.black)]
    assert sorted(paired) == sorted(m.account.id for m in people[:8])
    now = await playing(app, tid)
    assert {now[a] for a in paired} == {g.match_id for g in running} and now[people[8].account.id] is None

"""A property of the arena, on SQLite and PostgreSQL: whatever sequence of joins,
withdrawals and game endings (a win by resignation, an agreed draw, a flag
fallen on a clock the test moves, an abort, a backrow never set up in time)
comes, after every step nobody is in two games at once, each player's game in
the arena's rows is the one running, and the kept standings equal a
recomputation from the games (service.recomputed)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from app.db.models import matches, seats
from app.matches import Caller
from app.tournaments import Arenas, store
from app.tournaments.errors import NotInTournament
from app.tournaments.service import recomputed

from ..conftest import ROW, FakeTime
from .conftest import arena

PEOPLE = 6
EXAMPLES = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
ENDINGS = ("resign-white", "resign-black", "draw", "flag", "abort", "no-setup")

steps = st.lists(st.one_of(
    st.tuples(st.just("join"), st.integers(0, PEOPLE - 1)),
    st.tuples(st.just("withdraw"), st.integers(0, PEOPLE - 1)),
    st.tuples(st.sampled_from(ENDINGS), st.integers(0, PEOPLE)),
), min_size=4, max_size=20)


@pytest.fixture
async def people(app: Any) -> list[Caller]:
    """Accounts made once for the test, for all its examples (each example's arena is new)."""
    accounts = app.state.parts.accounts
    return [Caller(account_id=(a := await accounts.sign_up(f"Prop{i}", "correct horse battery",
                                                           f"10.7.0.{i}")).id, account=a.name)
            for i in range(PEOPLE)]


async def check(app: Any, tid: str) -> None:
    engine = app.state.parts.engine
    live = (select(seats.c.account_id, func.count()).select_from(seats.join(matches, matches.c.id == seats.c.match_id))
            .where(seats.c.account_id.is_not(None), matches.c.status == "active").group_by(seats.c.account_id))
    async with engine.connect() as conn:
        counts = dict((await conn.execute(live)).all())
    assert max(counts.values(), default=1) == 1, f"a player in two games at once: {counts}"
    joined = await store.players_of(engine, tid)
    played = await store.games_of(engine, tid)
    running = [g for g in played if g.status == "playing"]
    assert max(Counter(a for g in running for a in (g.white, g.black)).values(), default=1) == 1
    assert {p.account_id: p.match_id for p in joined if p.match_id} == {
        a: g.match_id for g in running for a in (g.white, g.black)}
    again = recomputed(joined, played)
    assert {p.account_id: (p.score, p.games, p.streak) for p in joined} == {
        a: (s.score, s.games, s.streak) for a, s in again.items()}


@EXAMPLES
@given(plan=steps)
async def test_any_joins_withdrawals_and_endings_keep_one_game_each_and_true_standings(
        app: Any, people: list[Caller], plan: list[tuple[str, int]]) -> None:
    parts = app.state.parts
    arenas: Arenas = parts.arenas
    gateway, finisher = parts.gateway, parts.service.finisher
    time = FakeTime(parts.service)
    arenas.clock = lambda: time.now
    by_id = {c.account_id: c for c in people}
    limits, arenas.making_limits = arenas.making_limits, ()  # one maker, an arena per example: no limit here
    try:
        tid = await arenas.create(people[0].account_id, arena(minutes=24 * 60))
    finally:
        arenas.making_limits = limits  # the app is shared: the limit's own test finds it whole
    joined: set[int] = set()

    async def settle() -> None:
        """Whatever fell due ends (the sweeper's work), and each end is written."""
        await finisher.sweep()
        await arenas.settled()
        await arenas.tick()

    for what, n in plan:
        if what == "join":
            await arenas.join(tid, people[n].account_id, people[n].account or "")
            joined.add(n)
        elif what == "withdraw":
            if n in joined:
                await arenas.withdraw(tid, people[n].account_id)
            else:
                try:
                    await arenas.withdraw(tid, people[n].account_id)
                    raise AssertionError("one who never joined withdrew")
                except NotInTournament:
                    pass
        else:
            running = [g for g in await store.games_of(parts.engine, tid) if g.status == "playing"]
            if running:
                game = running[n % len(running)]
                white, black = by_id[game.white], by_id[game.black]
                if what == "resign-white":
                    await gateway.resign(game.match_id, white)
                elif what == "resign-black":
                    await gateway.resign(game.match_id, black)
                elif what == "draw":
                    await gateway.draw(game.match_id, white, True)
                    await gateway.draw(game.match_id, black, True)
                elif what == "abort":
                    await gateway.abort(game.match_id, black)
                elif what == "flag":  # both set up, then the side to move lets its clock run out
                    acted = await gateway.play(game.match_id, white, {"type": "setup", "backrow": ROW}, 0)
                    await gateway.play(game.match_id, black, {"type": "setup", "backrow": ROW}, acted.version)
                    time.advance(5 * 60 + 1)
                else:  # nobody sets up: the match is called off when the setup time runs out
                    time.advance(parts.settings.setup_seconds + 1)
        await settle()
        await check(app, tid)
    # The players leave and their games end: the next example's arena finds them free.
    for n in joined:
        await arenas.withdraw(tid, people[n].account_id)
    for game in await store.games_of(parts.engine, tid):
        if game.status == "playing":
            await gateway.resign(game.match_id, by_id[game.white])
    await settle()
    await check(app, tid)
    assert all(g.status == "finished" for g in await store.games_of(parts.engine, tid))

"""Whole arenas played over HTTP against two real uvicorn processes on one
PostgreSQL database: ten accounts join on either process, withdraw and come
back; games end by resignation (a win and a loss), an agreed draw and an
abort, each sent to either process. After every step nobody is in two
real-time games at once, each player's game in the arena's rows is the one
running, and the kept standings equal a recomputation from the games; at the
end, so do the standings the server shows. A flag needs a clock the test moves,
which a process of its own does not have: test_arena_property.py plays flags.
Skipped without PostgreSQL (two processes on one SQLite file share no live
channel: the house runs SQLite as one process)."""

from __future__ import annotations

import random
import secrets
from collections import Counter
from collections.abc import AsyncIterator, Iterator

import httpx
import pytest
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.engine import make_engine
from app.db.models import matches, seats
from app.db.tournament_models import tournament_games as games
from app.db.tournament_models import tournament_players as players
from app.tournaments import store
from app.tournaments.service import recomputed
from tests.realtime.test_processes import Server, account_tokens, two_servers
from tests.waiting import until

BASE = "/api/v1/tournaments"
PLAYERS = 10
STEPS = 15  # five of each ending


@pytest.fixture(scope="module")
def servers(postgres_url: str) -> Iterator[tuple[Server, Server]]:
    with two_servers(postgres_url) as both:
        yield both


@pytest.fixture
async def engine(postgres_url: str) -> AsyncIterator[AsyncEngine]:
    made = make_engine(postgres_url, pool_size=2, max_overflow=0)
    yield made
    await made.dispose()


async def one_game_each(engine: AsyncEngine, tid: str) -> None:
    """Nobody in two running real-time games; the arena's rows agree with the games
    running; the kept sheets equal those made again from the games. Read in one
    snapshot (REPEATABLE READ): the servers pair and settle while the test reads."""
    live = (select(seats.c.account_id, func.count()).select_from(seats.join(matches, matches.c.id == seats.c.match_id))
            .where(seats.c.account_id.is_not(None), matches.c.status == "active",
                   matches.c.options[("time_control", "type")].as_string() == "realtime")
            .group_by(seats.c.account_id))
    async with engine.connect() as conn:
        conn = await conn.execution_options(isolation_level="REPEATABLE READ")
        async with conn.begin():
            counts = dict((await conn.execute(live)).all())
            joined = list((await conn.execute(select(players).where(players.c.tournament_id == tid))).all())
            played = list((await conn.execute(select(games).where(games.c.tournament_id == tid)
                                              .order_by(games.c.id.desc()))).all())
    assert not counts or max(counts.values()) == 1, f"a player in two real-time games at once: {counts}"
    running = [g for g in played if g.status == "playing"]
    assert max(Counter(a for g in running for a in (g.white, g.black)).values(), default=1) == 1
    assert {p.account_id: p.match_id for p in joined if p.match_id} == {
        a: g.match_id for g in running for a in (g.white, g.black)}
    again = recomputed(joined, played)
    assert {p.account_id: (p.score, p.games, p.streak) for p in joined} == {
        a: (s.score, s.games, s.streak) for a, s in again.items()}


async def test_two_processes_play_a_whole_arena_over_http(
        servers: tuple[Server, Server], postgres_url: str, engine: AsyncEngine) -> None:
    rng = random.Random(7)
    tag = secrets.token_hex(3)
    names = [f"Arena{tag}x{i}" for i in range(PLAYERS)]
    tokens = await account_tokens(postgres_url, *names)
    async with httpx.AsyncClient(timeout=30) as http:
        def at() -> str:
            return rng.choice(servers).base

        r = await http.post(at() + BASE, headers=tokens[names[0]], json={
            "kind": "arena", "name": "Proof Blitz", "variant": "standard", "time_control": "5+3", "minutes": 60,
            "starts_in_seconds": 0, "rated": False})
        assert r.status_code == 201, r.text
        tid = r.json()["id"]
        for name in names:
            r = await http.post(f"{at()}{BASE}/{tid}/join", headers=tokens[name])
            assert r.status_code == 200, r.text
            await one_game_each(engine, tid)
        away: list[str] = []
        endings = Counter[str]()
        for step in range(STEPS):
            running = [g for g in await store.games_of(engine, tid) if g.status == "playing"]
            assert running, f"step {step}: nobody paired, with {PLAYERS - len(away)} present"
            game = rng.choice(running)
            names_of = {p.account_id: p.name for p in await store.players_of(engine, tid)}
            white, black = tokens[names_of[game.white]], tokens[names_of[game.black]]
            how = ("resign", "draw", "abort")[step % 3]
            match = f"/api/v1/matches/{game.match_id}"
            if how == "resign":
                r = await http.post(f"{at()}{match}/resign", headers=rng.choice((white, black)))
            elif how == "draw":
                r = await http.post(f"{at()}{match}/draw", headers=white, json={"offer": True})
                assert r.status_code == 200, r.text
                r = await http.post(f"{at()}{match}/draw", headers=black, json={"offer": True})
            else:
                r = await http.post(f"{at()}{match}/abort", headers=rng.choice((white, black)))
            assert r.status_code == 200, (how, r.text)
            endings[r.json()["match"]["result"]["reason"]] += 1

            async def written(match_id: str = game.match_id) -> bool:
                return any(g.match_id == match_id and g.status == "finished"
                           for g in await store.games_of(engine, tid))

            await until(written, f"the arena to write the end of {game.match_id}")
            await one_game_each(engine, tid)
            if step % 4 == 1:  # one leaves (a game under way is played out) ...
                leaving = rng.choice([n for n in names if n not in away])
                r = await http.post(f"{at()}{BASE}/{tid}/withdraw", headers=tokens[leaving])
                assert r.status_code == 200, r.text
                away.append(leaving)
            if step % 4 == 3:  # ... and one comes back
                back = away.pop(0)
                r = await http.post(f"{at()}{BASE}/{tid}/join", headers=tokens[back])
                assert r.status_code == 200, r.text
            await one_game_each(engine, tid)
        assert {"resigned", "aborted"} <= set(endings) and sum(endings.values()) == STEPS
        shown = (await http.get(f"{at()}{BASE}/{tid}")).json()["standings"]
    joined = await store.players_of(engine, tid)
    again = recomputed(joined, await store.games_of(engine, tid))
    by_name = {p.name: again[p.account_id] for p in joined}
    assert {s["name"]: (s["score"], s["games"], s["streak"]) for s in shown} == {
        n: (s.score, s.games, s.streak) for n, s in by_name.items()}
    assert sum(s["games"] for s in shown) > 0 and len(shown) == PLAYERS

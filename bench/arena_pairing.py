"""An arena's pairing (issue 32): how long pairing takes with 2, 20, 200 and
2,000 players waiting, and how long after a game's end a waiting partner is
paired, over HTTP on a real server.

    .venv/bin/python bench/arena_pairing.py [--quick] [--only matching,round,delay] [--postgres]

- `matching`: the pure matching (app/tournaments/pairing.py `pairs`) on random
  waiting players (scores 0-40, ratings around 1500, each with a last
  opponent), p50/p99 over many runs, in wall time and in CPU time (on a shared,
  loaded machine the wall time is mostly the scheduler's); beside it, 200
  players matched as one group (no grouping by rank): its CPU time, and how
  much more the grouped pairs cost by the pairing's own weights.
- `round`: a whole pairing round against the database (`Arenas.pair`: read the
  waiting, match, then one transaction that inserts all the round's matches
  and claims their players), in-process on a fresh SQLite file (and PostgreSQL with
  `--postgres`); between runs the games are called off in the database so the
  same players wait again.
- `delay`: one uvicorn process on SQLite, three accounts in one arena, each
  holding its `GET /api/v1/stream/events`: two play, one waits. A trial
  resigns the running game and times from sending the resignation until the
  waiting player's stream says `matchStart` for its new game; p50/p95.

Goals (issue 32): 200 waiting paired in <= 200 ms p99; a waiting partner
paired within 2 s (p95) of a game's end. Results in bench/results/arena_pairing.json.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402

from app.tournaments import pairing  # noqa: E402
from app.tournaments.pairing import Waiting, pairs  # noqa: E402

SIZES = (2, 20, 200, 2000)
PG_SERVER = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def figures(times: list[float]) -> dict[str, float]:
    return {"runs": len(times), "p50_ms": statistics.median(times) * 1000, "p95_ms": quantile(times, 0.95) * 1000,
            "p99_ms": quantile(times, 0.99) * 1000}


def waiting_players(n: int, rng: random.Random) -> list[Waiting]:
    names = [f"p{i}" for i in range(n)]
    return [Waiting(name, rng.randint(0, 40), rng.gauss(1500, 250),
                    rng.choice(names) if n > 1 else None) for name in names]


def timed(work: Callable[[], Any], runs: int, clock: Callable[[], float] = time.perf_counter) -> list[float]:
    spent = []
    for _ in range(runs):
        start = clock()
        work()
        spent.append(clock() - start)
    return spent


def summed_cost(made: list[tuple[Waiting, Waiting]]) -> int:
    return sum(pairing.cost(a, b) for a, b in made)


def matching(quick: bool) -> list[dict[str, Any]]:
    rng = random.Random(32)
    results = []
    for n in SIZES:
        runs = {2: 500, 20: 300, 200: 100, 2000: 20}[n] // (5 if quick else 1)
        players = waiting_players(n, rng)
        grouped = figures(timed(lambda p=players: pairs(p), runs))  # type: ignore[misc]
        cpu = figures(timed(lambda p=players: pairs(p), runs, time.process_time))  # type: ignore[misc]
        row: dict[str, Any] = {"waiting": n, "grouped": grouped, "grouped_cpu": cpu}
        if n == 200:  # the same players as one group: its time, and how much better its pairs are
            kept = pairing.GROUP, pairing.NEIGHBOURS
            pairing.GROUP = pairing.NEIGHBOURS = n
            try:
                row["one_group_cpu"] = figures(timed(lambda p=players: pairs(p), 3, time.process_time))  # type: ignore[misc]
                best = summed_cost(pairs(players))
            finally:
                pairing.GROUP, pairing.NEIGHBOURS = kept
            row["cost_over_one_group"] = summed_cost(pairs(players)) / best
        results.append(row)
        one = row.get("one_group_cpu")
        print(f"matching {n:>5} waiting: p50 {grouped['p50_ms']:8.2f} ms  p99 {grouped['p99_ms']:8.2f} ms"
              f"  (CPU p50 {cpu['p50_ms']:7.2f} ms, p99 {cpu['p99_ms']:7.2f} ms)"
              + (f"   one group: CPU p50 {one['p50_ms']:7.1f} ms; grouped pairs cost "
                 f"{row['cost_over_one_group']:.2f}x one group's" if one else ""), flush=True)
    return results


async def _round_on(url: str, quick: bool) -> list[dict[str, Any]]:
    from sqlalchemy import update

    from app.auth import use_password_costs
    from app.db.migrate import upgrade
    from app.db.models import matches
    from app.db.tournament_models import tournament_games, tournament_players
    from app.main import create_app
    from app.tournaments import NewArena, store
    from tests.conftest import make_settings

    use_password_costs(1, 8, 1)
    app = create_app(make_settings(url, tournament_tick_seconds=3600.0, sweep_seconds=3600.0))
    results = []
    async with app.router.lifespan_context(app):
        parts = app.state.parts
        engine, arenas = parts.engine, parts.arenas
        await upgrade(engine)
        made = 0
        for n in SIZES:
            runs = {2: 30, 20: 20, 200: 10, 2000: 3}[n] // (3 if quick else 1) or 1
            ids = []
            for _ in range(n):
                account = await parts.accounts.sign_up(f"Bench{made}", "correct horse battery", f"10.6.{made}")
                ids.append((account.id, account.name))
                made += 1
            tid = await arenas.create(ids[0][0], NewArena(f"Bench {n}", "standard", "5+3", 600, 0, False))
            for account_id, name in ids:
                await store.join(engine, tid, account_id, name, arenas.now_ms())
            spent = []
            for _ in range(runs):
                start = time.perf_counter()
                games = await arenas.pair(tid)
                spent.append(time.perf_counter() - start)
                assert games == n // 2, (games, n)
                async with engine.begin() as conn:  # every game called off: all wait again
                    playing = [g for g in await store.games_of(engine, tid) if g.status == "playing"]
                    await conn.execute(update(matches).where(matches.c.id.in_([g.match_id for g in playing]))
                                       .values(status="finished"))
                    await conn.execute(update(tournament_games).where(tournament_games.c.tournament_id == tid)
                                       .values(status="finished", result="aborted"))
                    await conn.execute(update(tournament_players).where(tournament_players.c.tournament_id == tid)
                                       .values(match_id=None))
            row = {"waiting": n, "games": n // 2, **figures(spent)}
            results.append(row)
            print(f"round    {n:>5} waiting ({url.split(':')[0]}): p50 {row['p50_ms']:8.1f} ms  "
                  f"p99 {row['p99_ms']:8.1f} ms  ({row['games']} games, {runs} runs)", flush=True)
    return results


async def rounds(quick: bool, postgres: bool) -> dict[str, Any]:
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as folder:
        out["sqlite"] = await _round_on(f"sqlite+aiosqlite:///{folder}/arena.sqlite3", quick)
    if postgres:
        import asyncpg

        name = f"arena_bench_{random.randrange(10**6)}"
        admin = await asyncpg.connect("postgresql://postgres@127.0.0.1:5432/test")
        await admin.execute(f'CREATE DATABASE "{name}"')
        try:
            out["postgresql"] = await _round_on(PG_SERVER.rsplit("/", 1)[0] + f"/{name}", quick)
        finally:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            await admin.close()
    return out


class Listener:
    """One account's event stream: each new match's start, timed as it arrives."""

    def __init__(self, http: httpx.AsyncClient, token: str) -> None:
        self.http, self.headers = http, {"Authorization": f"Bearer {token}"}
        self.started: asyncio.Queue[tuple[float, str]] = asyncio.Queue()
        self.seen: set[str] = set()

    async def run(self) -> None:
        async with self.http.stream("GET", "/api/v1/stream/events", headers=self.headers) as lines:
            async for line in lines.aiter_lines():
                event = json.loads(line) if line else {}
                if event.get("type") == "matchStart" and event["match"]["id"] not in self.seen:
                    self.seen.add(event["match"]["id"])
                    self.started.put_nowait((time.perf_counter(), event["match"]["id"]))


async def delay(quick: bool) -> dict[str, Any]:
    from bench.pairing import CHEAP, _accounts
    from tests.browser.conftest import run_server

    trials = 10 if quick else 40
    with tempfile.TemporaryDirectory() as folder, run_server(Path(folder), **CHEAP) as server:
        names = ["Ana", "Ben", "Cai"]
        tokens = await _accounts(server.database_url, names, [1500.0, 1510.0, 1520.0])
        async with httpx.AsyncClient(base_url=server.base, timeout=60) as http:
            listeners = [Listener(http, t) for t in tokens]
            tasks = [asyncio.create_task(listener.run()) for listener in listeners]
            auth = [listener.headers for listener in listeners]
            r = await http.post("/api/v1/tournaments", headers=auth[0], json={
                "kind": "arena", "name": "Bench Blitz", "variant": "standard", "time_control": "5+3",
                "minutes": 600, "starts_in_seconds": 0, "rated": False})
            tid = r.json()["id"]
            for headers in auth:
                assert (await http.post(f"/api/v1/tournaments/{tid}/join", headers=headers)).status_code == 200
            spent = []
            for _ in range(trials):
                view = (await http.get(f"/api/v1/tournaments/{tid}")).json()
                [game] = [p for p in view["pairings"] if p["status"] == "playing"]
                waiter = next(i for i, n in enumerate(names) if n not in (game["white"], game["black"]))
                while not listeners[waiter].started.empty():
                    listeners[waiter].started.get_nowait()
                resigner = names.index(game["white"])
                start = time.perf_counter()
                r = await http.post(f"/api/v1/matches/{game['match']}/resign", headers=auth[resigner])
                assert r.status_code == 200, r.text
                heard, _ = await asyncio.wait_for(listeners[waiter].started.get(), 30)
                spent.append(heard - start)
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
    row = figures(spent)
    print(f"delay from a game's end to the waiting partner's matchStart: p50 {row['p50_ms']:.1f} ms  "
          f"p95 {row['p95_ms']:.1f} ms  ({trials} trials, one uvicorn process, SQLite)", flush=True)
    return row


async def _main(only: set[str], quick: bool, postgres: bool) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if "matching" in only:
        out["matching"] = matching(quick)
    if "round" in only:
        out["round"] = await rounds(quick, postgres)
    if "delay" in only:
        out["delay"] = await delay(quick)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", default="matching,round,delay")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--postgres", action="store_true", help="the round on PostgreSQL too (127.0.0.1:5432)")
    args = parser.parse_args()
    out = asyncio.run(_main(set(args.only.split(",")), args.quick, args.postgres))
    goals = {}
    if "matching" in out:
        at200 = next(r for r in out["matching"] if r["waiting"] == 200)
        goals["matching 200 p99 <= 200 ms"] = at200["grouped"]["p99_ms"] <= 200
        goals["matching 200 CPU p99 <= 200 ms"] = at200["grouped_cpu"]["p99_ms"] <= 200
    for db, rows in out.get("round", {}).items():
        at200 = next(r for r in rows if r["waiting"] == 200)
        goals[f"round 200 ({db}) p99 <= 200 ms"] = at200["p99_ms"] <= 200
    if "delay" in out:
        goals["delay p95 <= 2 s"] = out["delay"]["p95_ms"] <= 2000
    for goal, met in goals.items():
        print(f"{goal}: {'PASS' if met else 'MISS'}")
    results = ROOT / "bench" / "results"
    results.mkdir(exist_ok=True)
    (results / "arena_pairing.json").write_text(json.dumps({**out, "goals": goals}, indent=2))


if __name__ == "__main__":
    main()

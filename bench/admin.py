"""The admin dashboard at scale: history, figures and a long replay over
200,000 finished matches on PostgreSQL.

    .venv/bin/python bench/admin.py [--matches 200000] [--quick] [--keep]

It makes a private database (`magery_bench_admin_<pid>` on BENCH_POSTGRES,
default postgresql://postgres@127.0.0.1:5432), migrates it, plays template
matches through the match service, and copies them in bulk (COPY through
asyncpg; bench/admin_seed.py) into `--matches` finished matches with their
seats, their whole logs and their figures' summaries, created evenly over
`--days`; one of them is a 1,000-action match. Then, through the app in this
process (httpx's ASGI transport, signed in as an admin), it measures:

- history: `GET /admin/api/matches` with no filter and with each single
  filter, each sort, a second page, the lookup by id (50 a page);
- figures: `GET /admin/api/stats` over 30 days, 365 days and every day;
- the 1,000-action match: its page's JSON (detail and timeline of every
  entry), one replay frame (`/versions/{n}`), and its log replayed through
  the rules engine (`app.matches.store.replay_match`, the state checked);
- the figures' catch-up of 500 matches that just finished (per match).

Goals (issue 10): history p50 <= 50 ms, figures p50 <= 200 ms, the
1,000-action replay <= 100 ms, and EXPLAIN (ANALYZE) of every query shows no
sequential scan on the big tables (matches, seats, actions, match_summaries).
Results go to bench/results/admin.json. The database is dropped at the end
unless --keep.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import asyncpg  # noqa: E402
import httpx  # noqa: E402
from sqlalchemy import select, update  # noqa: E402
from sqlalchemy.ext.compiler import compiles  # noqa: E402
from sqlalchemy.sql.expression import ClauseElement, Executable  # noqa: E402

from app.accounts import admins  # noqa: E402
from app.admin import figures  # noqa: E402
from app.admin import match_search as history  # noqa: E402  (the history's queries; renamed in issue 18)
from app.config import Settings  # noqa: E402
from app.db import make_engine, upgrade  # noqa: E402
from app.db.admin_models import figure_marks  # noqa: E402
from app.db.models import actions, matches  # noqa: E402
from app.main import create_app  # noqa: E402
from app.matches.store import replay_match  # noqa: E402
from bench import admin_seed  # noqa: E402

PG = os.environ.get("BENCH_POSTGRES", "postgresql://postgres@127.0.0.1:5432")
RESULTS = ROOT / "bench" / "results" / "admin.json"
BIG = ("matches", "seats", "actions", "match_summaries")
GOALS = {"history": 50.0, "figures": 200.0, "replay": 100.0}
PASSWORD = "bench password, long enough"


class Explain(Executable, ClauseElement):
    inherit_cache = False

    def __init__(self, stmt: Any) -> None:
        self.stmt = stmt


@compiles(Explain, "postgresql")
def _explain(element: Explain, compiler: Any, **kw: Any) -> str:
    return "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) " + compiler.process(element.stmt, **kw)


async def _pg(sql: str) -> None:
    conn = await asyncpg.connect(f"{PG}/postgres")
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p * (len(ordered) - 1)))]


async def timed(repeats: int, call: Callable[[], Awaitable[Any]]) -> dict[str, float]:
    for _ in range(2):  # warm: caches, prepared statements
        await call()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        await call()
        times.append((time.perf_counter() - start) * 1000)
    return {"p50_ms": statistics.median(times), "p95_ms": percentile(times, 0.95), "n": repeats}


async def sign_in(client: httpx.AsyncClient) -> None:
    form = await client.get("/admin/login")
    token = form.text.split('name="csrf_token" value="')[1].split('"')[0]
    r = await client.post("/admin/login", data={"username": "bench", "password": PASSWORD, "csrf_token": token})
    assert r.status_code == 303, r.text


def history_cases(loaded: admin_seed.Loaded, start: date, days: int) -> dict[str, dict[str, str]]:
    common = loaded.names.most_common(1)[0][0]
    middle = start + timedelta(days=days // 2)
    return {
        "no filter": {},
        "status=finished": {"status": "finished"},
        "variant=rotating": {"variant": "rotating"},
        "from/to (7 days)": {"from": middle.isoformat(), "to": (middle + timedelta(days=6)).isoformat()},
        "player": {"player": common},
        "player=random bot (every bot seat)": {"player": "random bot"},
        "result=white": {"result": "white"},
        "result=draw": {"result": "draw"},
        "reason=resigned": {"reason": "resigned"},
        "reason=adjudicated": {"reason": "adjudicated"},
        "reason=no_progress (rare)": {"reason": "no_progress"},
        "opponent=bot": {"opponent": "bot"},
        "opponent=human": {"opponent": "human"},
        "sort=oldest": {"sort": "oldest"},
        "sort=finished": {"sort": "finished"},
        "id lookup": {"id": loaded.long_id},
    }


async def explain(engine: Any, stmt: Any) -> str:
    async with engine.connect() as conn:
        return "\n".join(r[0] for r in (await conn.execute(Explain(stmt))).all())


def seq_scans(plan: str) -> list[str]:
    return [line.strip() for line in plan.splitlines()
            if "Seq Scan on" in line and line.split("Seq Scan on")[1].split()[0] in BIG]


async def run(args: argparse.Namespace) -> dict[str, Any]:
    db = f"magery_bench_admin_{os.getpid()}"
    url = f"{PG.replace('postgresql://', 'postgresql+asyncpg://')}/{db}"
    await _pg(f'CREATE DATABASE "{db}"')
    out: dict[str, Any] = {"matches": args.matches, "days": args.days}
    try:
        engine = make_engine(url, 4, 0)
        await upgrade(engine)
        rng = random.Random(args.seed)
        t0 = time.perf_counter()
        templates = await admin_seed.play_templates(url, args.templates, args.long, rng)
        out["templates_s"] = round(time.perf_counter() - t0, 1)
        print(f"{len(templates)} templates played in {out['templates_s']} s; long match: "
              f"{len(templates[-1].log)} log entries", flush=True)
        end = datetime.now(UTC).replace(microsecond=0) - timedelta(days=1)
        t0 = time.perf_counter()
        loaded = await admin_seed.bulk_load(url, templates, args.matches, args.days, rng, end)
        out["load_s"] = round(time.perf_counter() - t0, 1)
        out["log_rows"] = loaded.actions
        t0 = time.perf_counter()
        async with engine.begin() as conn:
            await figures._lock_mark(conn)
            await figures.add_to_sums(conn, loaded.summaries)
            await conn.execute(update(figure_marks).values(
                finished_at=max(s.finished_at for s in loaded.summaries)))
        out["figure_sums_s"] = round(time.perf_counter() - t0, 1)
        conn = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://"))
        await conn.execute("VACUUM ANALYZE")
        sizes = {t: await conn.fetchval(f"SELECT pg_size_pretty(pg_total_relation_size('{t}'))") for t in BIG}
        await conn.close()
        out["sizes"] = sizes
        print(f"loaded {loaded.matches:,} matches and {loaded.actions:,} log rows in {out['load_s']} s "
              f"(figures' sums {out['figure_sums_s']} s); sizes {sizes}", flush=True)

        settings = Settings(_env_file=None, database_url=url, sweep_seconds=3600.0,  # type: ignore[call-arg]
                            db_pool_size=4, db_max_overflow=0)
        app = create_app(settings)
        async with app.router.lifespan_context(app):
            await admins.add(app.state.parts.accounts, "bench", PASSWORD, "the bench")
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
                await sign_in(client)
                out.update(await measure(args, app, client, loaded, end.date() - timedelta(days=args.days)))
                # The catch-up: matches that finished just now, not summarised yet.
                fresh = await admin_seed.bulk_load(url, templates, 500, 0, rng, datetime.now(UTC),
                                                   with_summaries=False, prefix="fresh")
                t0 = time.perf_counter()
                counted = await figures.catch_up(app.state.parts.engine)
                spent = (time.perf_counter() - t0) * 1000
                out["catch_up"] = {"matches": counted, "ms": round(spent, 1),
                                   "ms_per_match": round(spent / max(counted, 1), 2), "log_rows": fresh.actions}
                print(f"catch-up: {counted} new matches in {spent:.0f} ms", flush=True)
                out["explain"] = await plans(app.state.parts.engine, loaded, end.date() - timedelta(days=args.days),
                                             args.days)
        await engine.dispose()
    finally:
        if not args.keep:
            await _pg(f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)')
    return out


async def measure(args: argparse.Namespace, app: Any, client: httpx.AsyncClient, loaded: admin_seed.Loaded,
                  start: date) -> dict[str, Any]:
    async def get(url: str, params: dict[str, str] | None = None) -> httpx.Response:
        r = await client.get(url, params=params)
        assert r.status_code == 200, (url, params, r.status_code, r.text[:300])
        return r

    results: dict[str, Any] = {"history": {}, "figures": {}, "replay": {}}
    for name, params in history_cases(loaded, start, args.days).items():
        found = len((await get("/admin/api/matches", params)).json()["matches"])
        results["history"][name] = {**await timed(args.repeats, lambda p=params: get("/admin/api/matches", p)),
                                    "rows": found}
    second = (await get("/admin/api/matches")).json()["next_cursor"]
    results["history"]["second page"] = await timed(
        args.repeats, lambda: get("/admin/api/matches", {"cursor": second}))
    today = datetime.now(UTC).date()
    for name, first in (("30 days", today - timedelta(days=29)), ("365 days", today - timedelta(days=364)),
                        ("every day", start)):
        params = {"from": first.isoformat(), "to": today.isoformat()}
        finished = (await get("/admin/api/stats", params)).json()["finished"]
        results["figures"][name] = {**await timed(args.repeats, lambda p=params: get("/admin/api/stats", p)),
                                    "finished": finished}
    long_id = loaded.long_id
    detail = (await get(f"/admin/api/matches/{long_id}")).json()
    last = detail["version"]
    results["replay"]["actions"] = last
    results["replay"]["page JSON (detail + timeline)"] = await timed(
        args.repeats, lambda: get(f"/admin/api/matches/{long_id}"))
    results["replay"]["one frame (/versions/n)"] = await timed(
        args.repeats, lambda: get(f"/admin/api/matches/{long_id}/versions/{last // 2}"))

    async def engine_replay() -> None:
        found = await replay_match(app.state.parts.engine, long_id)
        assert found is not None and found[0] == found[1], "the replay differs from the stored state"

    results["replay"]["log replayed through the engine"] = await timed(args.repeats, engine_replay)
    for group, rows in results.items():
        for name, r in rows.items():
            if isinstance(r, dict):
                print(f"  {group:8} {name:34} p50 {r['p50_ms']:7.1f} ms   p95 {r['p95_ms']:7.1f} ms", flush=True)
    return results


async def plans(engine: Any, loaded: admin_seed.Loaded, start: date, days: int) -> dict[str, Any]:
    """EXPLAIN (ANALYZE) of the SQL behind each measure; any sequential scan of a big table is listed."""
    statements: dict[str, Any] = {}
    for name, params in history_cases(loaded, start, days).items():
        statements[f"history: {name}"] = history.statement(history.parse(params), 51)
    today = datetime.now(UTC).date()
    statements["figures: per day (every day)"] = figures.per_day_statement(start, today)
    statements["figures: sums (every day)"] = figures.sums_statement(start, today)
    statements["figures: playing now"] = figures.playing_statement()
    statements["figures: catch-up"] = figures.pending_statement(datetime.now(UTC) - timedelta(minutes=10))
    statements["replay: timeline"] = (select(actions.c.version, actions.c.player, actions.c.action,
                                             actions.c.automatic, actions.c.at)
                                      .where(actions.c.match_id == loaded.long_id).order_by(actions.c.version))
    statements["replay: frame"] = select(actions.c.public).where(actions.c.match_id == loaded.long_id,
                                                                  actions.c.version == 500)
    statements["replay: match row"] = select(matches.c.version).where(matches.c.id == loaded.long_id)
    out: dict[str, Any] = {}
    print("\nEXPLAIN (ANALYZE) — sequential scans on big tables are listed as MISS:")
    for name, stmt in statements.items():
        plan = await explain(engine, stmt)
        bad = seq_scans(plan)
        out[name] = {"plan": plan, "seq_scans": bad}
        nodes = [line.strip() for line in plan.splitlines() if "Scan" in line or "Join" in line]
        print(f"  {'MISS' if bad else 'ok  '} {name}: {' | '.join(nodes[:4])}")
    return out


def report(out: dict[str, Any]) -> bool:
    ok = True
    print("\nGoals:")
    checks = [
        ("history p50 (worst single filter)", max(r["p50_ms"] for r in out["history"].values()), GOALS["history"]),
        ("figures p50 (worst range)", max(r["p50_ms"] for r in out["figures"].values()), GOALS["figures"]),
        ("1,000-action replay: page JSON p50", out["replay"]["page JSON (detail + timeline)"]["p50_ms"],
         GOALS["replay"]),
        ("1,000-action replay: engine replay p50", out["replay"]["log replayed through the engine"]["p50_ms"],
         GOALS["replay"]),
    ]
    for name, value, goal in checks:
        passed = value <= goal
        ok &= passed
        print(f"  {'PASS' if passed else 'MISS'}  {name}: {value:.1f} ms (goal <= {goal:g} ms)")
    scans = [n for n, p in out["explain"].items() if p["seq_scans"]]
    print(f"  {'PASS' if not scans else 'MISS'}  no sequential scan on {', '.join(BIG)}"
          + (f": {', '.join(scans)}" if scans else ""))
    return ok and not scans


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--matches", type=int, default=200_000)
    ap.add_argument("--days", type=int, default=730, help="the matches are spread over this many days")
    ap.add_argument("--templates", type=int, default=150, help="template matches played through the service")
    ap.add_argument("--long", type=int, default=1000, help="log entries of the long match")
    ap.add_argument("--repeats", type=int, default=30)
    ap.add_argument("--seed", type=int, default=10)
    ap.add_argument("--quick", action="store_true", help="20,000 matches and 10 repeats (a smoke run)")
    ap.add_argument("--keep", action="store_true", help="keep the database (its name is printed)")
    args = ap.parse_args()
    if args.quick:
        args.matches, args.repeats, args.templates = 20_000, 10, 40
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores", flush=True)
    out = asyncio.run(run(args))
    passed = report(out)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(out, indent=1, default=str))
    print(f"\nresults: {RESULTS}")
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())

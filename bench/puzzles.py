"""Puzzles: how fast they are served, and how many self-play yields.

    .venv/bin/python bench/puzzles.py [--requests 300] [--database sqlite|URL] [--mine 0]

Serving: a server (in this process, through httpx's ASGI transport, so the
figure is the app's own time, not the network's) with the shipped set loaded;
an account signs in by token and asks `GET /api/v1/puzzles/next` and sends a
wrong first action to `POST /api/v1/puzzles/{id}/attempt` (rated, so each
try writes the player's and the puzzle's ratings), `--requests` of each; the
answers' p50/p95/max in ms. The goal is p95 < 100 ms.

Mining: the shipped set's own log (`--log`, what `python -m app.puzzles mine`
printed) gives the yield, puzzles per 100 self-play matches, and the CPU
seconds a match costs; `--mine N` mines N more matches here to measure it afresh.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.config import Settings  # noqa: E402
from app.main import create_app  # noqa: E402
from app.puzzles.mining import mine_games  # noqa: E402
from app.puzzles.service import read_seed  # noqa: E402
from app.rules import action_json, from_text, legal_actions  # noqa: E402


def wrong(rec: dict) -> dict:
    right = rec["solution"][0]["action"]
    return next(a for a in (action_json(x) for x in legal_actions(from_text(rec["position"]))) if a != right)


def spread(ms: list[float]) -> dict[str, float]:
    ms = sorted(ms)
    return {"p50": round(statistics.median(ms), 1), "p95": round(ms[int(0.95 * (len(ms) - 1))], 1),
            "max": round(ms[-1], 1), "n": len(ms)}


async def serve(url: str, requests: int) -> dict[str, dict[str, float]]:
    # Serving measured, not the write budget (an attempt counts against it: tests/api/test_puzzles.py).
    settings = Settings(_env_file=None, database_url=url, sweep_seconds=3600.0,  # type: ignore[call-arg]
                        rate_limit_writes=10**6)
    app = create_app(settings)
    seed = {rec["id"]: rec for rec in read_seed()}
    async with app.router.lifespan_context(app):
        accounts = app.state.parts.accounts
        account = await accounts.sign_up("Bench", "correct horse battery", "10.9.9.9")
        token, _ = await accounts.create_token(account, "bench", ["play", "read"])
        headers = {"Authorization": f"Bearer {token}"}
        transport = httpx.ASGITransport(app=app)
        nexts: list[float] = []
        tries: list[float] = []
        next_cpu: list[float] = []  # this process's CPU per request: what the load average does not stretch
        async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
            for _ in range(requests):
                t0, c0 = time.perf_counter(), time.process_time()
                r = await client.get("/api/v1/puzzles/next", headers=headers)
                nexts.append((time.perf_counter() - t0) * 1000)
                next_cpu.append((time.process_time() - c0) * 1000)
                assert r.status_code == 200, r.text
                rec = seed[r.json()["id"]]
                t0 = time.perf_counter()
                r = await client.post(f"/api/v1/puzzles/{rec['id']}/attempt", json={"actions": [wrong(rec)]},
                                      headers=headers)
                tries.append((time.perf_counter() - t0) * 1000)
                assert r.status_code == 200, r.text
    return {"next": spread(nexts), "next_cpu": spread(next_cpu), "attempt": spread(tries)}


def yield_from_log(path: Path) -> dict[str, float]:
    matches = puzzles = 0
    cpu = 0.0
    for line in path.read_text().splitlines():
        if line.startswith("match "):
            matches += 1
            found = int(line.split(": ")[1].split(" ")[0])
            puzzles += found
            cpu += float(line.split("(")[1].split(" ")[0])
    return {"matches": matches, "puzzles": puzzles, "per_100": round(100 * puzzles / max(matches, 1), 1),
            "cpu_s_per_match": round(cpu / max(matches, 1), 2)}


def main() -> None:
    import logging

    logging.getLogger("httpx").setLevel(logging.WARNING)  # one line a request would drown the figures
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--database", default="sqlite")
    parser.add_argument("--log", type=Path, default=Path(__file__).with_name("puzzles_mine.log"))
    parser.add_argument("--mine", type=int, default=0)
    args = parser.parse_args()
    out: dict[str, object] = {"shipped": len(read_seed())}
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite+aiosqlite:///{folder}/bench.sqlite3" if args.database == "sqlite" else args.database
        out["serving_ms"] = asyncio.run(serve(url, args.requests))
    if args.log.exists():
        out["mining_shipped_run"] = yield_from_log(args.log)
    if args.mine:
        t0, cpu0 = time.perf_counter(), time.process_time()
        found = sum(len(recs) for _, recs, _ in mine_games("bench", args.mine))
        out["mining_now"] = {"matches": args.mine, "puzzles": found, "per_100": round(100 * found / args.mine, 1),
                             "cpu_s_per_match": round((time.process_time() - cpu0) / args.mine, 2),
                             "wall_s": round(time.perf_counter() - t0, 1)}
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()

"""Quick pairing's latency (issue 20): from the second player's press to both
sides holding the match, with 2, 20 and 200 players waiting.

    .venv/bin/python bench/pairing.py [--quick] [--waiting 2,20,200] [--trials 30]

One real uvicorn process on a fresh SQLite file (as tests/browser's servers
run). `W` accounts wait in the pool `standard:10+5`, each holding
`GET /pools/wait` as the home page does (asked again at once after each
answer), each with its own rating, ten points apart, and the server's range
set to nothing (POOL_RANGE_START=0, POOL_RANGE_PER_SECOND=0): so each press,
by a fresh account rated as one chosen waiter, is paired with that waiter and
no other, while the other waiters keep the server as busy as waiters do. A
trial times the press (`POST /pools/standard:10+5/join`) until both its own
answer and the chosen waiter's held wait say "paired", with the same match;
the waiter then joins again. Goal: p50 <= 1 s once a partner is there.
Results in bench/results/pairing.json.
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
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.browser.conftest import run_server  # noqa: E402

POOL = "standard:10+5"
CHEAP = {"PASSWORD_TIME_COST": "1", "PASSWORD_MEMORY_KIB": "8", "PASSWORD_PARALLELISM": "1"}


async def _accounts(url: str, names: list[str], ratings: list[float]) -> list[str]:
    """Accounts made straight in the server's database, each with a play token and a rating."""
    from sqlalchemy import insert

    from app.accounts import Accounts
    from app.auth import PasswordChecks, use_password_costs
    from app.config import Settings
    from app.db import make_engine
    from app.db.account_models import ratings as rating_rows

    use_password_costs(1, 8, 1)
    engine = make_engine(url)
    accounts = Accounts(engine, Settings(_env_file=None, database_url=url), PasswordChecks(1, 8))  # type: ignore[call-arg]
    tokens = []
    try:
        for name, rating in zip(names, ratings, strict=True):
            account = await accounts.sign_up(name, "correct horse battery", f"10.0.{len(tokens)}.{name}")
            token, _ = await accounts.create_token(account, "bench", ["play", "read"])
            tokens.append(token)
            async with engine.begin() as conn:
                await conn.execute(insert(rating_rows).values(account_id=account.id, variant="standard",
                                                              rating=rating, rd=60.0, volatility=0.06, games=20))
    finally:
        await engine.dispose()
    return tokens


def _address(n: int) -> str:
    """A player's own address (named through the trusted proxy): the pools never pair two of one."""
    return f"10.{n // 65536 % 256}.{n // 256 % 256}.{n % 256}"


class Waiter:
    def __init__(self, http: httpx.AsyncClient, token: str, address: str) -> None:
        self.http, self.headers = http, {"Authorization": f"Bearer {token}", "X-Forwarded-For": address}
        self.paired: asyncio.Queue[tuple[float, str]] = asyncio.Queue()
        self.stop = False

    async def run(self) -> None:
        await self.http.post(f"/api/v1/pools/{POOL}/join", json={}, headers=self.headers)
        while not self.stop:
            r = await self.http.get("/api/v1/pools/wait", params={"timeout": 10}, headers=self.headers)
            body = r.json()
            if r.status_code == 200 and body["status"] == "paired":
                self.paired.put_nowait((time.perf_counter(), body["match"]["id"]))
                await self.http.post(f"/api/v1/pools/{POOL}/join", json={}, headers=self.headers)
            elif r.status_code != 200:
                await self.http.post(f"/api/v1/pools/{POOL}/join", json={}, headers=self.headers)
        await self.http.post("/api/v1/pools/leave", headers=self.headers)  # the next size's pool is its own


async def _all_waiting(http: httpx.AsyncClient, waiting: int) -> None:
    """Until the pool counts every waiter: a fixed pause was too short for 200
    joins when the server paired each join slowly, and the first trials then
    pressed for waiters not yet in the pool."""
    while True:
        pools = (await http.get("/api/v1/pools")).json()["pools"]
        if next(p["waiting"] for p in pools if p["id"] == POOL) >= waiting:
            await asyncio.sleep(0.5)  # each holding its wait
            return
        await asyncio.sleep(0.2)


async def _measure(base: str, url: str, waiting: int, trials: int, tag: str) -> dict[str, Any]:
    ratings = [1000.0 + 10 * i for i in range(waiting)]
    waiter_tokens = await _accounts(url, [f"w{tag}x{i}" for i in range(waiting)], ratings)
    chosen = [i % waiting for i in range(trials)]
    presser_tokens = await _accounts(url, [f"p{tag}x{i}" for i in range(trials)], [ratings[i] for i in chosen])
    limits = httpx.Limits(max_connections=waiting + 20, max_keepalive_connections=waiting + 20)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as http:
        waiters = [Waiter(http, t, _address(i + 1)) for i, t in enumerate(waiter_tokens)]
        tasks = [asyncio.create_task(w.run()) for w in waiters]
        await _all_waiting(http, waiting)
        both, own = [], []
        for trial, who in enumerate(chosen):
            waiter = waiters[who]
            start = time.perf_counter()
            r = await http.post(f"/api/v1/pools/{POOL}/join", json={},
                                headers={"Authorization": f"Bearer {presser_tokens[trial]}",
                                         "X-Forwarded-For": _address(100_000 + trial)})
            answered = time.perf_counter()
            body = r.json()
            if r.status_code != 200:
                raise AssertionError((r.status_code, body))
            if body["status"] != "paired":
                import sqlite3
                rows = sqlite3.connect(url.split("///", 1)[1]).execute(
                    "select player, rating, lease_until_ms, match_id, last_opponent from pool_seekers").fetchall()
                raise AssertionError((body, rows, time.time()))
            heard, match_id = await asyncio.wait_for(waiter.paired.get(), 30)
            assert match_id == body["match"]["id"], (match_id, body)
            own.append(answered - start)
            both.append(max(answered, heard) - start)
            await asyncio.sleep(0.3)  # the waiter back in the pool
        for w in waiters:
            w.stop = True
        await asyncio.wait(tasks, timeout=60)  # each ends after its held wait (10 s at most) and leaves
    both.sort()
    return {"waiting": waiting, "trials": trials, "p50_s": statistics.median(both),
            "p99_s": both[min(len(both) - 1, round(0.99 * (len(both) - 1)))],
            "presser_p50_s": statistics.median(own)}


async def _main(sizes: list[int], trials: int) -> list[dict[str, Any]]:
    results = []
    with tempfile.TemporaryDirectory() as folder, run_server(
            Path(folder), POOL_RANGE_START="0", POOL_RANGE_PER_SECOND="0", POOL_LEASE_SECONDS="30", POOL_AGAIN_SECONDS="0",
            TRUSTED_PROXIES='["127.0.0.1"]', **CHEAP) as server:
        for size in sizes:
            results.append(await _measure(server.base, server.database_url, size, trials, str(size)))
            print(f"{size:>4} waiting: both sides p50 {results[-1]['p50_s'] * 1000:7.1f} ms, "
                  f"p99 {results[-1]['p99_s'] * 1000:7.1f} ms (presser's own answer p50 "
                  f"{results[-1]['presser_p50_s'] * 1000:.1f} ms)", flush=True)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--waiting", default="2,20,200")
    parser.add_argument("--trials", type=int, default=30)
    parser.add_argument("--quick", action="store_true", help="10 trials each")
    args = parser.parse_args()
    sizes = [int(s) for s in args.waiting.split(",")]
    results = asyncio.run(_main(sizes, 10 if args.quick else args.trials))
    verdict = all(r["p50_s"] <= 1.0 for r in results)
    print(f"goal p50 <= 1 s once a partner is there: {'PASS' if verdict else 'MISS'}")
    out = ROOT / "bench" / "results"
    out.mkdir(exist_ok=True)
    (out / "pairing.json").write_text(json.dumps({"results": results, "pass": verdict}, indent=2))


if __name__ == "__main__":
    main()

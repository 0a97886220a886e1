"""Does a bot's search hold up anyone else? Another match's requests, timed
with no bot thinking and while `strong` bots think for --think seconds.

    .venv/bin/python bench/bot_loop.py                 # 3 searches of 3 s, SQLite
    .venv/bin/python bench/bot_loop.py --bots 2 --rounds 5 --postgres

It starts one real server process (uvicorn --factory app.main:create_app, as scripts/serve
does), creates `--bots` matches against `bot:strong` with bot_think_seconds =
--think and one human-v-human match (the "other" match). Then, in turns:

  quiet:  the other match is read (GET match, GET legal) and played (POST an
          action) back to back for --think seconds, with no bot thinking;
  search: a move is played in each bot match, so each bot starts a search of
          --think seconds in the server's worker pool, and the other match is
          served the same way until the bots have answered.

It reports p50/p99/max latency of the other match's requests in each window,
the ratio of the p99s, and how long each search took to land. The search runs
in worker processes, so the server's event loop should answer as if nothing
were happening; on a 2-core machine the worker and the server share the cores,
so some slowdown is the machine, not the loop. Results go to
bench/results/bot_loop.json. Tests never import this file.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.api import PG, _pg, free_port, start_server, stop_server, wait_ready  # noqa: E402
from bench.wire import Connection  # noqa: E402

RESULTS = ROOT / "bench" / "results" / "bot_loop.json"
BACKROW = ["dragon", "elemental", "construct", "fey", "spirit", "myrmidon", "undead", "beast"]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


class Other:
    """The other match: two human seats playing random legal actions."""

    def __init__(self, http: Connection, rng: random.Random) -> None:
        self.http, self.rng = http, rng
        self.id = ""
        self.tokens: dict[str, str] = {}

    async def start(self) -> None:
        made = (await self.http.post("/api/v1/matches", {"name": "Ada"})).json()
        self.id = made["match"]["id"]
        joined = (await self.http.post(f"/api/v1/matches/{self.id}/join", {"name": "Bo"})).json()
        self.tokens = {made["seat"]: made["token"], joined["seat"]: joined["token"]}

    async def serve_for(self, seconds: float, until: asyncio.Event | None = None) -> list[float]:
        """Back-to-back requests for `seconds` (or until `until` is set); their latencies in ms."""
        times: list[float] = []
        end = time.monotonic() + seconds
        while (until is None and time.monotonic() < end) or (until is not None and not until.is_set()):
            for latency in await self.one_turn():
                times.append(latency)
        return times

    async def one_turn(self) -> list[float]:
        out = []
        t = time.perf_counter()
        match = (await self.http.get(f"/api/v1/matches/{self.id}")).json()
        out.append((time.perf_counter() - t) * 1000)
        if match["status"] != "active":
            await self.start()
            return out
        auth = {"Authorization": f"Bearer {self.tokens[match['to_move']]}"}
        t = time.perf_counter()
        legal = (await self.http.get(f"/api/v1/matches/{self.id}/legal", headers=auth)).json()
        out.append((time.perf_counter() - t) * 1000)
        if legal["setup"]:
            action: dict[str, Any] = {"type": "setup", "backrow": self.rng.sample(legal["setup"], 8)}
        else:
            action = self.rng.choice(legal["actions"])
        t = time.perf_counter()
        await self.http.post(f"/api/v1/matches/{self.id}/actions",
                             {"action": action, "version": legal["version"]}, headers=auth)
        out.append((time.perf_counter() - t) * 1000)
        return out


class BotMatch:
    """A match against bot:strong; the person (Black) plays at random, the bot thinks."""

    def __init__(self, http: Connection, rng: random.Random, think: float) -> None:
        self.http, self.rng, self.think = http, rng, think
        self.id, self.token = "", ""

    async def start(self) -> None:
        made = (await self.http.post("/api/v1/matches", {
            "name": "Ada", "seat": "black", "opponent": "bot:strong",
            "options": {"bot_think_seconds": self.think}})).json()
        self.id, self.token = made["match"]["id"], made["token"]

    async def state(self) -> dict[str, Any]:
        return dict((await self.http.get(f"/api/v1/matches/{self.id}")).json())

    async def my_move(self) -> int:
        """Waits for the person's turn, plays a random legal action; the version it made."""
        while True:
            match = await self.state()
            if match["status"] != "active":
                await self.start()
                continue
            if match["to_move"] == "black":
                break
            await asyncio.sleep(0.05)
        auth = {"Authorization": f"Bearer {self.token}"}
        legal = (await self.http.get(f"/api/v1/matches/{self.id}/legal", headers=auth)).json()
        action = ({"type": "setup", "backrow": BACKROW} if legal["setup"] else self.rng.choice(legal["actions"]))
        answer = (await self.http.post(f"/api/v1/matches/{self.id}/actions",
                                       {"action": action, "version": legal["version"]}, headers=auth)).json()
        return int(answer["match"]["version"])

    async def bot_answered(self, after: int) -> float:
        """Seconds until the bot has acted after version `after` (the person's turn again)."""
        t = time.monotonic()
        while True:
            match = await self.state()
            if match["version"] > after and (match["to_move"] == "black" or match["status"] != "active"):
                return time.monotonic() - t
            await asyncio.sleep(0.05)


async def wait_all(bots: list[BotMatch], versions: list[int], done: asyncio.Event) -> list[float]:
    """Seconds until each bot has answered; sets `done` when the last has."""
    got = await asyncio.gather(*(b.bot_answered(v) for b, v in zip(bots, versions, strict=True)))
    done.set()
    return list(got)


async def run(port: int, args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(args.seed)
    async with Connection("127.0.0.1", port) as main_http:
        other = Other(main_http, rng)
        await other.start()
        bots = []
        for _ in range(args.bots):
            http = Connection("127.0.0.1", port)
            await http.__aenter__()
            bot = BotMatch(http, rng, args.think)
            await bot.start()
            bots.append(bot)
        for bot in bots:  # through setup, which needs no search
            await bot.my_move()
        quiet: list[float] = []
        during: list[float] = []
        searches: list[float] = []
        for _ in range(args.rounds):
            # Each bot's turn must have been played before the quiet window.
            for bot in bots:
                v = (await bot.state())["version"]
                await bot.bot_answered(v - 1)
            quiet += await other.serve_for(args.think)
            versions = [await bot.my_move() for bot in bots]
            done = asyncio.Event()
            waited, served = await asyncio.gather(wait_all(bots, versions, done), other.serve_for(0, until=done))
            searches += waited
            during += served
        for bot in bots:
            await bot.http.close()
    q99, d99 = percentile(quiet, 0.99), percentile(during, 0.99)
    return {
        "quiet": {"requests": len(quiet), "p50_ms": round(statistics.median(quiet), 2),
                  "p99_ms": round(q99, 2), "max_ms": round(max(quiet), 2)},
        "during_search": {"requests": len(during), "p50_ms": round(statistics.median(during), 2),
                          "p99_ms": round(d99, 2), "max_ms": round(max(during), 2)},
        "p99_ratio": round(d99 / q99, 2),
        "search_landed_s": {"median": round(statistics.median(searches), 2), "max": round(max(searches), 2)},
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--think", type=float, default=3.0, help="bot_think_seconds of the bot matches")
    ap.add_argument("--bots", type=int, default=1, help="bots thinking at once")
    ap.add_argument("--rounds", type=int, default=3, help="quiet/search windows")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--postgres", action="store_true", help="a fresh PostgreSQL database instead of SQLite")
    ap.add_argument("--output", default=str(RESULTS))
    args = ap.parse_args()
    port = free_port()
    folder = tempfile.mkdtemp(prefix="bot-loop-")
    db = f"magery_botloop_{os.getpid()}"
    url = (f"{PG.replace('postgresql://', 'postgresql+asyncpg://')}/{db}" if args.postgres
           else f"sqlite+aiosqlite:///{folder}/bench.sqlite3")
    if args.postgres:
        asyncio.run(_pg(f'CREATE DATABASE "{db}"'))
    env = {"DATABASE_URL": url, "RATE_LIMIT_WRITES": "1000000000", "RATE_LIMIT_READS": "1000000000", "PYTHONPATH": str(ROOT),
           "BOT_WORKERS": str(max(1, args.bots)), "LOG_LEVEL": "WARNING"}
    server = start_server("app.main:create_app", port, env, None)
    try:
        wait_ready(f"http://127.0.0.1:{port}/readyz", server)
        result = asyncio.run(run(port, args))
    finally:
        stop_server(server)
        if args.postgres:
            asyncio.run(_pg(f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)'))
    result.update({"think_s": args.think, "bots": args.bots, "rounds": args.rounds,
                   "database": "postgresql" if args.postgres else "sqlite",
                   "load_average": os.getloadavg(), "cpus": os.cpu_count(),
                   "at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())})
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    Path(args.output).write_text(json.dumps(result, indent=1) + "\n")
    q, d = result["quiet"], result["during_search"]
    print(f"{args.bots} strong bot(s) thinking {args.think:g} s, {args.rounds} rounds, {result['database']}; "
          f"load average {result['load_average'][0]:.2f} on {result['cpus']} cores")
    print(f"  other match, quiet:         {q['requests']:5d} requests  p50 {q['p50_ms']:.2f} ms  "
          f"p99 {q['p99_ms']:.2f} ms  max {q['max_ms']:.2f} ms")
    print(f"  other match, during search: {d['requests']:5d} requests  p50 {d['p50_ms']:.2f} ms  "
          f"p99 {d['p99_ms']:.2f} ms  max {d['max_ms']:.2f} ms")
    print(f"  p99 during / quiet: {result['p99_ratio']:.2f}x; a search landed after "
          f"{result['search_landed_s']['median']:.2f} s (median), {result['search_landed_s']['max']:.2f} s (max)")
    print(f"written {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

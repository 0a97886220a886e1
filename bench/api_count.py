"""Instructions per action of the real server, counted by callgrind.

    .venv/bin/python bench/api_count.py [--actions 300] [--clients 8] [--top 25]

Throughput on this shared 2-core machine swings with what other sessions do
(bench/api.py); an instruction count does not. This starts one server process
(`app.main:create_app`, uvicorn, on a fresh PostgreSQL database, dropped at the
end) under `valgrind --tool=callgrind --instr-atstart=no`, plays matches of
fixed seeds against it from this process (bench/api.py's clients: create, join,
setups, random legal actions), and switches instrumentation on only while
`--actions` actions are played (`callgrind_control -i on/off`), after a warm-up
of as many. What is counted is the server's work alone (HTTP, the app,
asyncpg), not the clients' and not PostgreSQL's; PostgreSQL's own CPU
time over the same actions (its backends' user + system time) is printed beside. Prints the total and the
instructions per action, and with `--top` the heaviest functions (inclusive)
by `callgrind_annotate`. The dump is left in bench/results/api-count.out.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import subprocess
import sys
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.rules import action_json, apply_steps, legal_actions, new_match  # noqa: E402
from app.rules.state import OVER, SETUP  # noqa: E402
from bench.api import BACKROW, PG, PYTHON, _pg, cpu_seconds, free_port, stop_server, wait_ready  # noqa: E402
from bench.wire import Connection  # noqa: E402

OUT = ROOT / "bench" / "results" / "api-count.out"


class Budget:
    """Actions left to play, shared by the clients."""

    def __init__(self, actions: int) -> None:
        self.left = actions

    def take(self) -> bool:
        if self.left <= 0:
            return False
        self.left -= 1
        return True


async def play(port: int, budget: Budget, rng: random.Random) -> None:
    """Whole matches of `rng`'s seeds until the budget is spent (the last one left unfinished)."""
    async with Connection("127.0.0.1", port) as http:
        while budget.left > 0:
            seed = f"{rng.getrandbits(128):032x}"
            r = await http.post("/api/v1/matches", json_body={
                "options": {"variant": "standard", "seed": seed}, "seat": "white", "name": "count-w"})
            created = r.json()
            mid, tokens = created["match"]["id"], {0: created["token"]}
            joined = (await http.post(f"/api/v1/matches/{mid}/join", json_body={"name": "count-b"})).json()
            tokens[1], version = joined["token"], joined["match"]["version"]
            state = new_match(seed=seed)
            while state.phase != OVER and budget.take():
                if state.phase == SETUP:
                    row = BACKROW[:]
                    rng.shuffle(row)
                    action = ("setup", tuple(BACKROW.index(t) for t in row))
                else:
                    action = rng.choice(legal_actions(state))
                body = {"action": action_json(action), "version": version, "id": uuid.uuid4().hex}
                r = await http.post(f"/api/v1/matches/{mid}/actions", json_body=body,
                                    headers={"Authorization": f"Bearer {tokens[state.to_move]}"})
                if r.status_code != 200:
                    raise RuntimeError(f"action {body}: {r.status_code} {r.text[:300]}")
                steps = apply_steps(state, action)
                state, version = steps[-1][2], version + len(steps)


async def round_of(port: int, actions: int, clients: int, seed: int) -> None:
    budget = Budget(actions)
    await asyncio.gather(*(play(port, budget, random.Random(seed * 100 + i)) for i in range(clients)))


async def backends(db: str) -> list[int]:
    """The PostgreSQL server processes serving `db` now (the server's pool)."""
    import asyncpg

    conn = await asyncpg.connect(f"{PG}/postgres")
    try:
        rows = await conn.fetch("SELECT pid FROM pg_stat_activity WHERE datname = $1", db)
    finally:
        await conn.close()
    return [r["pid"] for r in rows]


def cpu_of(pids: list[int]) -> float:
    """CPU seconds the processes have spent so far (those still there: Linux /proc)."""
    return sum(cpu_seconds(pid) for pid in pids if Path(f"/proc/{pid}").exists())


def control(*args: str) -> None:
    subprocess.run(["callgrind_control", *args], check=True, stdout=subprocess.DEVNULL)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--actions", type=int, default=300)
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--top", type=int, default=0, help="also print the N heaviest functions (inclusive)")
    args = ap.parse_args()
    db = f"magery_count_{os.getpid()}"
    url = f"{PG.replace('postgresql://', 'postgresql+asyncpg://')}/{db}"
    env = {**os.environ, "DATABASE_URL": url, "RATE_LIMIT_WRITES": "1000000000",
           "RATE_LIMIT_READS": "1000000000", "SWEEP_SECONDS": "3600", "PYTHONPATH": str(ROOT)}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.unlink(missing_ok=True)
    asyncio.run(_pg(f'CREATE DATABASE "{db}"'))
    port = free_port()
    server = subprocess.Popen(
        ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={OUT}",
         PYTHON, "-m", "uvicorn", "--factory", "app.main:create_app", "--host", "127.0.0.1",
         "--port", str(port), "--log-level", "warning", "--no-access-log"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    try:
        wait_ready(f"http://127.0.0.1:{port}/healthz", server, timeout=300)
        asyncio.run(round_of(port, args.actions, args.clients, seed=1))  # warm: caches, pool, imports
        pids = asyncio.run(backends(db))
        pg0 = cpu_of(pids)
        control("-i", "on", str(server.pid))
        asyncio.run(round_of(port, args.actions, args.clients, seed=2))
        control("-i", "off", str(server.pid))
        pg = cpu_of(pids) - pg0
    finally:
        stop_server(server)
        asyncio.run(_pg(f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)'))
    text = OUT.read_text(errors="replace")
    total = sum(int(n) for n in re.findall(r"^totals: (\d+)", text, re.M)[:1])
    print(f"{total:,} instructions over {args.actions} actions: {total / args.actions / 1e6:.3f} M per action")
    print(f"PostgreSQL: {1000 * pg / args.actions:.3f} ms of CPU per action ({len(pids)} backends; "
          "creates and joins included; a backend opened meanwhile is missed)")
    if args.top:
        shown = subprocess.run(["callgrind_annotate", "--inclusive=yes", str(OUT)], capture_output=True,
                               text=True).stdout.splitlines()
        print("\n".join(shown[:args.top + 25]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

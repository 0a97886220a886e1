"""A/B of the server's CPU per action: two trees' app servers on one database,
driven alternately by the same paced clients; prints CPU ms per request and
latency per round. `ab.py <tree A> <tree B> [rate] [rounds]`. Not a goal check."""
from __future__ import annotations

import asyncio
import multiprocessing as mp
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.api import PG, _pg, free_port, run_load, stop_server, wait_ready  # noqa: E402


def start(tree: str, port: int, env: dict[str, str]) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, "-m", "uvicorn", "--factory", "app.main:create_app", "--host", "127.0.0.1", "--port", str(port),
           "--log-level", "warning", "--no-access-log"]
    return subprocess.Popen(cmd, cwd=tree, env={**os.environ, **env, "PYTHONPATH": tree},
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)


def main() -> None:
    trees = sys.argv[1:3]
    rate = float(sys.argv[3]) if len(sys.argv) > 3 else 150.0
    rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 3
    db = f"magery_ab_{os.getpid()}"
    url = f"{PG.replace('postgresql://', 'postgresql+asyncpg://')}/{db}"
    env = {"DATABASE_URL": url, "RATE_LIMIT_WRITES": "1000000000", "RATE_LIMIT_READS": "1000000000", "SWEEP_SECONDS": "1"}
    asyncio.run(_pg(f'CREATE DATABASE "{db}"'))
    procs = []
    try:
        bases = []
        for tree in trees:
            port = free_port()
            p = start(tree, port, env)
            procs.append(p)
            wait_ready(f"http://127.0.0.1:{port}/api/v1/matches?limit=1", p)
            bases.append(f"http://127.0.0.1:{port}")
        with mp.get_context("spawn").Pool(1) as pool:
            for r in range(rounds):
                for name, base, p in zip("AB", bases, procs, strict=True):
                    for kind, rt in (("peak", None), ("paced", rate)):
                        f = run_load(pool, 1, "app", base, 32, rt, 1.0, 4.0, p.pid)
                        print(f"round {r} {name} {kind:5}: {f['per_second']:.0f}/s cpu "
                              f"{f['server_cpu_ms_per_request']:.2f} ms/req p50 {f['p50_ms']:.2f} "
                              f"p99 {f['p99_ms']:.2f}", flush=True)
    finally:
        for p in procs:
            stop_server(p)
        asyncio.run(_pg(f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)'))


if __name__ == "__main__":
    main()

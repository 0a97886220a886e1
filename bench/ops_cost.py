"""What operations cost the REST API: bench/api.py's peak load, with metrics on
and off, against its yardstick.

    .venv/bin/python bench/ops_cost.py [--quick] [--rounds 3]

Three servers on one fresh PostgreSQL database (dropped at the end): the
yardstick (bench/api_yardstick.py), the real server as it ships (metrics,
request ids, JSON logs), and the same with `METRICS=false`. bench/api.py's 32
scripted clients drive each at peak in turns (yardstick, on, off; `--rounds`
times; each server started for its turn and stopped after), so the machine's
drift falls on all three; the medians are compared.

`--against DIR` runs the third server from another copy of the code instead
(e.g. the commit before operations: `git archive df30916 | tar -x -C /tmp/base`),
on the same virtualenv: what operations cost in all (request ids, JSON logs and
metrics), not metrics alone.

Goal (issue 12): actions/s with metrics on >= 0.9 x the yardstick's requests/s.
Also printed: on / off, what metrics and request ids cost by themselves, and
the server CPU time per request of each (which a busy machine moves less than
throughput).
Results in bench/results/ops_cost.json.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.api import PG, _pg, free_port, run_load, start_server, stop_server, wait_ready  # noqa: E402

RESULTS = ROOT / "bench" / "results" / "ops_cost.json"
GOAL = 0.9


def start_elsewhere(code: Path, port: int, env: dict[str, str]) -> subprocess.Popen[bytes]:
    """The server of the code in `code` (its own app/, on this virtualenv)."""
    return subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "--factory", "app.main:create_app", "--host", "127.0.0.1", "--port", str(port),
         "--log-level", "warning", "--no-access-log"],
        cwd=code, env={**os.environ, **env, "PYTHONPATH": str(code)},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="short windows")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--clients", type=int, default=32)
    ap.add_argument("--against", metavar="DIR", help="run the third server from the code in DIR")
    args = ap.parse_args()
    warm, measure = (1.0, 3.0) if args.quick else (2.0, 8.0)
    db = f"magery_bench_ops_{os.getpid()}"
    url = f"{PG.replace('postgresql://', 'postgresql+asyncpg://')}/{db}"
    # One server at a time (started for its turn, stopped after), with the pools
    # they ship with: three at once could hold more than PostgreSQL's 100
    # connections between them on a machine others use too.
    env = {"DATABASE_URL": url, "RATE_LIMIT_WRITES": "1000000000", "RATE_LIMIT_READS": "1000000000", "SWEEP_SECONDS": "1",
           "PYTHONPATH": str(ROOT)}
    third = f"code in {args.against}" if args.against else "metrics off"
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    asyncio.run(_pg(f'CREATE DATABASE "{db}"'))
    runs: dict[str, list[dict[str, float]]] = {"yardstick": [], "metrics on": [], third: []}

    def start(name: str, port: int) -> subprocess.Popen[bytes]:
        if name == "yardstick":
            proc = start_server("bench.api_yardstick:app", port, env, None)
            wait_ready(f"http://127.0.0.1:{port}/health", proc)
            return proc
        if name == third and args.against:
            proc = start_elsewhere(Path(args.against), port, env)
        else:
            proc = start_server("app.main:create_app", port, {**env, "METRICS": "false"} if name == third else env, None)
        wait_ready(f"http://127.0.0.1:{port}/api/v1/matches?limit=1", proc)
        return proc

    try:
        with mp.get_context("spawn").Pool(2) as pool:
            for turn in range(args.rounds):
                for name in runs:
                    port = free_port()
                    proc = start(name, port)
                    try:
                        kind = "yardstick" if name == "yardstick" else "app"
                        got = run_load(pool, 2, kind, f"http://127.0.0.1:{port}", args.clients, None, warm,
                                       measure, proc.pid)
                    finally:
                        stop_server(proc)
                    runs[name].append(got)
                    print(f"  round {turn + 1}: {name:11} {got['per_second']:6.0f}/s, "
                          f"p50 {got['p50_ms']:.2f} ms, server CPU {got['server_cpu_ms_per_request']:.3f} ms "
                          "per request", flush=True)
    finally:
        asyncio.run(_pg(f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)'))
    median = {name: statistics.median(r["per_second"] for r in got) for name, got in runs.items()}
    median["metrics off"] = median[third]  # the names below
    cpu = {name: statistics.median(r["server_cpu_ms_per_request"] for r in got) for name, got in runs.items()}
    cpu["metrics off"] = cpu[third]
    on_ratio = median["metrics on"] / median["yardstick"]
    off_ratio = median["metrics off"] / median["yardstick"]
    print(f"\nmedian actions/s: metrics on {median['metrics on']:.0f}, off {median['metrics off']:.0f}; "
          f"yardstick {median['yardstick']:.0f} req/s")
    print(f"metrics on / yardstick:  {on_ratio:.2f}x (goal >= {GOAL}x)  "
          f"{'PASS' if on_ratio >= GOAL else 'MISS'}")
    print(f"{third} / yardstick: {off_ratio:.2f}x;  on / {third}: {median['metrics on'] / median['metrics off']:.2f}x")
    print(f"server CPU per request (median): metrics on {cpu['metrics on']:.3f} ms, {third} "
          f"{cpu['metrics off']:.3f} ms ({cpu['metrics on'] / cpu['metrics off']:.2f}x); yardstick "
          f"{cpu['yardstick']:.3f} ms. CPU moves less than throughput on a shared machine.")
    load = os.getloadavg()[0]
    if load > (os.cpu_count() or 1):
        print(f"(the machine was busy: load average {load:.1f} on {os.cpu_count()} CPUs)")
    RESULTS.write_text(json.dumps({"quick": args.quick, "rounds": args.rounds, "third": third, "runs": runs,
                                   "median_per_second": median, "median_cpu_ms_per_request": cpu, "on_ratio": on_ratio,
                                   "off_ratio": off_ratio, "goal": GOAL, "pass": on_ratio >= GOAL,
                                   "load_average": load}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""What operations cost the REST API: bench/api.py's peak load, with metrics on
and off, against its yardstick.

    .venv/bin/python bench/ops_cost.py [--quick] [--rounds 3]

Three server processes on one fresh PostgreSQL database (dropped at the end):
the yardstick (bench/api_yardstick.py), the real server as it ships (metrics,
request ids, JSON logs), and the same with `METRICS=false`. bench/api.py's 32
scripted clients drive each at peak in turns (yardstick, on, off; `--rounds`
times), so the machine's drift falls on all three; the medians are compared.

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
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.api import PG, _pg, free_port, run_load, start_server, stop_server, wait_ready  # noqa: E402

RESULTS = ROOT / "bench" / "results" / "ops_cost.json"
GOAL = 0.9


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="short windows")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--clients", type=int, default=32)
    args = ap.parse_args()
    warm, measure = (1.0, 3.0) if args.quick else (2.0, 8.0)
    db = f"magery_bench_ops_{os.getpid()}"
    url = f"{PG.replace('postgresql://', 'postgresql+asyncpg://')}/{db}"
    # Small pools: three servers share one PostgreSQL (100 connections by default).
    env = {"DATABASE_URL": url, "RATE_LIMIT_WRITES": "1000000000", "SWEEP_SECONDS": "1",
           "PYTHONPATH": str(ROOT), "DB_POOL_SIZE": "20", "DB_MAX_OVERFLOW": "4"}
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    asyncio.run(_pg(f'CREATE DATABASE "{db}"'))
    procs: dict[str, object] = {}
    runs: dict[str, list[dict[str, float]]] = {"yardstick": [], "metrics on": [], "metrics off": []}
    try:
        ports = {name: free_port() for name in runs}
        procs["yardstick"] = start_server("bench.api_yardstick:app", ports["yardstick"], env, None)
        procs["metrics on"] = start_server("app.main:app", ports["metrics on"], env, None)
        procs["metrics off"] = start_server("app.main:app", ports["metrics off"], {**env, "METRICS": "false"},
                                            None)
        bases = {name: f"http://127.0.0.1:{port}" for name, port in ports.items()}
        wait_ready(f"{bases['yardstick']}/health", procs["yardstick"])  # type: ignore[arg-type]
        for name in ("metrics on", "metrics off"):
            wait_ready(f"{bases[name]}/healthz", procs[name])  # type: ignore[arg-type]
        with mp.get_context("spawn").Pool(2) as pool:
            for turn in range(args.rounds):
                for name in runs:
                    kind = "yardstick" if name == "yardstick" else "app"
                    got = run_load(pool, 2, kind, bases[name], args.clients, None, warm, measure,
                                   procs[name].pid)  # type: ignore[attr-defined]
                    runs[name].append(got)
                    print(f"  round {turn + 1}: {name:11} {got['per_second']:6.0f}/s, "
                          f"p50 {got['p50_ms']:.2f} ms, server CPU {got['server_cpu_ms_per_request']:.3f} ms "
                          "per request", flush=True)
    finally:
        for proc in procs.values():
            stop_server(proc)  # type: ignore[arg-type]
        asyncio.run(_pg(f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)'))
    median = {name: statistics.median(r["per_second"] for r in got) for name, got in runs.items()}
    cpu = {name: statistics.median(r["server_cpu_ms_per_request"] for r in got) for name, got in runs.items()}
    on_ratio = median["metrics on"] / median["yardstick"]
    off_ratio = median["metrics off"] / median["yardstick"]
    print(f"\nmedian actions/s: metrics on {median['metrics on']:.0f}, off {median['metrics off']:.0f}; "
          f"yardstick {median['yardstick']:.0f} req/s")
    print(f"metrics on / yardstick:  {on_ratio:.2f}x (goal >= {GOAL}x)  "
          f"{'PASS' if on_ratio >= GOAL else 'MISS'}")
    print(f"metrics off / yardstick: {off_ratio:.2f}x;  on / off: {median['metrics on'] / median['metrics off']:.2f}x")
    print(f"server CPU per request (median): metrics on {cpu['metrics on']:.3f} ms, off "
          f"{cpu['metrics off']:.3f} ms ({cpu['metrics on'] / cpu['metrics off']:.2f}x); yardstick "
          f"{cpu['yardstick']:.3f} ms. CPU moves less than throughput on a shared machine.")
    load = os.getloadavg()[0]
    if load > (os.cpu_count() or 1):
        print(f"(the machine was busy: load average {load:.1f} on {os.cpu_count()} CPUs)")
    RESULTS.write_text(json.dumps({"quick": args.quick, "rounds": args.rounds, "runs": runs,
                                   "median_per_second": median, "median_cpu_ms_per_request": cpu, "on_ratio": on_ratio,
                                   "off_ratio": off_ratio, "goal": GOAL, "pass": on_ratio >= GOAL,
                                   "load_average": load}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

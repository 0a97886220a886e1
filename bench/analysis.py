"""Benchmark of the computer analysis: time per position and per match.

Run from the project's root:

    .venv/bin/python bench/analysis.py               # the default depth, a 300-version match
    .venv/bin/python bench/analysis.py --depths 2,3  # other depths beside
    .venv/bin/python bench/analysis.py --quick       # 100 versions

It plays one match (the strong level at a short think time against itself,
seeds tried in turn until one lasts 300 versions, counted as the server's log
counts them, R11's automatic passes included; its first 300 are kept,
and the match is kept in bench/results/ for the next run),
plans its positions as the server does (app/analysis/plies.py), and searches
them as the server does: in batches of `BATCH` positions, in ONE worker
process (a spawned ProcessPoolExecutor of one, as ANALYSIS_WORKERS=1), with
the same seeds. The goal: a 300-version match in <= 60 s at the default
depth, counted in the worker's CPU seconds (what one worker on a core of its
own would take: the wall time beside it depends on what else the machine
runs). It also counts the judgements the analysis gives the strong level's
own actions (a check on the thresholds: a good player's actions should rarely
read as mistakes). Results go to bench/results/analysis.json.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from app.analysis import plies as shaping  # noqa: E402
from app.analysis.engine import search_positions  # noqa: E402
from app.analysis.judge import judgement  # noqa: E402
from app.analysis.service import BATCH, _batches, _same_as_before  # noqa: E402
from app.bots import choose_with_info  # noqa: E402
from app.config import Settings  # noqa: E402
from app.rules import COLOURS, OVER, apply, new_match  # noqa: E402

GOAL_SECONDS = 60.0


def a_long_match(versions: int, think: float) -> tuple[Any, list[tuple[int, str, dict[str, Any], bool]], str]:
    """(the start, the log as the server keeps it, the seed) of the first match
    of the strong level against itself (thinking `think` CPU seconds) that
    lasts `versions` versions; kept in bench/results/analysis_match.json, so a
    second run analyses the same match without playing it again."""
    kept = ROOT / "bench" / "results" / "analysis_match.json"
    if kept.exists():
        held = json.loads(kept.read_text())
        if held["versions"] >= versions and held["think"] == think:
            log = [(v, e["player"], e["action"], e["automatic"])
                   for v, e in enumerate(held["log"][:versions], start=1)]
            return new_match(seed=held["seed"], variant="standard"), log, held["seed"]
    for n in range(200):
        seed = f"{n:032x}"
        entries = self_play(seed, think, versions)
        print(f"  seed {n}: {len(entries)} versions", flush=True)
        if len(entries) >= versions:
            kept.parent.mkdir(exist_ok=True)
            kept.write_text(json.dumps({"seed": seed, "think": think, "versions": len(entries), "log": entries}))
            log = [(v, e["player"], e["action"], e["automatic"]) for v, e in enumerate(entries[:versions], start=1)]
            return new_match(seed=seed, variant="standard"), log, seed
    raise SystemExit(f"no match of {versions} versions in 200 seeds")


def self_play(seed: str, think: float, most: int) -> list[dict[str, Any]]:
    """The strong level against itself from the seed, as the server logs it:
    each action, then the passes the engine made by itself (R11), as `auto`
    entries; stopped at `most` entries."""
    state = new_match(seed=seed, variant="standard")
    entries: list[dict[str, Any]] = []
    while state.phase != OVER and len(entries) < most:
        colour = COLOURS[state.to_move]
        action, _ = choose_with_info("strong", state.to_json(), len(entries), think, "cpu")
        state, automatic = apply(state, action)
        entries.append({"player": colour, "action": action, "automatic": False})
        entries += [{"player": COLOURS[c], "action": {"type": "pass"}, "automatic": True} for c, _ in automatic]
    return entries


def timed_search(items: list[Any], depth: int, seconds: float) -> tuple[list[Any], float]:
    """`search_positions` in the worker, with the worker's CPU seconds for it."""
    began = time.process_time()
    found = search_positions(items, depth, seconds)
    return found, time.process_time() - began


def analyse(pool: ProcessPoolExecutor, planned: list[shaping.Position], depth: int,
            seconds: float) -> tuple[float, float, list[float], dict[int, tuple[float, Any, int]]]:
    """(wall seconds, the worker's CPU seconds, CPU seconds per searched position
    by batch, version -> (eval, best, choices))."""
    judged: dict[int, tuple[float, Any, int]] = {}
    per_position: list[float] = []
    cpu = 0.0
    began = time.perf_counter()
    for batch in _batches(planned, list(range(len(planned)))):
        wanted = [planned[i] for i in batch if planned[i].searched and not _same_as_before(planned, i)]
        items = [(p.version, p.state.to_json(), shaping.seed_of("bench", p.version)) for p in wanted]
        found = {}
        if items:
            answer, spent = pool.submit(timed_search, items, depth, seconds).result()
            found = {v: (e, b, n) for v, e, b, n in answer}
            cpu += spent
            per_position.append(spent / len(items))
        for i in batch:
            p = planned[i]
            judged[p.version] = found.get(p.version) or (
                judged[planned[i - 1].version] if p.searched else (shaping.at_once(p.state), None, 0))
    return time.perf_counter() - began, cpu, per_position, judged


def judgements(planned: list[shaping.Position], judged: dict[int, tuple[float, Any, int]]) -> dict[str, int]:
    counts = {"judged": 0, "as_best": 0, "inaccuracy": 0, "mistake": 0, "blunder": 0}
    for p in planned[1:]:
        before = judged[p.version - 1]
        if p.mover is None or before[1] is None or before[2] <= 1:
            continue
        if p.played == before[1]:
            counts["as_best"] += 1
            continue
        counts["judged"] += 1
        from app.analysis.judge import drop
        verdict = judgement(drop(before[0], judged[p.version][0], p.mover))
        if verdict:
            counts[verdict] += 1
    return counts


def main() -> None:
    parser = argparse.ArgumentParser()
    default = Settings(_env_file=None).analysis_depth  # type: ignore[call-arg]
    parser.add_argument("--depths", default=str(default), help="comma-separated depths (default: the setting's)")
    parser.add_argument("--versions", type=int, default=300)
    parser.add_argument("--think", type=float, default=0.02, help="the players' think time (CPU seconds)")
    parser.add_argument("--quick", action="store_true", help="100 versions")
    args = parser.parse_args()
    versions = 100 if args.quick else args.versions
    print(f"playing a match of {versions} versions (strong, {args.think} s, against itself)...", flush=True)
    start, log, seed = a_long_match(versions, args.think)
    planned = shaping.plan(start, log)
    searched = sum(1 for i, p in enumerate(planned) if p.searched and not _same_as_before(planned, i))
    results: dict[str, Any] = {"seed": seed, "versions": versions, "positions_searched": searched,
                               "batch": BATCH, "goal_seconds": GOAL_SECONDS, "default_depth": default, "depths": {}}
    seconds = Settings(_env_file=None).analysis_position_seconds  # type: ignore[call-arg]
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        pool.submit(search_positions, [], 1, 1.0).result()  # the worker started and the engine loaded
        for depth in (int(d) for d in args.depths.split(",")):
            load = os.getloadavg()[0]
            wall, cpu, per_position, judged = analyse(pool, planned, depth, seconds)
            counts = judgements(planned, judged)
            row = {"match_wall_seconds": round(wall, 2), "match_cpu_seconds": round(cpu, 2),
                   "per_position_cpu_ms": round(1000 * cpu / searched, 1),
                   "per_position_wall_ms": round(1000 * wall / searched, 1),
                   "batch_position_cpu_ms_p50": round(1000 * statistics.median(per_position), 1),
                   "batch_position_cpu_ms_max": round(1000 * max(per_position), 1), "judgements": counts,
                   "load_average": round(load, 1), "pass": cpu <= GOAL_SECONDS}
            results["depths"][str(depth)] = row
            print(f"depth {depth}: {versions} versions ({searched} positions searched) in {cpu:.1f} CPU s of the "
                  f"worker ({wall:.1f} s wall, load average {load:.1f}), {row['per_position_cpu_ms']} CPU ms a "
                  f"position (batch p50 {row['batch_position_cpu_ms_p50']} ms, max "
                  f"{row['batch_position_cpu_ms_max']} ms); goal <= {GOAL_SECONDS:.0f} s on one worker: "
                  f"{'PASS' if row['pass'] else 'MISS'}; the strong level's own actions: {counts}", flush=True)
    out = ROOT / "bench" / "results" / "analysis.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(results, indent=2))
    print(f"written to {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main()

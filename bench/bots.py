"""Benchmark of the bots' thinking: search speed, depth reached, evaluate().

Run from the project's root:

    .venv/bin/python bench/bots.py            # 24 positions, 1 s each (about 40 seconds)
    .venv/bin/python bench/bots.py --quick    # 8 positions, 0.3 s each

It reaches a fixed set of positions (greedy against greedy, every variant,
both phases), then in this one process:

  (a) runs the strong level's search on each for --think CPU seconds and
      reports nodes per CPU second (one core) and the depth completed;
  (b) times `evaluate()` over 300 positions of one match from their JSON form
      (the replay's advantage graph): goal, under 1 s for all 300.

Strength is measured by the arena (`python -m app.bots arena`, docs/bots.md),
not here. Results go to bench/results/bots.json. Tests never import this file.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from app.bots import choose, evaluate  # noqa: E402
from app.bots.candidates import candidates  # noqa: E402
from app.bots.search import CLOCKS, Search  # noqa: E402
from app.rules import ACTION, DECISION, OVER, VARIANTS, State, apply, new_match  # noqa: E402
from bench.strong_old.search import Search as OldSearch  # noqa: E402

RESULTS = Path(__file__).parent / "results"


def positions(count: int) -> list[State]:
    """Positions from greedy-against-greedy matches, half of them in the action phase."""
    out: list[State] = []
    rng = random.Random(2026)
    for i in range(count):
        variant = VARIANTS[i % len(VARIANTS)]
        s = new_match(seed=f"bench-bots-{i:04d}-" + "0123456789abcdef" * 2, variant=variant)
        stop = rng.randrange(40, 160)
        want = ACTION if i % 2 else DECISION
        steps = 0
        while s.phase != OVER:
            nxt, _ = apply(s, choose("greedy", s.to_json(), rng.getrandbits(32), 0))
            if nxt.phase == OVER:
                break
            s, steps = nxt, steps + 1
            if steps >= stop and s.phase == want and len(candidates(s)) > 1:
                break
        out.append(s)
    return out


def search_speed(states: list[State], think: float, kind: type = Search) -> dict[str, object]:
    rates, depths = [], []
    for s in states:
        search = kind(think, CLOCKS["cpu"])
        began = time.process_time()
        search.root(s, candidates(s))
        spent = time.process_time() - began
        rates.append(search.nodes / spent)
        depths.append(search.depth_done)
    return {"positions": len(states), "think_cpu_seconds": think,
            "nodes_per_second_median": statistics.median(rates),
            "nodes_per_second_min": min(rates), "nodes_per_second_max": max(rates),
            "depth_median": statistics.median(depths), "depth_min": min(depths), "depth_max": max(depths)}


def evaluate_speed() -> dict[str, object]:
    rng = random.Random(7)
    s = new_match(seed="bench-bots-replay-" + "0123456789abcdef" * 2)
    replay = [s.to_json()]
    while s.phase != OVER and len(replay) < 300:
        s, _ = apply(s, choose("random", s.to_json(), rng.getrandbits(32), 0))
        replay.append(s.to_json())
    while len(replay) < 300:
        replay.append(replay[-1])
    began = time.perf_counter()
    values = [evaluate(x) for x in replay]
    spent = time.perf_counter() - began
    assert all(-1.0 <= v <= 1.0 for v in values)
    return {"positions": len(replay), "seconds": spent, "goal_seconds": 1.0, "pass": spent < 1.0}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--think", type=float, default=None)
    args = parser.parse_args()
    count = 8 if args.quick else 24
    think = args.think or (0.3 if args.quick else 1.0)
    print(f"load average: {os.getloadavg()[0]:.1f} (CPU-clock budgets keep the figures fair)")
    states = positions(count)
    speed = search_speed(states, think)
    old = search_speed(states, think, OldSearch)
    speed["old"] = old
    speed["ratio_to_old"] = speed["nodes_per_second_median"] / old["nodes_per_second_median"]
    ev = evaluate_speed()
    print(f"search: {speed['nodes_per_second_median']:.0f} nodes per CPU second (median of "
          f"{count} positions, range {speed['nodes_per_second_min']:.0f}-{speed['nodes_per_second_max']:.0f}); "
          f"depth completed in {think:g} s: median {speed['depth_median']}, "
          f"{speed['depth_min']}-{speed['depth_max']}")
    print(f"the search of 780ea97 (bench/strong_old), same positions, same run: "
          f"{old['nodes_per_second_median']:.0f} nodes per CPU second, depth median {old['depth_median']} "
          f"({old['depth_min']}-{old['depth_max']}); new/old nodes per second: {speed['ratio_to_old']:.2f}x")
    print(f"evaluate(): {ev['positions']} positions in {ev['seconds']:.3f} s "
          f"(goal < 1 s): {'PASS' if ev['pass'] else 'MISS'}")
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "bots.json").write_text(json.dumps({"search": speed, "evaluate": ev}, indent=1))


if __name__ == "__main__":
    main()

"""Benchmark of the bots' thinking: search speed, depth reached, evaluate().

Run from the project's root:

    .venv/bin/python bench/bots.py            # 24 positions, 1 s each (about 40 seconds)
    .venv/bin/python bench/bots.py --quick    # 8 positions, 0.3 s each

It reaches a fixed set of positions (greedy against greedy, every variant,
both phases), then in this one process:

  (a) runs the strong level's search on each for --think CPU seconds and
      reports nodes per CPU second (one core) and the depth completed; and the
      same for the frozen search of 780ea97 (bench/strong_old) as it shipped,
      on the pure-Python engine (a subprocess with MAGERY_PURE_PYTHON=1): the
      issue's "original". The new search on the pure-Python engine, and the
      old one on this process's engine, are reported too;
  (b) times `evaluate()` over 300 positions of one match from their JSON form
      (the replay's advantage graph): goal, under 1 s for all 300.

Strength is measured by the arena (`python -m app.bots arena`, docs/bots.md),
not here. Results go to bench/results/bots.json. Tests never import this file.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from app.bots import choose, evaluate  # noqa: E402
from app.bots.candidates import candidates  # noqa: E402
from app.bots.search import CLOCKS, Search  # noqa: E402
from app.rules import ACTION, DECISION, OVER, VARIANTS, State, apply, new_match  # noqa: E402
from bench.strong_old.evaluate import score as old_score  # noqa: E402
from bench.strong_old.search import Search as OldSearch  # noqa: E402

RESULTS = Path(__file__).parent / "results"


def positions(count: int) -> list[State]:
    """Positions from greedy-against-greedy matches, half of them in the action phase.

    The greedy level breaks its ties with the evaluation, so its matches follow
    the evaluation's weights; here it scores with the frozen evaluation of
    780ea97 (bench/strong_old), so the positions stay put when the weights move
    (issue 22's fitted weights took greedy's matches elsewhere, and the figure
    with them: docs/bots.md)."""
    greedy = importlib.import_module("app.bots.greedy")
    own = greedy.score
    greedy.score = old_score
    try:
        return _positions(count)
    finally:
        greedy.score = own


def _positions(count: int) -> list[State]:
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


def engine() -> str:
    """Which engine this process runs: the mypyc build (scripts/build_engine.py) or the sources."""
    module = sys.modules["app.rules.engine"]
    return "pure Python" if (module.__file__ or "").endswith(".py") else "compiled (mypyc)"


def pure_python_speeds(states: list[State], think: float) -> dict[str, object]:
    """The new and the old search on the pure-Python engine, in a subprocess."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump([s.to_json() for s in states], f)
    try:
        done = subprocess.run(
            [sys.executable, __file__, "--pure-child", f.name, "--think", str(think)],
            env={**os.environ, "MAGERY_PURE_PYTHON": "1"}, capture_output=True, text=True,
            check=True)
    finally:
        os.unlink(f.name)
    result: dict[str, object] = json.loads(done.stdout)
    return result


def _pure_child(path: str, think: float) -> None:
    with open(path) as f:
        states = [State.from_json(data) for data in json.load(f)]
    assert engine() == "pure Python"
    print(json.dumps({"new": search_speed(states, think), "old": search_speed(states, think, OldSearch)}))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--think", type=float, default=None)
    parser.add_argument("--pure-child", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    count = 8 if args.quick else 24
    think = args.think or (0.3 if args.quick else 1.0)
    if args.pure_child:
        _pure_child(args.pure_child, think)
        return
    print(f"load average: {os.getloadavg()[0]:.1f} (CPU-clock budgets keep the figures fair); "
          f"engine: {engine()}")
    states = positions(count)
    speed = search_speed(states, think)
    old_here = search_speed(states, think, OldSearch)
    pure = pure_python_speeds(states, think)
    old: dict[str, object] = pure["old"]  # type: ignore[assignment]
    new_pure: dict[str, object] = pure["new"]  # type: ignore[assignment]
    speed["engine"] = engine()
    speed["old"] = old
    speed["old_on_this_engine"] = old_here
    speed["new_on_pure_python"] = new_pure
    speed["ratio_to_old"] = speed["nodes_per_second_median"] / old["nodes_per_second_median"]  # type: ignore[operator]
    ev = evaluate_speed()

    def line(r: dict[str, object]) -> str:
        return (f"{r['nodes_per_second_median']:.0f} nodes per CPU second (median of {count} positions, "
                f"range {r['nodes_per_second_min']:.0f}-{r['nodes_per_second_max']:.0f}); depth "
                f"completed in {think:g} s: median {r['depth_median']}, {r['depth_min']}-{r['depth_max']}")

    print(f"search, {engine()}: {line(speed)}")
    print(f"the search of 780ea97 (bench/strong_old) on the pure-Python engine, as it shipped: {line(old)}")
    print(f"  new/old nodes per second: {speed['ratio_to_old']:.2f}x (goal >= 3)")
    print(f"for comparison: the new search on the pure-Python engine: {line(new_pure)}")
    print(f"  the old search on this process's engine: {line(old_here)}")
    print(f"evaluate(): {ev['positions']} positions in {ev['seconds']:.3f} s "
          f"(goal < 1 s): {'PASS' if ev['pass'] else 'MISS'}")
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "bots.json").write_text(json.dumps({"search": speed, "evaluate": ev}, indent=1))


if __name__ == "__main__":
    main()

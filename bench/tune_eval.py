"""Fit the strong level's evaluation weights to how matches end (issue 22).

    .venv/bin/python bench/tune_eval.py play --matches 600 --jobs 2 --out /tmp/positions.jsonl
    .venv/bin/python bench/tune_eval.py fit /tmp/positions.jsonl

`play` has the strong level play itself at a fixed shallow depth (with a few
random actions, so matches differ beyond their deals) and writes, for a
sample of the positions met, the evaluation's terms (White's minus Black's)
and how the match ended for White (1, 0.5 or 0). `fit` finds the weights that
best predict the ending through a logistic curve (the "Texel" method of chess
engines): P(White wins) = 1 / (1 + exp(-score / k)), with the material
weight held at 1 so the undead stays the unit, and prints them beside the
weights shipped. A weight is a guess until the arena confirms it
(bench/arena_old.py): a better fit to shallow self-play need not play better.

`terms(s)` takes `evaluate.score` apart into its terms, from the parts
`score` itself adds up (arena_pieces, attack_maps, best_capture,
chamber_parts...), and `shipped()` reads the weights that put them back
together; a test (tests/bots/test_tune_eval.py) checks that they add up to
`score` exactly, so this file cannot drift from the evaluation it tunes.
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from app.bots.board import MAGICIAN  # noqa: E402
from app.bots.candidates import candidates  # noqa: E402
from app.bots.search import Search  # noqa: E402
from app.bots.setup import choose_setup  # noqa: E402
from app.rules import ACTION, DECISION, OVER, SETUP, State, apply, new_match  # noqa: E402

# The module, not app.bots' function of the same name.
ev = importlib.import_module("app.bots.evaluate")

# The terms of `evaluate.score`, each White's minus Black's, in this order.
NAMES = ("material", "danger", "presence", "crowd", "advance", "orb", "mobility",
         "gain_to_move", "gain_waiting", "gain_potential", "magician", "enchant", "shadow", "summon")


def shipped() -> dict[str, float]:
    """The weights `evaluate.score` uses today (read from the module, not copied)."""
    return {"material": 1.0, "danger": -ev.DANGER, "presence": ev.PRESENCE, "crowd": -ev.CROWD,
            "advance": ev.ADVANCE, "orb": ev.ORB, "mobility": ev.MOBILITY, "gain_to_move": ev.TO_MOVE,
            "gain_waiting": ev.WAITING, "gain_potential": ev.POTENTIAL, "magician": ev.MAGICIAN_SHARE,
            "enchant": ev.ENCHANT, "shadow": ev.SHADOW, "summon": ev.SUMMON}


def _side_terms(s: State) -> list[list[float]]:
    """Per colour, the unweighted terms of `score`, from the parts it adds up."""
    dead = s.dead
    pieces, advance = ev.arena_pieces(s)
    counts = [len(pieces[0]), len(pieces[1])]
    maps = ev.attack_maps(s, pieces)
    best_gain = [ev.best_capture(s, 0, counts, maps), ev.best_capture(s, 1, counts, maps)]
    out = []
    for colour in (0, 1):
        n = counts[colour]
        t = dict.fromkeys(NAMES, 0.0)
        t["danger"] = ev.danger(dead, colour)
        t["material"] = ev._material(dead, colour) + ev.DANGER * t["danger"]
        t["presence"] = n
        t["crowd"] = (4 - n) ** 2 if n < 4 else 0.0
        t["advance"] = advance[colour]
        t["orb"] = 1.0 if s.orb == colour else 0.0
        t["mobility"] = sum(maps[colour][0].values())
        t["enchant"], t["shadow"], t["summon"] = ev.chamber_parts(s, colour, counts, pieces[1 - colour])
        if s.phase == ACTION:
            name = "gain_to_move" if s.to_move == colour else "gain_waiting"
        else:
            name = "gain_potential"
        t[name] = best_gain[colour]
        # The Magician's term as `score` weighs it, its own weight apart.
        t["magician"] = ev._holds(s, colour, MAGICIAN) * ev.capture_factor(s, colour) * best_gain[1 - colour]
        out.append([t[name] for name in NAMES])
    return out


def terms(s: State) -> list[float]:
    """The terms of `score(s)`, White's minus Black's (a position not over)."""
    white, black = _side_terms(s)
    return [w - b for w, b in zip(white, black, strict=True)]


def weighted(values: list[float], weights: dict[str, float]) -> float:
    return sum(weights[name] * v for name, v in zip(NAMES, values, strict=True))


def play_one(job: tuple[int, int, float, float]) -> list[str]:
    """One self-play match; its sampled positions as JSON lines."""
    number, depth, explore, sample = job
    rng = random.Random(number)
    s = new_match(seed=f"{number:032x}")
    rows: list[list[float]] = []
    while s.phase != OVER:
        if s.phase == SETUP:
            s = apply(s, {"type": "setup", "backrow": choose_setup(s, rng)})[0]
            continue
        actions = candidates(s)
        if s.phase in (ACTION, DECISION) and rng.random() < sample:
            rows.append(terms(s))
        if len(actions) == 1:
            action = actions[0]
        elif rng.random() < explore:
            action = rng.choice(actions)
        else:
            action, _ = Search(1e9, time.process_time, max_depth=depth).root(s, actions)
        s = apply(s, action)[0]
    result = 1.0 if s.winner == 0 else 0.0 if s.winner == 1 else 0.5
    return [json.dumps({"t": row, "r": result}) for row in rows]


def play(args: argparse.Namespace) -> None:
    jobs = [(args.first + i, args.depth, args.explore, args.sample) for i in range(args.matches)]
    began = time.perf_counter()
    done = positions = 0
    with open(args.out, "a") as out, ProcessPoolExecutor(args.jobs) as pool:
        for lines in pool.map(play_one, jobs):
            done += 1
            positions += len(lines)
            out.write("".join(line + "\n" for line in lines))
            out.flush()
            if done % 20 == 0:
                print(f"{done} matches, {positions} positions, {time.perf_counter() - began:.0f} s", flush=True)
    print(f"{done} matches, {positions} positions, {time.perf_counter() - began:.0f} s")


def _loss(rows: list[tuple[list[float], float]], w: list[float], scale: float) -> float:
    total = 0.0
    for x, r in rows:
        z = sum(a * b for a, b in zip(w, x, strict=True)) / scale
        p = 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, z))))
        total += (r - p) ** 2
    return total / len(rows)


def fit_weights(rows: list[tuple[list[float], float]], rounds: int = 60, verbose: bool = False,
                hold: tuple[str, ...] = ()) -> tuple[dict[str, float], float, float, float]:
    """The weights that best predict the endings: (weights, scale, error with
    the shipped weights, error with the fitted ones). Material's weight and
    those named in `hold` stay as shipped."""
    start = shipped()
    w = [start[name] for name in NAMES]
    # The scale that best fits the shipped weights first (Texel's K), then
    # coordinate search on every weight but material's, halving a weight's step
    # when neither way improves.
    scale = min((_loss(rows, w, k), k) for k in (4, 6, 8, 10, 12, 14, 17, 20, 25, 30))[1]
    best = first = _loss(rows, w, scale)
    steps = [max(abs(v) * 0.25, 0.01) for v in w]
    for _ in range(rounds):
        improved = False
        for i, name in enumerate(NAMES):
            if name == "material" or name in hold:
                continue
            for sign in (1.0, -1.0):
                trial = list(w)
                trial[i] += sign * steps[i]
                e = _loss(rows, trial, scale)
                if e < best:
                    w, best, improved = trial, e, True
                    break
            else:
                steps[i] /= 2
        if verbose:
            print(f"error {best:.5f}: " + ", ".join(f"{n}={v:.3g}" for n, v in zip(NAMES, w, strict=True)),
                  flush=True)
        if not improved and max(steps) < 1e-3:
            break
    return dict(zip(NAMES, w, strict=True)), scale, first, best


def fit(args: argparse.Namespace) -> None:
    rows = []
    with open(args.positions) as f:
        for line in f:
            row = json.loads(line)
            rows.append((row["t"], row["r"]))
    # The last fifth of the file (whole matches, but for one cut in two) is
    # held out: a fit that only learnt its own positions does no better there.
    cut = len(rows) * 4 // 5
    hold = tuple(filter(None, args.hold.split(",")))
    unknown = set(hold) - set(NAMES)
    if unknown:
        raise SystemExit(f"--hold: no term {', '.join(sorted(unknown))}; the terms are {', '.join(NAMES)}")
    weights, scale, first, best = fit_weights(rows[:cut], args.rounds, verbose=True, hold=hold)
    start = shipped()
    held = rows[cut:]
    print(f"{cut} positions fitted; scale {scale}; mean squared error {first:.5f} shipped, {best:.5f} fitted")
    print(f"{len(held)} positions held out: {_loss(held, [start[n] for n in NAMES], scale):.5f} shipped, "
          f"{_loss(held, [weights[n] for n in NAMES], scale):.5f} fitted")
    print("\nweight            shipped     fitted")
    for name in NAMES:
        print(f"{name:16} {start[name]:9.3f} {weights[name]:10.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("play")
    p.add_argument("--matches", type=int, default=200)
    p.add_argument("--first", type=int, default=0, help="the first match's number (its deal)")
    p.add_argument("--depth", type=int, default=2)
    p.add_argument("--explore", type=float, default=0.08, help="share of actions chosen at random")
    p.add_argument("--sample", type=float, default=0.2, help="share of positions written")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--out", required=True)
    f = sub.add_parser("fit")
    f.add_argument("positions")
    f.add_argument("--rounds", type=int, default=60)
    f.add_argument("--hold", default="", help="terms whose weights stay as shipped, e.g. crowd,presence")
    args = parser.parse_args()
    (play if args.command == "play" else fit)(args)


if __name__ == "__main__":
    main()

"""Benchmark of the rules engine, with python-chess as the yardstick.

Run from the project's root:

    .venv/bin/python bench/rules.py            # the full run (about a minute)
    .venv/bin/python bench/rules.py --quick    # a short run (about 15 seconds)
    .venv/bin/python bench/rules.py --profile  # cProfile of the Magery perft
    .venv/bin/python bench/rules.py --cpu-time # CPU time, not wall time: for a busy machine
    MAGERY_PURE_PYTHON=1 .venv/bin/python bench/rules.py ...  # the pure-Python engine

It runs the engine this venv loads: the mypyc build of scripts/install
(scripts/build_engine.py) when there is one matching the sources, else the
pure-Python sources; the header and the results say which.

It measures, in one process on one core, on the same machine and in the same
run as python-chess:

  (a) perft: every legal action of a fixed set of Magery positions applied, to
      depth 2, in actions applied per second; against python-chess's perft(4)
      from the start position, every move pushed and popped, in moves per second;
  (b) legal-action generation: `legal_actions(state)` per call (and per action
      generated) over the fixed set, against `list(board.legal_moves)` over a
      fixed set of chess positions;
  (c) complete random games per second over a fixed set of seeds, all variants;
  (d) the size of a state's JSON and of its public view.

It prints a table with the goals and PASS/MISS per goal, and writes the
results to bench/results/rules.json. The tests never import this file: tests
never assert a time (it depends on the machine and its load).
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import hashlib
import json
import os
import platform
import pstats
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import chess  # noqa: E402

from app.rules import (  # noqa: E402
    ACTION,
    DECISION,
    VARIANTS,
    State,
    apply,
    legal_actions,
    new_match,
    public_view,
    to_text,
)
from app.rules.minions import TYPES  # noqa: E402

RESULTS = ROOT / "bench" / "results" / "rules.json"

# The clock every measure reads: wall time, or with --cpu-time this process's
# CPU time, which a machine shared with other busy processes disturbs far less.
CLOCK: Callable[[], float] = time.perf_counter

# Raised by issue 22 from 0.5, 0.5 and 20: the engine's speed is the strong
# level's strength and the server's CPU per action.
GOALS = {
    "perft_ratio": 1.5,  # Magery actions applied/s over python-chess moves pushed/s
    "legal_ratio": 1.5,  # Magery legal_actions calls/s over python-chess legal_moves lists/s
    "games_per_second": 100.0,  # complete random games on one core
    "state_json_bytes": 2048,  # max size of json.dumps(state.to_json()), strictly below
}

# python-chess's perft(4) from the start position (chessprogramming.org).
CHESS_PERFT_LEAVES = {1: 20, 2: 400, 3: 8902, 4: 197281}

# The perft suite of chessprogramming.org: the chess positions of (b), with
# positions from seeded random play added below.
CHESS_FENS = (
    chess.STARTING_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
)


# ---- the fixed positions -----------------------------------------------------

def hex_seed(label: str) -> str:
    """A seed shaped like the server's (32 hex digits, R20), fixed by `label`."""
    return hashlib.sha256(label.encode()).hexdigest()[:32]


def random_setup(s: State, rng: random.Random) -> State:
    """Both setups (R7), each a seeded random order of the eight types."""
    for _ in range(2):
        row = list(TYPES)
        rng.shuffle(row)
        s, _ = apply(s, {"type": "setup", "backrow": row})
    return s


def play_random(seed: str, variant: str) -> list[State]:
    """Every state of one seeded random game, from after both setups to its end."""
    rng = random.Random(seed)
    s = random_setup(new_match(seed=seed, variant=variant), rng)
    seen = [s]
    while not s.over:
        s, _ = apply(s, rng.choice(legal_actions(s)))
        seen.append(s)
    return seen


def _occupied(s: State) -> int:
    return sum(1 for piece in s.occupant if piece)


def _tower_full(s: State) -> bool:
    return all(s.occupant[m] for m, seat in enumerate(s.seat) if seat)


# What each variant's game contributes: (label, test), the first state passing it.
Selector = tuple[str, Callable[[State], bool]]
_COMMON: tuple[Selector, ...] = (
    ("decision, round 2, empty tower",
     lambda s: s.phase == DECISION and s.round == 2 and _occupied(s) == 0),
    ("decision, round 3, 8 chambers taken",
     lambda s: s.phase == DECISION and s.round == 3 and _occupied(s) == 8),
    ("action, round 2, full tower",
     lambda s: s.phase == ACTION and s.round == 2 and _tower_full(s)),
)
def _busy(s: State) -> bool:
    """An action phase with at least 30 legal actions: a tree worth walking."""
    return s.phase == ACTION and len(legal_actions(s)) >= 30


_SPECIAL: dict[str, Selector] = {
    "standard": ("action, Seer turns owed", lambda s: bool(s.owed) and _busy(s)),
    "rotating": ("action, Rune Master active for the mover",
                 lambda s: (s.runes >> s.to_move) & 1 == 1 and _busy(s)),
    "archmage": ("action, a Force Mage ward", lambda s: s.wards != 0 and _busy(s)),
    "ultimate_archmage": ("action, round 3, half the tower emptied",
                          lambda s: s.phase == ACTION and s.round == 3 and _occupied(s) == 8),
}


def magery_positions() -> list[tuple[str, State]]:
    """Sixteen positions, four per variant, from seeded random games.

    Of the states of a game that meet a selector, the one with the most legal
    actions is taken (the first of equals), so that a position with an effect
    running still has a phase ahead of it. A selector that no state of a game
    meets looks in the next seed's game. Deterministic: the same engine gives
    the same positions on every machine.
    """
    out = []
    for variant in VARIANTS:
        for label, test in (*_COMMON, _SPECIAL[variant]):
            for k in range(50):
                found = [s for s in play_random(hex_seed(f"bench:{variant}:{k}"), variant)
                         if not s.over and test(s)]
                if found:
                    richest = max(found, key=lambda s: len(legal_actions(s)))
                    out.append((f"{variant}: {label}", richest))
                    break
            else:
                raise RuntimeError(f"no {variant} position for {label!r} in 50 games")
    return out


def chess_positions() -> list[chess.Board]:
    """The perft suite, and ten middlegame positions of seeded random play."""
    boards = [chess.Board(fen) for fen in CHESS_FENS]
    rng = random.Random("bench:chess")
    while len(boards) < 16:
        board = chess.Board()
        for _ in range(rng.randrange(12, 40)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if not board.is_game_over():
            boards.append(chess.Board(board.fen()))
    return boards


# ---- timing --------------------------------------------------------------------

def _run(fn: Callable[[], Any]) -> tuple[Any, float]:
    """`fn`'s result and its time on CLOCK, after a garbage collection."""
    gc.collect()
    start = CLOCK()
    result = fn()
    return result, CLOCK() - start


def magery_perft(s: State, depth: int) -> tuple[int, int]:
    """(actions applied, leaves): every legal action applied to depth `depth`."""
    applied = leaves = 0
    for action in legal_actions(s):
        after, _ = apply(s, action)
        applied += 1
        if depth > 1 and not after.over:
            a, lv = magery_perft(after, depth - 1)
            applied += a
            leaves += lv
        else:
            leaves += 1
    return applied, leaves


def chess_perft(board: chess.Board, depth: int) -> tuple[int, int]:
    """(moves pushed, leaves): every legal move pushed and popped, leaves too."""
    pushed = leaves = 0
    for move in board.legal_moves:
        board.push(move)
        pushed += 1
        if depth > 1:
            p, lv = chess_perft(board, depth - 1)
            pushed += p
            leaves += lv
        else:
            leaves += 1
        board.pop()
    return pushed, leaves


def _interleave(a: list[int], b: list[int]) -> list[tuple[int, int]]:
    """Both lists' items, as (0, item) and (1, item), merged so both advance together."""
    keyed = [((k + 0.5) / len(a), 0, x) for k, x in enumerate(a)]
    keyed += [((k + 0.5) / len(b), 1, x) for k, x in enumerate(b)]
    keyed.sort(key=lambda entry: entry[:2])
    return [(side, x) for _, side, x in keyed]


def _magery_subtree(s: State, action: Any, depth: int) -> tuple[int, int]:
    after, _ = apply(s, action)
    if depth > 1 and not after.over:
        applied, leaves = magery_perft(after, depth - 1)
        return applied + 1, leaves
    return 1, 1


def _chess_subtree(board: chess.Board, move: chess.Move, depth: int) -> tuple[int, int]:
    board.push(move)
    pushed, leaves = chess_perft(board, depth - 1) if depth > 1 else (0, 1)
    board.pop()
    return pushed + 1, leaves


def bench_perft(positions: list[tuple[str, State]], depth: int, chess_depth: int,
                repeats: int) -> dict[str, Any]:
    """Magery's perft over the positions and python-chess's perft, interleaved.

    The work is cut into subtrees, one per legal action (move) at the root, and
    the two sides' subtrees are run alternately, so that a load on the machine
    falls on both alike. Each subtree's best time over the repeats counts: a
    burst of load in one repeat is forgotten. Listing the root actions is not
    timed (16 calls of `legal_actions` and one of `legal_moves`).
    """
    board = chess.Board()
    m_units = [(i, s, action) for i, (_, s) in enumerate(positions) for action in legal_actions(s)]
    c_units = list(board.legal_moves)
    order = _interleave(list(range(len(m_units))), list(range(len(c_units))))
    m_times: list[list[float]] = [[] for _ in m_units]
    c_times: list[list[float]] = [[] for _ in c_units]
    m_counts: list[tuple[int, int]] = [(0, 0)] * len(m_units)
    c_counts: list[tuple[int, int]] = [(0, 0)] * len(c_units)
    clock = CLOCK
    for _ in range(repeats):
        gc.collect()
        for side, k in order:
            if side == 0:
                _, s, action = m_units[k]
                start = clock()
                m_counts[k] = _magery_subtree(s, action, depth)
                m_times[k].append(clock() - start)
            else:
                start = clock()
                c_counts[k] = _chess_subtree(board, c_units[k], chess_depth)
                c_times[k].append(clock() - start)

    rows: list[dict[str, Any]] = []
    for i, (label, s) in enumerate(positions):
        mine = [k for k, u in enumerate(m_units) if u[0] == i]
        rows.append({
            "position": label, "text": to_text(s), "actions": len(mine),
            "applied": sum(m_counts[k][0] for k in mine),
            "leaves": sum(m_counts[k][1] for k in mine),
            "best_s": sum(min(m_times[k]) for k in mine),
            "median_s": sum(statistics.median(m_times[k]) for k in mine),
        })
    applied = sum(r["applied"] for r in rows)
    best = sum(r["best_s"] for r in rows)
    median = sum(r["median_s"] for r in rows)
    pushed = sum(p for p, _ in c_counts)
    leaves = sum(lv for _, lv in c_counts)
    if leaves != CHESS_PERFT_LEAVES[chess_depth]:
        raise RuntimeError(f"python-chess perft({chess_depth}) gave {leaves} leaves")
    c_best = sum(min(ts) for ts in c_times)
    c_median = sum(statistics.median(ts) for ts in c_times)
    magery_rate = applied / best
    chess_rate = pushed / c_best
    return {
        "depth": depth, "positions": rows, "applied": applied, "best_s": best,
        "median_s": median, "rate": magery_rate, "median_rate": applied / median,
        "chess": {"depth": chess_depth, "pushed": pushed, "leaves": leaves,
                  "best_s": c_best, "median_s": c_median,
                  "rate": chess_rate, "median_rate": pushed / c_median},
        "ratio": magery_rate / chess_rate,
        "median_ratio": (applied / median) / (pushed / c_median),
    }


def _per_call(fn: Callable[[], Any], loops: int) -> float:
    start = CLOCK()
    for _ in range(loops):
        fn()
    return (CLOCK() - start) / loops


def bench_legal(positions: list[tuple[str, State]], boards: list[chess.Board],
                loops: int, repeats: int) -> dict[str, Any]:
    """The best time per call of each position, Magery and chess interleaved."""
    m_best = [float("inf")] * len(positions)
    c_best = [float("inf")] * len(boards)
    order = _interleave(list(range(len(positions))), list(range(len(boards))))
    for _ in range(repeats):
        gc.collect()
        for side, i in order:
            if side == 0:
                fn = partial(legal_actions, positions[i][1])
                m_best[i] = min(m_best[i], _per_call(fn, loops))
            else:
                fn = partial(list, boards[i].legal_moves)
                c_best[i] = min(c_best[i], _per_call(fn, loops))
    m_rows = [{"position": label, "actions": len(legal_actions(s)), "per_call_s": best}
              for (label, s), best in zip(positions, m_best, strict=True)]
    c_rows = [{"fen": board.fen(), "moves": board.legal_moves.count(), "per_call_s": best}
              for board, best in zip(boards, c_best, strict=True)]

    def summary(rows: list[dict[str, Any]], key: str) -> dict[str, float]:
        total = sum(r["per_call_s"] for r in rows)
        generated = sum(r[key] for r in rows)
        return {"per_call_s": total / len(rows), "calls_per_s": len(rows) / total,
                "per_item_s": total / generated, "items_per_s": generated / total,
                "items_per_call": generated / len(rows)}

    m, c = summary(m_rows, "actions"), summary(c_rows, "moves")
    return {"magery": {**m, "positions": m_rows}, "chess": {**c, "positions": c_rows},
            "ratio": m["calls_per_s"] / c["calls_per_s"],
            "ratio_per_item": m["items_per_s"] / c["items_per_s"]}


def game_seeds(per_variant: int) -> list[tuple[str, str]]:
    return [(hex_seed(f"bench:game:{variant}:{k}"), variant)
            for variant in VARIANTS for k in range(per_variant)]


def _random_game(seed: str, variant: str) -> int:
    rng = random.Random(seed)
    s = random_setup(new_match(seed=seed, variant=variant), rng)
    actions = 2
    while not s.over:
        s, _ = apply(s, rng.choice(legal_actions(s)))
        actions += 1
    return actions


def bench_games(seeds: list[tuple[str, str]], repeats: int) -> dict[str, Any]:
    """Each game's best time over the repeats; games per second of their sum."""
    times: list[list[float]] = [[] for _ in seeds]
    actions = 0
    for _ in range(repeats):
        gc.collect()
        actions = 0
        for k, (seed, variant) in enumerate(seeds):
            count, seconds = _run(partial(_random_game, seed, variant))
            actions += count
            times[k].append(seconds)
    best = sum(min(ts) for ts in times)
    median = sum(statistics.median(ts) for ts in times)
    return {"games": len(seeds), "actions": actions, "best_s": best, "median_s": median,
            "rate": len(seeds) / best, "median_rate": len(seeds) / median,
            "actions_per_game": actions / len(seeds)}


def _size(value: Any) -> int:
    return len(json.dumps(value, separators=(",", ":")))


def bench_sizes(seeds: list[tuple[str, str]], positions: list[tuple[str, State]]) -> dict[str, Any]:
    """The largest JSON of every state of the games of (c) and the fixed positions."""
    states = [s for _, s in positions]
    for seed, variant in seeds:
        states += play_random(seed, variant)
    state_sizes = [_size(s.to_json()) for s in states]
    view_sizes = [_size(public_view(s)) for s in states]
    text_sizes = [len(to_text(s)) for s in states]
    return {"states": len(states), "state_json_max": max(state_sizes),
            "state_json_mean": statistics.fmean(state_sizes),
            "view_json_max": max(view_sizes), "view_json_mean": statistics.fmean(view_sizes),
            "text_max": max(text_sizes)}


# ---- the report ----------------------------------------------------------------

def _git_commit() -> str | None:
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                             capture_output=True, text=True, timeout=5)
        return out.stdout.strip() or None
    except OSError:
        return None


def _verdict(ok: bool) -> str:
    return "PASS" if ok else "MISS"


def report(results: dict[str, Any]) -> str:
    p, lg, g, z = results["perft"], results["legal"], results["games"], results["sizes"]
    c = p["chess"]
    rows = [
        ("measure", "Magery", "python-chess", "ratio", "goal", ""),
        (f"perft: applied/s (d{p['depth']}, {len(p['positions'])} pos | perft({c['depth']}))",
         f"{p['rate']:,.0f}", f"{c['rate']:,.0f}", f"{p['ratio']:.2f}",
         f">= {GOALS['perft_ratio']}", _verdict(p["ratio"] >= GOALS["perft_ratio"])),
        ("  applied (total, best time)", f"{p['applied']:,} {p['best_s']:.2f}s",
         f"{c['pushed']:,} {c['best_s']:.2f}s", "", "", ""),
        (f"legal gen: calls/s ({len(lg['magery']['positions'])} | {len(lg['chess']['positions'])} pos)",
         f"{lg['magery']['calls_per_s']:,.0f}", f"{lg['chess']['calls_per_s']:,.0f}",
         f"{lg['ratio']:.2f}", f">= {GOALS['legal_ratio']}",
         _verdict(lg["ratio"] >= GOALS["legal_ratio"])),
        ("  time per call", f"{lg['magery']['per_call_s'] * 1e6:.1f} us",
         f"{lg['chess']['per_call_s'] * 1e6:.1f} us", "", "", ""),
        ("  actions|moves per call", f"{lg['magery']['items_per_call']:.1f}",
         f"{lg['chess']['items_per_call']:.1f}", "", "", ""),
        ("  generated per second", f"{lg['magery']['items_per_s']:,.0f}",
         f"{lg['chess']['items_per_s']:,.0f}", f"{lg['ratio_per_item']:.2f}", "(info)", ""),
        (f"random games/s ({g['games']} games, all variants)", f"{g['rate']:.1f}", "", "",
         f">= {GOALS['games_per_second']:.0f}", _verdict(g["rate"] >= GOALS["games_per_second"])),
        ("  actions per game (mean)", f"{g['actions_per_game']:.0f}", "", "", "", ""),
        (f"state JSON, max bytes ({z['states']:,} states)", f"{z['state_json_max']:,}", "", "",
         f"< {GOALS['state_json_bytes']}", _verdict(z["state_json_max"] < GOALS["state_json_bytes"])),
        ("public view JSON, max bytes", f"{z['view_json_max']:,}", "", "", "(info)", ""),
        ("position text, max chars", f"{z['text_max']}", "", "", "(info)", ""),
    ]
    widths = [max(len(r[i]) for r in rows) for i in range(6)]
    lines = []
    for i, row in enumerate(rows):
        cells = [row[0].ljust(widths[0])] + [row[k].rjust(widths[k]) for k in range(1, 5)]
        lines.append("  ".join(cells + [row[5]]).rstrip())
        if i == 0:
            lines.append("-" * len(lines[0]))
    passed = sum(1 for line in lines if line.endswith("PASS"))
    missed = sum(1 for line in lines if line.endswith("MISS"))
    lines.append("")
    lines.append(f"{passed} goal(s) PASS, {missed} MISS. Each piece of work counts with its best "
                 f"time of {results['repeats']} repeat(s); medians are in "
                 f"{RESULTS.relative_to(ROOT)}.")
    load = results["load_average"]
    busy = max(load["start"], load["end"])
    if busy > 0.5 * (os.cpu_count() or 1):
        lines.append(f"Note: the machine was busy (load average {load['start']:.2f} -> "
                     f"{load['end']:.2f}); the rates are low and noisy, the ratios less so.")
    return "\n".join(lines)


def engine() -> str:
    """Which engine runs: the mypyc build (scripts/build_engine.py) or the sources."""
    module = sys.modules["app.rules.engine"]
    return "pure Python" if (module.__file__ or "").endswith(".py") else "compiled (mypyc)"


def profile(positions: list[tuple[str, State]], depth: int, top: int) -> None:
    profiler = cProfile.Profile()
    profiler.enable()
    for _, s in positions:
        magery_perft(s, depth)
    profiler.disable()
    stats = pstats.Stats(profiler)
    stats.sort_stats("tottime").print_stats(top)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a short run: fewer repeats and games")
    parser.add_argument("--depth", type=int, default=2, help="Magery perft depth (default 2)")
    parser.add_argument("--profile", action="store_true",
                        help="only profile the Magery perft with cProfile, and print the top functions")
    parser.add_argument("--top", type=int, default=25, help="functions listed by --profile")
    parser.add_argument("--output", type=Path, default=RESULTS, help="where to write the JSON results")
    parser.add_argument("--cpu-time", action="store_true",
                        help="time with this process's CPU time instead of wall time (for a busy machine)")
    args = parser.parse_args(argv)
    global CLOCK
    CLOCK = time.process_time if args.cpu_time else time.perf_counter

    positions = magery_positions()
    if args.profile:
        profile(positions, args.depth, args.top)
        return 0

    quick = args.quick
    repeats = 1 if quick else 3
    chess_depth = 4
    seeds = game_seeds(2 if quick else 10)
    load_before = os.getloadavg()[0]
    print(f"Magery rules benchmark ({'quick' if quick else 'full'} run), python "
          f"{platform.python_version()}, python-chess {chess.__version__}, "
          f"load average {load_before:.2f} on {os.cpu_count()} CPU(s), "
          f"{'CPU' if args.cpu_time else 'wall'} time, engine: {engine()}", flush=True)

    print("(a) perft ...", flush=True)
    perft = bench_perft(positions, args.depth, chess_depth, repeats)
    print("(b) legal-action generation ...", flush=True)
    legal = bench_legal(positions, chess_positions(), 20 if quick else 100, 2 if quick else 5)
    print("(c) random games ...", flush=True)
    games = bench_games(seeds, repeats)
    print("(d) JSON sizes ...", flush=True)
    sizes = bench_sizes(seeds, positions)

    results = {
        "when": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "commit": _git_commit(),
        "mode": "quick" if quick else "full",
        "clock": "cpu" if args.cpu_time else "wall",
        "engine": engine(),
        "repeats": repeats,
        "machine": {"python": platform.python_version(), "implementation": platform.python_implementation(),
                    "python_chess": chess.__version__, "platform": platform.platform(),
                    "processor": platform.processor() or platform.machine(),
                    "cpus": os.cpu_count()},
        "load_average": {"start": load_before, "end": os.getloadavg()[0]},
        "goals": GOALS,
        "perft": perft, "legal": legal, "games": games, "sizes": sizes,
    }
    table = report(results)
    results["passed"] = {
        "perft_ratio": perft["ratio"] >= GOALS["perft_ratio"],
        "legal_ratio": legal["ratio"] >= GOALS["legal_ratio"],
        "games_per_second": games["rate"] >= GOALS["games_per_second"],
        "state_json_bytes": sizes["state_json_max"] < GOALS["state_json_bytes"],
    }
    print()
    print(table)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(results, indent=2) + "\n")
    print(f"Results written to {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

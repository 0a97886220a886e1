"""The arena: bots play each other straight on the engine, no server.

`python -m app.bots arena --games 200 greedy random [--variant V] [--think S]
[--jobs N] [--out file.json]` plays colour-balanced matches: each pair of
matches shares a chaos deal (the seed) and swaps the colours, so neither the
first move nor a lucky deal favours a side. Matches end by the rules, the
no-progress draw (R16, 10 rounds unless told) included, or are called a draw
at a cap on actions. The tally is printed with a 95% Wilson interval and
written as JSON.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any

from app.rules import DEFAULT_NO_PROGRESS_ROUNDS, OVER, apply, new_match

from . import choose_with_info

MAX_ACTIONS = 3000  # a safety net; the no-progress rule ends matches long before


@dataclass
class Side:
    level: str
    think: float
    label: str  # who this is in the tally: the level, with its think time if both levels are one
    moves: int = 0
    thinking: float = 0.0  # wall-clock seconds spent choosing
    cpu: float = 0.0  # CPU seconds of this process spent choosing
    longest: float = 0.0  # wall-clock seconds of the longest choice
    nodes: int = 0
    searched: float = 0.0  # CPU seconds of the choices that searched
    depths: list[int] = field(default_factory=list)


@dataclass
class Match:
    seed: str
    variant: str
    white: Side
    black: Side
    winner: str | None = None  # "white", "black" or None for a draw
    reason: str = ""
    actions: int = 0
    rounds: int = 0
    log: list[dict[str, Any]] = field(default_factory=list)


Player = tuple[str, float, str]  # level, think seconds, label


def play(white: Player, black: Player, seed: str, variant: str = "standard",
         no_progress_rounds: int = DEFAULT_NO_PROGRESS_ROUNDS, keep_log: bool = False,
         max_actions: int = MAX_ACTIONS, clock: str = "wall") -> Match:
    """One match between two players, to its end."""
    state = new_match(seed=seed, variant=variant, no_progress_rounds=no_progress_rounds)
    match = Match(seed, variant, Side(*white), Side(*black))
    sides = (match.white, match.black)
    turn = 0
    while state.phase != OVER and match.actions < max_actions:
        side = sides[state.to_move]
        began, began_cpu = time.perf_counter(), time.process_time()
        action, info = choose_with_info(side.level, state.to_json(), _turn_seed(seed, turn), side.think,
                                        clock)
        spent, spent_cpu = time.perf_counter() - began, time.process_time() - began_cpu
        # A player that chose in another process (bench/arena_old.py --old-engine pure)
        # says what CPU it spent there; this process only waited.
        spent_cpu = info.pop("cpu", spent_cpu)
        side.moves += 1
        side.thinking += spent
        side.cpu += spent_cpu
        side.longest = max(side.longest, spent)
        if info.get("nodes"):
            side.nodes += info["nodes"]
            side.searched += spent_cpu
            side.depths.append(info["depth"])
        if keep_log:
            match.log.append({"player": ("white", "black")[state.to_move], "action": action})
        state, automatic = apply(state, action)
        match.actions += 1 + len(automatic)
        turn += 1
    match.rounds = state.round
    if state.phase == OVER:
        result = state.result
        match.winner, match.reason = (result["winner"], result["reason"]) if result else (None, "")
    else:
        match.reason = "action_cap"
    return match


def _turn_seed(seed: str, turn: int) -> int:
    return (hash_text(seed) * 1_000_003 + turn) & ((1 << 63) - 1)


def hash_text(text: str) -> int:
    """A stable hash of text (Python's own `hash` of a str changes per process)."""
    value = 1469598103934665603
    for byte in text.encode():
        value = ((value ^ byte) * 1099511628211) & ((1 << 64) - 1)
    return value


def wilson(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    centre = p + z * z / (2 * trials)
    spread = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    low, high = (centre - spread) / (1 + z * z / trials), (centre + spread) / (1 + z * z / trials)
    return (max(0.0, low), min(1.0, high))


def schedule(a: Player, b: Player, games: int, variant: str,
             tag: str) -> Iterator[tuple[Player, Player, str, str]]:
    """(white, black, seed, variant) for each match: pairs swap colours on one deal."""
    for i in range(games):
        seed = f"arena-{tag}-{variant}-{i // 2:05d}-{'0123456789abcdef' * 2}"
        yield (a, b, seed, variant) if i % 2 == 0 else (b, a, seed, variant)


def _play_job(job: tuple[Player, Player, str, str, int, str]) -> Match:
    white, black, seed, variant, rounds, clock = job
    return play(white, black, seed, variant, rounds, clock=clock)


def players(a: str, b: str, think: float, think_b: float | None = None) -> tuple[Player, Player]:
    """Both players with their labels: a level's name, or name@think when a
    level meets itself."""
    tb = think if think_b is None else think_b
    if a == b:
        if think == tb:
            return (a, think, f"{a}#1"), (b, tb, f"{b}#2")
        return (a, think, f"{a}@{think:g}"), (b, tb, f"{b}@{tb:g}")
    return (a, think, a), (b, tb, b)


def run(a: str, b: str, games: int, variant: str = "standard", think: float = 1.0, jobs: int = 1,
        no_progress_rounds: int = DEFAULT_NO_PROGRESS_ROUNDS, think_b: float | None = None,
        tag: str = "", progress: bool = False, clock: str = "wall") -> dict[str, Any]:
    """Play `games` matches of `a` against `b` and tally them from `a`'s side."""
    pa, pb = players(a, b, think, think_b)
    tag = tag or f"{pa[2]}-{pb[2]}-{think:g}"
    plan = [(w, bl, seed, v, no_progress_rounds, clock) for w, bl, seed, v in
            schedule(pa, pb, games, variant, tag)]
    began = time.perf_counter()
    matches: list[Match] = []
    if jobs <= 1:
        for job in plan:
            matches.append(_play_job(job))
            if progress:
                _progress(matches, pa[2], games)
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for match in pool.map(_play_job, plan):
                matches.append(match)
                if progress:
                    _progress(matches, pa[2], games)
    result = tally(pa, pb, matches, variant, time.perf_counter() - began, jobs)
    result["clock"] = clock
    return result


def _progress(matches: list[Match], a: str, games: int) -> None:
    m = matches[-1]
    side = "white" if m.white.label == a else "black"
    outcome = "draw" if m.winner is None else ("win" if m.winner == side else "loss")
    print(f"  {len(matches)}/{games}: {a} as {side}: {outcome} ({m.reason}, {m.actions} actions)",
          flush=True)


def tally(pa: Player, pb: Player, matches: list[Match], variant: str, wall: float,
          jobs: int) -> dict[str, Any]:
    a, b = pa[2], pb[2]
    wins = draws = losses = 0
    reasons: dict[str, int] = {}
    nodes = searched = 0.0
    for m in matches:
        side = "white" if m.white.label == a else "black"
        if m.winner is None:
            draws += 1
        elif m.winner == side:
            wins += 1
        else:
            losses += 1
        reasons[m.reason] = reasons.get(m.reason, 0) + 1
        for s in (m.white, m.black):
            nodes += s.nodes
            searched += s.searched
    decided = wins + losses
    games = len(matches)
    low, high = wilson(wins, decided)
    score_low, score_high = wilson(wins + draws / 2, games)
    return {
        "a": a, "b": b, "level_a": pa[0], "level_b": pb[0], "variant": variant, "think_seconds": pa[1], "think_seconds_b": pb[1],
        "games": games, "jobs": jobs,
        "wins": wins, "draws": draws, "losses": losses,
        "win_rate_of_decided": wins / decided if decided else None,
        "win_rate_ci95": [low, high],
        "score": (wins + draws / 2) / games if games else None,
        "score_ci95": [score_low, score_high],
        "reasons": reasons,
        "mean_actions": sum(m.actions for m in matches) / games if games else 0,
        "nodes_per_second": nodes / searched if searched else None,
        "wall_seconds": wall,
        "matches": [asdict(m) for m in matches],
    }


def report(result: dict[str, Any]) -> str:
    r = result
    lines = [
        f"{r['a']} vs {r['b']} · {r['variant']} · think {_think(r)} ({r.get('clock', 'wall')} clock) · "
        f"{r['games']} games "
        f"({r['jobs']} jobs, {r['wall_seconds']:.0f} s)",
        f"  {r['a']}: {r['wins']} wins, {r['draws']} draws, {r['losses']} losses",
    ]
    if r["win_rate_of_decided"] is not None:
        low, high = r["win_rate_ci95"]
        lines.append(f"  wins of decided matches: {100 * r['win_rate_of_decided']:.1f}% "
                     f"(95% CI {100 * low:.1f}-{100 * high:.1f}%)")
    if r["score"] is not None:
        low, high = r["score_ci95"]
        lines.append(f"  score (draw = half): {100 * r['score']:.1f}% (95% CI {100 * low:.1f}-{100 * high:.1f}%)")
    lines.append("  endings: " + ", ".join(f"{k} {v}" for k, v in sorted(r["reasons"].items())))
    lines.append(f"  mean length: {r['mean_actions']:.0f} actions")
    if r["nodes_per_second"]:
        lines.append(f"  search speed: {r['nodes_per_second']:.0f} nodes/s per core")
    return "\n".join(lines)


def _think(r: dict[str, Any]) -> str:
    ta, tb = r["think_seconds"], r["think_seconds_b"]
    if "strong" not in (r["level_a"], r["level_b"]):
        return "n/a"  # only `strong` searches
    return f"{ta:g} s" if ta == tb else f"{ta:g} s / {tb:g} s"


def write(result: dict[str, Any], path: str) -> None:
    with open(path, "w") as out:
        json.dump(result, out, indent=1)

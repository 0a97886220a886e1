"""A Swiss round's pairing time (the FIDE Dutch system through py4swiss, as
app/tournaments/swiss/dutch.py pairs it: the event written as a TRF, parsed,
paired): 64 players over 7 rounds, and 63 (a bye each round), each round timed.

    .venv/bin/python bench/swiss_pairing.py [--players 64,63] [--rounds 7] [--events 5]

Results are drawn by the players' ratings (the Elo expectation, a fifth of the
games drawn), so the score groups split as in a real event; each event has its
own seed. Goal: every round paired in under 1 s (a fixed budget: no pairing
program runs in the same process to measure against). Results in
bench/results/swiss_pairing.json.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.tournaments.swiss.dutch import pair_round  # noqa: E402
from app.tournaments.swiss.record import Entrant, Game  # noqa: E402

GOAL_SECONDS = 1.0


def _result(rng: random.Random, white: Entrant, black: Entrant) -> str:
    expected = 1 / (1 + 10 ** ((black.rating - white.rating) / 400))
    roll = rng.random()
    if roll < 0.2:
        return "draw"
    return "white" if rng.random() < expected else "black"


def one_event(players: int, rounds: int, seed: int) -> list[float]:
    rng = random.Random(seed)
    entrants = [Entrant(n, f"Player{n:03}", rng.randint(1200, 2400)) for n in range(1, players + 1)]
    by_key = {e.key: e for e in entrants}
    present = {e.key for e in entrants}
    games: list[Game] = []
    times = []
    for number in range(1, rounds + 1):
        began = time.perf_counter()
        boards = pair_round(entrants, games, number - 1, rounds, present)
        times.append(time.perf_counter() - began)
        for b in boards:
            result = "bye" if b.black is None else _result(rng, by_key[b.white], by_key[b.black])
            games.append(Game(number, b.white, b.black, result))
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", default="64,63")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--events", type=int, default=5)
    args = parser.parse_args()
    pair_round([Entrant(1, "a", 1500), Entrant(2, "b", 1400)], [], 0, 1, {1, 2})  # imports and first call paid
    report = {}
    print(f"{'players':>7} {'round':>5} {'p50 ms':>8} {'max ms':>8}  goal < {GOAL_SECONDS * 1000:.0f} ms")
    worst = 0.0
    for players in (int(p) for p in args.players.split(",")):
        per_round: list[list[float]] = [[] for _ in range(args.rounds)]
        for seed in range(args.events):
            for i, took in enumerate(one_event(players, args.rounds, seed)):
                per_round[i].append(took)
        rows = []
        for i, took in enumerate(per_round, start=1):
            p50, top = statistics.median(took), max(took)
            worst = max(worst, top)
            rows.append({"round": i, "p50_ms": round(p50 * 1000, 1), "max_ms": round(top * 1000, 1)})
            print(f"{players:>7} {i:>5} {p50 * 1000:>8.1f} {top * 1000:>8.1f}")
        report[str(players)] = rows
    verdict = "PASS" if worst < GOAL_SECONDS else "MISS"
    print(f"slowest round: {worst * 1000:.1f} ms over {args.events} events each: {verdict}")
    out = ROOT / "bench" / "results"
    out.mkdir(exist_ok=True)
    (out / "swiss_pairing.json").write_text(json.dumps({"rounds": report, "slowest_ms": round(worst * 1000, 1),
                                                        "goal_ms": GOAL_SECONDS * 1000, "verdict": verdict},
                                                       indent=2))


if __name__ == "__main__":
    main()

"""`python -m app.puzzles mine --seed S --games N [--variant V] [--jobs J] [--out FILE]`

Mines the computer's self-play for puzzles and writes them as JSON lines
(one puzzle a line, in match order), the form of the shipped seed set
(`app/puzzles/seed.jsonl`). The same seed, count and depths give the same
file. `--append` adds matches `--first`.. to an existing file, so a long run
can be made in parts; puzzles already in the file (by id) are not repeated.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from .miner import DEEP, QUICK
from .mining import mine_games


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app.puzzles")
    sub = parser.add_subparsers(dest="command", required=True)
    mine = sub.add_parser("mine", help="mine self-play matches for puzzles")
    mine.add_argument("--seed", required=True)
    mine.add_argument("--games", type=int, required=True)
    mine.add_argument("--first", type=int, default=0, help="number of the first match")
    mine.add_argument("--variant", default="standard")
    mine.add_argument("--jobs", type=int, default=1)
    mine.add_argument("--quick", type=int, default=QUICK)
    mine.add_argument("--deep", type=int, default=DEEP)
    mine.add_argument("--out", default="-")
    mine.add_argument("--append", action="store_true")
    args = parser.parse_args(argv)
    seen: set[str] = set()
    if args.append and args.out != "-":
        try:
            with open(args.out) as existing:
                seen = {json.loads(line)["id"] for line in existing if line.strip()}
        except FileNotFoundError:
            pass
    out = sys.stdout if args.out == "-" else open(args.out, "a" if args.append else "w")  # noqa: SIM115  (stdout is not closed)
    began = time.perf_counter()
    total = cpu_total = 0.0
    try:
        for number, found, cpu in mine_games(args.seed, args.games, args.variant, args.jobs,
                                             args.quick, args.deep, args.first):
            for rec in found:
                if rec["id"] in seen:
                    continue
                seen.add(rec["id"])
                out.write(json.dumps(rec, separators=(",", ":")) + "\n")
                total += 1
            out.flush()
            cpu_total += cpu
            print(f"match {number}: {len(found)} puzzles ({cpu:.1f} CPU s); {total:.0f} in all",
                  file=sys.stderr, flush=True)
    finally:
        if out is not sys.stdout:
            out.close()
    wall = time.perf_counter() - began
    print(f"{total:.0f} puzzles from {args.games} matches: {100 * total / max(args.games, 1):.1f} per 100; "
          f"{cpu_total:.0f} CPU s, {wall:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

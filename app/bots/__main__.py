"""Command line: `python -m app.bots arena ...` and `python -m app.bots balance ...`."""

from __future__ import annotations

import argparse
import sys

from app.rules import DEFAULT_NO_PROGRESS_ROUNDS, VARIANTS

from . import LEVELS
from .arena import report, run, write


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app.bots")
    commands = parser.add_subparsers(dest="command", required=True)

    arena = commands.add_parser("arena", help="play two levels against each other, colour-balanced")
    arena.add_argument("a", choices=LEVELS)
    arena.add_argument("b", choices=LEVELS)
    arena.add_argument("--games", type=int, default=200)
    arena.add_argument("--variant", choices=VARIANTS, default="standard")
    arena.add_argument("--think", type=float, default=1.0, help="seconds per action of `strong` (default 1)")
    arena.add_argument("--think-b", type=float, default=None,
                       help="a different think time for the second level (to set strong against itself)")
    arena.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    arena.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                       help="count think time on the wall clock (as a server does) or in CPU "
                            "seconds of the worker (fair figures on a busy machine)")
    arena.add_argument("--no-progress-rounds", type=int, default=DEFAULT_NO_PROGRESS_ROUNDS)
    arena.add_argument("--out", help="write the tally and every match as JSON here")
    arena.add_argument("--quiet", action="store_true", help="no line per finished match")

    balance = commands.add_parser("balance", help="self-play of the strongest level; writes docs/balance.md")
    balance.add_argument("--games", type=int, default=200, help="matches per variant (default 200)")
    balance.add_argument("--think", type=float, default=1.0)
    balance.add_argument("--variants", nargs="+", choices=VARIANTS, default=list(VARIANTS))
    balance.add_argument("--jobs", type=int, default=1)
    balance.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    balance.add_argument("--level", choices=LEVELS, default=LEVELS[-1])
    balance.add_argument("--out", default="docs/balance.md")
    balance.add_argument("--data", default="docs/balance", help="folder for the charts and the raw JSON")
    balance.add_argument("--from-json", action="store_true",
                         help="redraw docs/balance.md from the JSON already in --data, playing nothing")

    args = parser.parse_args(argv)
    if args.command == "arena":
        if args.games < 1 or args.jobs < 1 or args.think <= 0:
            parser.error("--games and --jobs must be at least 1, --think more than 0")
        result = run(args.a, args.b, args.games, args.variant, args.think, args.jobs,
                     args.no_progress_rounds, think_b=args.think_b, progress=not args.quiet,
                     clock=args.clock)
        print(report(result))
        if args.out:
            write(result, args.out)
            print(f"  written to {args.out}")
        return 0
    from .balance import balance as run_balance

    if args.games < 1 or args.jobs < 1 or args.think <= 0:
        parser.error("--games and --jobs must be at least 1, --think more than 0")
    run_balance(args.level, args.variants, args.games, args.think, args.jobs, args.out, args.data,
                replay_only=args.from_json, clock=args.clock)
    return 0


if __name__ == "__main__":
    sys.exit(main())

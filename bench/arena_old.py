"""The new strong level against the frozen one of 780ea97 (bench/strong_old), in the arena.

    .venv/bin/python bench/arena_old.py --games 20 --think 1.0 [--variant V] [--jobs 2] [--tag T] [--out f.json]
        [--new width=12,late=8,root_width=16,spend=0.5,quiescence=4]

Colour-balanced pairs on one deal each, think time on the CPU clock (a shared
machine's load does not shorten a side's thinking), tallied from the new
level's side with a 95% Wilson interval, as `python -m app.bots arena` does:
it is that arena, with the level "strong_old" added for this run only.
`--new` runs the new level with other settings of its search (search.Search's
keywords), to try one before it becomes the default.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from app.bots import arena, choose_with_info  # noqa: E402
from app.bots.candidates import candidates  # noqa: E402
from app.bots.hidden import determinize  # noqa: E402
from app.bots.search import CLOCKS, Search  # noqa: E402
from app.bots.setup import choose_setup  # noqa: E402
from app.rules import SETUP, State, action_json  # noqa: E402
from bench.strong_old.search import choose_strong as choose_old  # noqa: E402

_choose = choose_with_info
SETTINGS: dict[str, float] = {}  # --new: the new level's search settings (forked workers inherit them)


def choose_with_old(level: str, state: dict[str, Any], seed: int, think_seconds: float = 1.0,
                    clock: str = "wall") -> tuple[dict[str, Any], dict[str, Any]]:
    """`choose_with_info`, with "strong_old" taken the way "strong" is (hidden.py
    first), and "strong" with the settings of --new."""
    if level not in ("strong_old", "strong") or (level == "strong" and not SETTINGS):
        return _choose(level, state, seed, think_seconds, clock)
    rng = random.Random(seed)
    s = determinize(State.from_json(state), rng)
    if s.phase == SETUP:
        return {"type": "setup", "backrow": choose_setup(s, rng)}, {}
    if level == "strong_old":
        action, info = choose_old(s, think_seconds, clock)
        return action_json(action), info
    actions = candidates(s)
    if len(actions) == 1:
        return action_json(actions[0]), {"depth": 0, "nodes": 0, "value": 0.0}
    kwargs: dict[str, Any] = {k: (v if k == "spend" else int(v)) for k, v in SETTINGS.items()}
    action, info = Search(think_seconds, CLOCKS[clock], **kwargs).root(s, actions)
    return action_json(action), info


def settings(text: str) -> dict[str, float]:
    """"width=12,late=8" as {"width": 12.0, "late": 8.0}."""
    out = {}
    for part in filter(None, text.split(",")):
        name, _, value = part.partition("=")
        if name not in ("width", "late", "root_width", "spend", "quiescence", "max_depth"):
            raise SystemExit(f"--new: unknown setting {name!r}")
        out[name] = float(value)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--old", default="strong_old", help="the other level (e.g. greedy)")
    parser.add_argument("--tag", default=None, help="names the deals (default old-THINK): another tag, other deals")
    parser.add_argument("--out", default=None)
    parser.add_argument("--new", default="", help="the new level's search settings, e.g. width=12,late=8")
    args = parser.parse_args()
    SETTINGS.update(settings(args.new))
    setattr(arena, "choose_with_info", choose_with_old)  # noqa: B010  # forked workers inherit it
    result = arena.run("strong", args.old, args.games, args.variant, args.think, args.jobs,
                       tag=args.tag or f"old-{args.think:g}", progress=True, clock="cpu")
    print(arena.report(result))
    if args.out:
        arena.write(result, args.out)


if __name__ == "__main__":
    main()

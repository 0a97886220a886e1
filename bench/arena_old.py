"""The new strong level against the frozen one of 780ea97 (bench/strong_old), in the arena.

    .venv/bin/python bench/arena_old.py --games 20 --think 1.0 [--variant V] [--jobs 2] [--tag T] [--out f.json]
        [--new width=12,late=8,root_width=16,spend=0.5,quiescence=4] [--old-engine pure]

Colour-balanced pairs on one deal each, think time on the CPU clock (a shared
machine's load does not shorten a side's thinking), tallied from the new
level's side with a 95% Wilson interval, as `python -m app.bots arena` does:
it is that arena, with the level "strong_old" added for this run only.
`--new` runs the new level with other settings of its search (search.Search's
keywords), to try one before it becomes the default.

By default the old search runs on the engine of this checkout, compiled like the
new one (they share one process): a contest of the searches alone, harder
for the new level than issue 22 asks. `--old-engine pure` plays the old level
as it shipped, its search on the pure-Python engine (a child process with
MAGERY_PURE_PYTHON=1 per worker, thinking on its own CPU clock): the issue's
"today's strong", the engine's speed included in what the new level gained.
(Today's pure-Python engine is itself somewhat faster than the one of 780ea97,
so even this is a little harder than the issue's words.)
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
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
OLD_ENGINE = {"name": "compiled"}  # --old-engine (forked workers inherit it)


class OldOnItsEngine:
    """The old level in a child process on the pure-Python engine, one child per
    worker process (started at its first question; it ends when its stdin closes)."""

    def __init__(self) -> None:
        self.child: subprocess.Popen[str] | None = None
        self.owner = 0  # the process that started the child: a forked worker starts its own

    def choose(self, state: dict[str, Any], seed: int, think: float, clock: str) -> tuple[dict[str, Any], dict[str, Any]]:
        if self.child is None or self.owner != os.getpid():
            self.child = subprocess.Popen([sys.executable, __file__, "--serve-old"], stdin=subprocess.PIPE,
                                          stdout=subprocess.PIPE, text=True,
                                          env={**os.environ, "MAGERY_PURE_PYTHON": "1"})
            self.owner = os.getpid()
        assert self.child.stdin is not None and self.child.stdout is not None
        self.child.stdin.write(json.dumps([state, seed, think, clock]) + "\n")
        self.child.stdin.flush()
        answer = self.child.stdout.readline()
        if not answer:
            raise SystemExit("the old level's process ended")
        action, info = json.loads(answer)
        return action, info


OLD = OldOnItsEngine()


def serve_old() -> None:
    """The child's loop: a question a line, an answer a line, with the CPU it took."""
    import app.rules.state

    if not app.rules.state.__file__ or not app.rules.state.__file__.endswith(".py"):
        raise SystemExit(f"--serve-old: the engine is not the pure-Python one ({app.rules.state.__file__})")
    for line in sys.stdin:
        state, seed, think, clock = json.loads(line)
        began = time.process_time()
        action, info = choose_with_old("strong_old", state, seed, think, clock)
        info["cpu"] = time.process_time() - began
        print(json.dumps([action, info]), flush=True)


def choose_with_old(level: str, state: dict[str, Any], seed: int, think_seconds: float = 1.0,
                    clock: str = "wall") -> tuple[dict[str, Any], dict[str, Any]]:
    """`choose_with_info`, with "strong_old" taken the way "strong" is (hidden.py
    first), and "strong" with the settings of --new."""
    if level not in ("strong_old", "strong") or (level == "strong" and not SETTINGS):
        return _choose(level, state, seed, think_seconds, clock)
    if level == "strong_old" and OLD_ENGINE["name"] == "pure":
        return OLD.choose(state, seed, think_seconds, clock)
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
    parser.add_argument("--old-engine", choices=("compiled", "pure"), default="compiled",
                        help="the old level's engine: this checkout's (default) or pure Python, as it shipped")
    parser.add_argument("--serve-old", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_old:
        return serve_old()
    OLD_ENGINE["name"] = args.old_engine
    import app.rules.state

    print(f"new level's engine: {'compiled' if not app.rules.state.__file__.endswith('.py') else 'pure Python'}; "
          f"old level's: {args.old_engine}", flush=True)
    SETTINGS.update(settings(args.new))
    setattr(arena, "choose_with_info", choose_with_old)  # noqa: B010  # forked workers inherit it
    result = arena.run("strong", args.old, args.games, args.variant, args.think, args.jobs,
                       tag=args.tag or f"old-{args.think:g}", progress=True, clock="cpu")
    print(arena.report(result))
    if args.out:
        arena.write(result, args.out)


if __name__ == "__main__":
    main()

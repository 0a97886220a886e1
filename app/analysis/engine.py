"""The search of a finished match's positions, run in a worker process.

`search_positions(items, depth, seconds)` is a top-level function of plain
data, so a `ProcessPoolExecutor` can run it: each item is (version, the
state's `to_json()`, a seed), each answer (version, White's eval, the best
action as the notation's JSON, how many choices the mover had).

It is the `strong` level's search (app/bots/search.py) to a fixed depth
rather than for a time: a depth gives the same answer on a busy machine and a
quiet one, so an analysis can be checked, resumed on another process and
recomputed. `seconds` only bounds a pathological position, in CPU seconds of
the worker (a busy machine must not cut a search short).

Hidden information (R20): the position is searched as the mover saw it. The
chaos deck's order and the seed are replaced by a guess (app/bots/hidden.py)
drawn from the item's seed, which the caller derives from the match and the
version, so a resumed or repeated analysis guesses alike. The judge knows no
more than the player did; and what leaves is an eval and one legal action.
"""

from __future__ import annotations

import gc
import math
import random
from typing import Any

from app.bots.candidates import candidates
from app.bots.evaluate import SCALE, WIN
from app.bots.hidden import determinize
from app.bots.search import CLOCKS, INF, Search
from app.rules import State, action_json, apply

Item = tuple[int, dict[str, Any], int]
Found = tuple[int, float, dict[str, Any], int]


def squash(raw: float) -> float:
    """The search's raw value (White's, in undead) on the advantage graph's scale."""
    if raw >= WIN:
        return 1.0
    if raw <= -WIN:
        return -1.0
    return round(math.tanh(raw / SCALE), 4)


def search_one(search: Search, s: State, depth: int, seconds: float) -> tuple[float, tuple[Any, ...], int]:
    """(White's raw value at `depth`, the best action, the number of choices) of `s`."""
    search.start = search.clock()
    search.deadline = search.start + seconds
    search.think_seconds = seconds
    search.depth_done = 0
    actions = candidates(s)
    if len(actions) == 1:
        collecting = gc.isenabled()
        gc.disable()
        try:
            return search.value(apply(s, actions[0])[0], depth - 1, -INF, INF), actions[0], 1
        finally:
            if collecting:
                gc.enable()
    best, info = search.root(s, actions)
    return float(info["value"]), best, len(actions)


def search_positions(items: list[Item], depth: int, seconds: float) -> list[Found]:
    """Each item's position searched in turn, with one search's tables: a
    version's position is the one before with one action played, so most of
    its tree was met already (each stored value keeps the depth it was
    searched to, so none is taken for a deeper one)."""
    search = Search(seconds, CLOCKS["cpu"], max_depth=depth)
    out: list[Found] = []
    for version, state, seed in items:
        s = determinize(State.from_json(state), random.Random(seed))
        raw, best, choices = search_one(search, s, depth, seconds)
        out.append((version, squash(raw), action_json(best), choices))
    return out

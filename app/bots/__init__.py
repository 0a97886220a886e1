"""Computer opponents. A bot chooses an action; whoever runs it plays the
action through the same gateway a person's action takes.

    >>> from app.rules import new_match
    >>> state = new_match(seed="0123456789abcdef0123456789abcdef").to_json()
    >>> choose("greedy", state, seed=1, think_seconds=0.1)["type"]
    'setup'

`choose(level, state, seed, think_seconds)` is the one entry point: a
top-level function of plain data (the state's `State.to_json()` form in, a
contract action out), so it can run in a worker process. The levels, weakest
first (docs/bots.md says how each thinks):

- "random": a uniformly random legal action (and a random setup);
- "greedy": a fixed priority list, one action deep (greedy.py);
- "strong": alpha-beta search on the evaluation within `think_seconds` (search.py).

Hidden information (R20): a bot never uses the chaos deck's order or the
match's seed. `choose` replaces both with ones drawn from its own `seed`
before it looks at the state (hidden.py).

`evaluate(state)` scores a position from White's view in [-1, 1], for the
replay's advantage graph.
"""

from __future__ import annotations

import random
from typing import Any

from app.rules import SETUP, State, action_json, legal_actions, setup_choices

from .evaluate import evaluate as _evaluate
from .greedy import choose_greedy
from .hidden import determinize
from .search import choose_strong
from .setup import choose_setup

_LEVEL_NAMES: tuple[str, ...] = ("random", "greedy", "strong")
DEFAULT_THINK_SECONDS = 1.0


def choose(level: str, state: dict[str, Any], seed: int, think_seconds: float = DEFAULT_THINK_SECONDS) -> dict[str, Any]:
    """One legal action (contract JSON) for the player to move in `state`."""
    action, _ = choose_with_info(level, state, seed, think_seconds)
    return action


def choose_with_info(level: str, state: dict[str, Any], seed: int,
                     think_seconds: float = DEFAULT_THINK_SECONDS,
                     clock: str = "wall") -> tuple[dict[str, Any], dict[str, Any]]:
    """`choose`, plus what the search did (depth, nodes) for the arena's figures.
    `clock="cpu"` counts think time in CPU seconds of this process, so arena
    figures on a shared machine do not depend on its load."""
    if level not in _LEVEL_NAMES:
        raise ValueError(f"unknown bot level {level!r}; one of {', '.join(_LEVEL_NAMES)}")
    rng = random.Random(seed)
    s = determinize(State.from_json(state), rng)
    if level == "random":
        return random_bot(s, rng), {}
    if s.phase == SETUP:
        return {"type": "setup", "backrow": choose_setup(s, rng)}, {}
    if level == "greedy":
        return action_json(choose_greedy(s, rng)), {}
    action, info = choose_strong(s, think_seconds, clock)
    return action_json(action), info


def evaluate(state: dict[str, Any] | State) -> float:
    """The position from White's view in [-1, 1]; +1 is a White win."""
    s = state if isinstance(state, State) else State.from_json(state)
    return _evaluate(s)


def random_bot(state: State, rng: random.Random) -> dict[str, Any]:
    row = setup_choices(state)
    if row:
        rng.shuffle(row)
        return {"type": "setup", "backrow": row}
    return action_json(rng.choice(legal_actions(state)))


LEVELS: tuple[str, ...] = _LEVEL_NAMES

"""Computer opponents: what a bot chooses, as pure functions over the rules.

`choose(level, state, seed, think_seconds)` is what the bot runner
(app/bots/runner.py) calls in a worker process; it takes the engine state in
its JSON form, so it crosses a process boundary as plain data.

Levels: "random" plays a uniformly random legal action (and a random setup).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from app.rules import State, action_json, legal_actions, setup_choices

Bot = Callable[[State, random.Random], dict[str, Any]]


def random_bot(state: State, rng: random.Random) -> dict[str, Any]:
    row = setup_choices(state)
    if row:
        rng.shuffle(row)
        return {"type": "setup", "backrow": row}
    return action_json(rng.choice(legal_actions(state)))


BRAINS: dict[str, Bot] = {"random": random_bot}
LEVELS: tuple[str, ...] = tuple(BRAINS)


def choose(level: str, state: dict[str, Any], seed: int, think_seconds: float) -> dict[str, Any]:
    """One legal action for the player to move in `state` (State.to_json form)."""
    return BRAINS[level](State.from_json(state), random.Random(seed))

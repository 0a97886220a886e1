"""Computer opponents. A bot chooses an action; the match service plays it
through the same `act` path a person's action takes.

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


LEVELS: dict[str, Bot] = {"random": random_bot}

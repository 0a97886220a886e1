"""A finished match's positions as an analysis sees them, and its plies as a
client reads them.

`plan` lists every version with its position and what made it; the search
(engine.py) takes the positions a player had to choose in, the others are
judged at once (the setup counts as even, as on the advantage graph; an ended
match is its result). `shown` turns stored plies into the answer's, with each
action's drop and judgement (judge.py), `accuracies` each player's figure.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from app.bots.evaluate import evaluate
from app.matches.history import Entry, positions
from app.rules import ACTION, DECISION, OVER, State

from . import judge

ENGINE_ACTIONS = frozenset({"place", "remove", "pass"})


@dataclass(frozen=True, slots=True)
class Position:
    version: int
    state: State
    searched: bool  # a player chooses here: the search judges it
    mover: str | None  # who made this version by an action of their own choosing, else None
    played: dict[str, Any] | None  # that action


def plan(start: State, log: list[Entry]) -> list[Position]:
    made = {version: (player, action, automatic) for version, player, action, automatic in log}
    out = []
    for version, state in positions(start, log):
        player, action, automatic = made.get(version, (None, None, True))
        mine = player in ("white", "black") and not automatic and action is not None \
            and action.get("type") in ENGINE_ACTIONS
        out.append(Position(version, state, state.phase in (ACTION, DECISION),
                            player if mine else None, action if mine else None))
    return out


def at_once(state: State) -> float:
    """The eval of a position nobody chooses in: the setup is even, an end its result."""
    if state.phase == OVER:
        return round(evaluate(state), 4)
    return 0.0


def seed_of(match_id: str, version: int) -> int:
    """The search's guess at the hidden deck (R20) for one position: the same on every process."""
    return int.from_bytes(hashlib.sha256(f"{match_id}:{version}".encode()).digest()[:8], "big")


def shown(rows: Sequence[Any]) -> list[dict[str, Any]]:
    """The stored plies (version order) as the API answers them: `drop` is what
    the action that made the version cost its mover (None: not judged)."""
    out: list[dict[str, Any]] = []
    before = None
    for row in rows:
        lost = None
        if (row.mover is not None and before is not None and before.version == row.version - 1
                and before.best is not None and before.choices > 1 and not row.as_best):
            lost = judge.drop(before.eval, row.eval, row.mover)
        out.append({"version": row.version, "eval": row.eval, "best": row.best,
                    "judgement": judge.judgement(lost), "drop": lost, "mover": row.mover})
        before = row
    return out


def accuracies(plies: Sequence[dict[str, Any]]) -> dict[str, float | None]:
    return {colour: judge.accuracy([p["drop"] for p in plies if p["mover"] == colour and p["drop"] is not None])
            for colour in ("white", "black")}

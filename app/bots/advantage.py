"""The advantage graph of a finished match: every position judged by the
`strong` level's evaluation, from White's view (+1 a White win, -1 a Black
win), as lichess draws one under a chess game.

It is the evaluation alone, not a search: a long match has ~300 positions and
the graph must come back in a blink (about 0.1 ms a position). The evaluation
already weighs the captures each side holds a chamber for, so a capture about to
happen shows before it lands. While the backrows are being set up (one side's
minions in the arena, the other's not yet) there is nothing to judge: those
positions count as even.
"""

from __future__ import annotations

from typing import Any

from app.matches.history import Entry, positions
from app.rules import SETUP, State

from .evaluate import evaluate


def advantage(start: State, log: list[Entry]) -> list[dict[str, Any]]:
    """[{"version", "white"}] for version 0 (the match as created) and every log entry."""
    return [{"version": version, "white": 0.0 if state.phase == SETUP else round(evaluate(state), 3)}
            for version, state in positions(start, log)]

"""The judgement of each action, and each player's accuracy, from the evals.

Pure arithmetic on what the search found (engine.py): every figure here can be
recomputed by a client from the plies an analysis answers with.

**The scale.** An eval is White's expected score on the advantage graph's
scale: +1 a White win, -1 a Black win, 0 even (`evaluate` is tanh(score / 40),
which the fit of bench/tune_eval.py made read as 2P - 1, P White's expected
score). A player's expected score from an eval `e` is (1 + e) / 2 for White,
(1 - e) / 2 for Black, in [0, 1].

**The drop.** An action is judged by what it cost its player: the mover's
expected score in the position before it (its eval, searched: what best play
keeps) less the mover's expected score after it, never below 0. It is not
judged (no drop, no judgement, no part of the accuracy) when the engine would
have played it too, when it was the mover's only choice, when the position
before it was not searched (the setup, or no action to judge), or when it is
not a player's engine action (an automatic pass, a join, a draw offer...).
The first rule keeps the search's own horizon from blaming the best action:
a position searched one action deeper may read a little worse than its
parent's value said, with nothing done wrong.

**The thresholds**, on the expected score (0..1): an inaccuracy from a drop
of 0.05, a mistake from 0.10, a blunder from 0.15. They are lichess's 0.1, 0.2
and 0.3 on its winning-chances scale (-1..1), which is the same logistic
reading of a position as ours halved: an inaccuracy costs a twentieth of a
match. We kept them rather than widening them for a shallower search because
the engine's own errors at the default depth fall below them: a search one
action deeper reads its own best line within 0.05 of its parent in most
positions (bench/analysis.py counts the judgements of a strong bot's actions).

**Accuracy.** Each judged action scores 100 * exp(-5 * drop): 100 for no loss,
about 78 for an inaccuracy's 0.05, 61 for a mistake's 0.10, 47 for a blunder's
0.15, 8 for giving away half a match. A player's accuracy is the mean of their
judged actions' scores, to one decimal (None when they had none judged). The
curve follows lichess's per-move accuracy (an exponential in the drop of win
percentage, with about the same steepness); the plain mean, where lichess
mixes a volatility-weighted and a harmonic mean, keeps the figure easy to
recompute and to explain.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final

INACCURACY: Final = 0.05
MISTAKE: Final = 0.10
BLUNDER: Final = 0.15
STEEPNESS: Final = 5.0  # of the per-action accuracy's exponential


def expected(white_eval: float, mover: str) -> float:
    """The mover's expected score (0..1) from White's eval (-1..1)."""
    return (1.0 + white_eval) / 2.0 if mover == "white" else (1.0 - white_eval) / 2.0


def drop(before: float, after: float, mover: str) -> float:
    """What the action cost its mover, in expected score (0..1), rounded as stored."""
    return round(max(0.0, expected(before, mover) - expected(after, mover)), 4)


def judgement(lost: float | None) -> str | None:
    if lost is None:
        return None
    if lost >= BLUNDER:
        return "blunder"
    if lost >= MISTAKE:
        return "mistake"
    if lost >= INACCURACY:
        return "inaccuracy"
    return None


def action_accuracy(lost: float) -> float:
    return 100.0 * math.exp(-STEEPNESS * lost)


def accuracy(drops: Sequence[float]) -> float | None:
    """A player's accuracy (0..100) from the drops of their judged actions."""
    if not drops:
        return None
    return round(sum(action_accuracy(d) for d in drops) / len(drops), 1)

"""The computer's answer to a draw offer, given at once: it accepts
when its own evaluation of the position says it is losing, and declines
otherwise. A draw is half a point: the side that stands worse gains by it, the
side that stands level or better would give away its chances. evaluate.py reads
nothing hidden (R20): neither the deck's order nor the seed.
"""

from __future__ import annotations

from app.rules import State

from .evaluate import evaluate

# Its outlook in [-1, 1] (1: won) at or below which it takes the draw: clearly
# worse, not a shade (an even position is declined: it plays on).
ACCEPTS_AT = -0.25


def accepts_draw(state: State, seat: str) -> bool:
    """Whether the computer in `seat` ("white" or "black") accepts a draw in `state`."""
    white_view = evaluate(state)
    return (white_view if seat == "white" else -white_view) <= ACCEPTS_AT

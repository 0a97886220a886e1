"""A sensible backrow for the setup phase (R7), for the thinking levels.

Minions on the backrow do nothing until a chamber moves them, so the row is
judged by what each minion could do from its square on the first move: how
many squares it reaches (a dragon or an elemental in the middle sees more than
in a corner, a fey on the edge reaches two squares), plus a bonus for each
greater minion with an undead beside it, which can answer a capture there. Black sees White's
row first and counts White's minions as blockers. The best of a few hundred
random orders is taken, so the choice varies from match to match.
"""

from __future__ import annotations

import random

from app.rules import State

from .board import GREATER, NEIGHBOURS, TYPES, UNDEAD, VALUE, piece_code, reach

_SAMPLES = 300


def _row_score(arena: list[int], colour: int, row: list[int]) -> float:
    first = 0 if colour == 0 else 56
    for file, k in enumerate(row):
        arena[first + file] = piece_code(colour, k)
    total = 0.0
    for file, k in enumerate(row):
        sq = first + file
        weight = 1.0 if k in GREATER else 0.6
        total += weight * len(reach(arena, sq, False))
        if k in GREATER:
            guarded = any(arena[n] == piece_code(colour, UNDEAD) for n in NEIGHBOURS[sq])
            total += 1.5 * VALUE[k] / 9.0 if guarded else 0.0
    return total


def choose_setup(s: State, rng: random.Random) -> list[str]:
    colour = s.to_move
    arena = list(s.arena)
    best: list[int] = []
    top = -1.0
    row = list(range(8))
    for _ in range(_SAMPLES):
        rng.shuffle(row)
        value = _row_score(arena, colour, row)
        if value > top:
            top, best = value, list(row)
    return [TYPES[k] for k in best]

"""Where a minion may go by its ordinary movement (R3), under R4 and the wards."""

from __future__ import annotations

from typing import Final

from .colours import WHITE
from .errors import IllegalAction
from .minions import (
    FEY,
    KNIGHT_LEAPS,
    LEAPS,
    SLIDES,
    SQUARE_NAMES,
    TYPES,
    backrow,
    has_bit,
    owner_of,
    type_of,
)


def destinations(
    arena: tuple[int, ...],
    wards: int,
    square: int,
    knight: bool,
    capture: bool = True,
    backrow_rule: bool = True,
) -> list[int]:
    """Squares the minion on `square` may reach with one ordinary move.

    `knight` adds the Rune Master's knight leaps (R14); `capture` is off for the
    Mentalist; `backrow_rule` off only to explain a refusal. The minion itself
    is assumed not warded (the caller checks). A warded minion is never
    captured (R14) but still blocks a slide.
    """
    # This is the engine's hottest function (every move listed or checked
    # passes here), so it spells out type_of, owner_of, rank_of and the ward
    # bit instead of calling them; a call each costs about 10% of perft.
    piece = arena[square]
    kind = (piece - 1) & 7
    colour = (piece - 1) >> 3
    # Enemy codes are 9-16 for White and 1-8 for Black.
    lo, hi = (9, 16) if colour == WHITE else (1, 8)
    forbidden = -1  # the rank this move may not end on (R4), if any
    if backrow_rule and kind < 3 and (square >> 3) == (0 if colour == WHITE else 7):
        forbidden = 7 if colour == WHITE else 0
    out = []
    for ray in SLIDES[kind][square]:
        for target in ray:
            found = arena[target]
            if found == 0:
                if (target >> 3) != forbidden:
                    out.append(target)
                continue
            if (capture and lo <= found <= hi and not (wards >> target) & 1
                    and (target >> 3) != forbidden):
                out.append(target)
            break
    steps = LEAPS[kind][square]
    if knight and kind != FEY:
        steps = steps + KNIGHT_LEAPS[square]
    for target in steps:
        found = arena[target]
        if found == 0:
            if (target >> 3) != forbidden:
                out.append(target)
        elif (capture and lo <= found <= hi and not (wards >> target) & 1
              and (target >> 3) != forbidden):
            out.append(target)
    return out


# BETWEEN[type][square][target]: the squares a slide from `square` crosses to
# reach `target`, for every target on one of the type's rays from there; and
# the leaps of each type as sets. They let `reaches` answer for one target
# without listing every destination.
BETWEEN: Final[tuple[tuple[dict[int, tuple[int, ...]], ...], ...]] = tuple(
    tuple({ray[i]: ray[:i] for ray in SLIDES[kind][square] for i in range(len(ray))}
          for square in range(64))
    for kind in range(8)
)
LEAP_SETS: Final[tuple[tuple[frozenset[int], ...], ...]] = tuple(
    tuple(frozenset(LEAPS[kind][square]) for square in range(64)) for kind in range(8)
)
KNIGHT_SETS: Final[tuple[frozenset[int], ...]] = tuple(frozenset(steps) for steps in KNIGHT_LEAPS)


def reaches(
    arena: tuple[int, ...], wards: int, square: int, target: int, knight: bool, capture: bool
) -> bool:
    """Whether `target` is among `destinations(arena, wards, square, knight, capture)`.

    The check of every move applied: it looks at the one target (and the
    squares a slide crosses) instead of listing them all.
    """
    piece = arena[square]
    kind = (piece - 1) & 7
    colour = (piece - 1) >> 3
    if kind < 3 and (square >> 3) == (0 if colour == WHITE else 7) \
            and (target >> 3) == (7 if colour == WHITE else 0):
        return False  # R4
    found = arena[target]
    if found:
        lo, hi = (9, 16) if colour == WHITE else (1, 8)
        if not (capture and lo <= found <= hi and not (wards >> target) & 1):
            return False
    between = BETWEEN[kind][square].get(target)
    if between is not None:
        for sq in between:
            if arena[sq]:
                break
        else:
            return True
    if target in LEAP_SETS[kind][square]:
        return True
    return knight and kind != FEY and target in KNIGHT_SETS[square]


def refusal(
    arena: tuple[int, ...], wards: int, square: int, target: int, knight: bool, capture: bool
) -> IllegalAction:
    """Why the minion on `square` may not move to `target`, naming the rule."""
    piece = arena[square]
    name = TYPES[type_of(piece)]
    found = arena[target]
    a, b = SQUARE_NAMES[square], SQUARE_NAMES[target]
    if found and owner_of(found) == owner_of(piece):
        return IllegalAction("R3", f"a minion never moves onto its owner's minion ({b})")
    if found and not capture:
        return IllegalAction("R14", f"this move may not capture, and {b} is occupied")
    if found and has_bit(wards, target):
        return IllegalAction("R14", f"the minion on {b} is warded by the Force Mage and cannot be captured")
    if target in destinations(arena, wards, square, knight, capture, backrow_rule=False):
        own = backrow(owner_of(piece)) + 1
        return IllegalAction("R4", f"a {name} on its own backrow (rank {own}) cannot reach the "
                                   f"opponent's backrow in one move")
    return IllegalAction("R3", f"a {name} cannot move from {a} to {b}")

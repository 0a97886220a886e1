"""What the bots read off a state: names, codes and where a minion attacks.

The bots use only app.rules' public API. The names of types and mages are
therefore learnt from `action_json` (the contract's own spelling), and the
movement tables below are the bots' own small copy of R3/R4: the engine's
tables are internal and are being refactored. Layout of a `State` the bots
rely on (its storage form, so stable): a minion is ``1 + 8 * colour + type``,
a square ``file + 8 * rank`` with a1 = 0, reserve/dead are 16 counts
``colour * 8 + type``, `seat[mage]` is 0 off the board, 1-16 a floor, 17/18
a private chamber of White/Black.
"""

from __future__ import annotations

from typing import Final

from app.rules import action_json, new_match

TYPES: tuple[str, ...] = tuple(action_json(("place", 0, k))["minion"] for k in range(8))
TYPE = {name: k for k, name in enumerate(TYPES)}
DRAGON, ELEMENTAL, CONSTRUCT = TYPE["dragon"], TYPE["elemental"], TYPE["construct"]
# Final: a compiled build (mypyc) reads these from C statics, not the module's dict.
FEY: Final = TYPE["fey"]
SPIRIT, MYRMIDON = TYPE["spirit"], TYPE["myrmidon"]
UNDEAD, BEAST = TYPE["undead"], TYPE["beast"]
GREATER: Final = (DRAGON, ELEMENTAL, CONSTRUCT)
MINOR = (FEY, SPIRIT, MYRMIDON)


MAGES: tuple[str, ...] = tuple(
    action_json(("place", m, 0))["mage"] for m in range(len(new_match(seed="bots").seat)))
MAGE = {name: m for m, name in enumerate(MAGES)}
MAGE_COUNT = len(MAGES)

# The eight fixed mages that move or summon one type (R12), and the Animist.
TYPE_OF_MAGE: Final[dict[int, int]] = {
    MAGE["necromancer"]: UNDEAD, MAGE["sorcerer"]: BEAST, MAGE["wizard"]: MYRMIDON,
    MAGE["warlock"]: SPIRIT, MAGE["druid"]: FEY, MAGE["artificer"]: CONSTRUCT,
    MAGE["elemental_master"]: ELEMENTAL, MAGE["dragon_lord"]: DRAGON,
}
MAGE_OF_TYPE: Final[dict[int, int]] = {k: m for m, k in TYPE_OF_MAGE.items()}
ANIMIST: Final = MAGE["animist"]
MAGICIAN: Final = MAGE["magician"]
MYSTIC, ORACLE = MAGE["mystic"], MAGE["oracle"]
SEER, MAGUS, ALCHEMIST = MAGE["seer"], MAGE["magus"], MAGE["alchemist"]
ENCHANTER: Final = MAGE["enchanter"]
MENTALIST, DREAM_LORD = MAGE["mentalist"], MAGE["dream_lord"]
SHADOW_MAGE: Final = MAGE["shadow_mage"]
FORCE_MAGE, ILLUSIONIST = MAGE["force_mage"], MAGE["illusionist"]
CONJURER: Final = MAGE["conjurer"]
RUNE_MASTER = MAGE["rune_master"]
CHAOS_MAGES = tuple(range(MAGE["seer"], MAGE_COUNT))

OFF: Final = 0
PRIVATE: Final = (17, 18)

# What a minion is worth to its owner, in undead. Greater minions also count
# towards the opponent's win (R15): evaluate.py adds that on top.
VALUE: Final[list[float]] = [0.0] * 8
VALUE[DRAGON], VALUE[CONSTRUCT], VALUE[ELEMENTAL] = 9.0, 5.5, 4.5
VALUE[FEY], VALUE[SPIRIT], VALUE[MYRMIDON] = 3.0, 3.0, 2.5
VALUE[UNDEAD], VALUE[BEAST] = 1.2, 1.0


def owner(piece: int) -> int:
    return (piece - 1) >> 3


def kind(piece: int) -> int:
    return (piece - 1) & 7


def piece_code(colour: int, k: int) -> int:
    return 1 + 8 * colour + k


# ---- movement (R3), the bots' own tables -------------------------------------

_ORTH = ((1, 0), (-1, 0), (0, 1), (0, -1))
_DIAG = ((1, 1), (1, -1), (-1, 1), (-1, -1))
_KNIGHT = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
_FAR = ((1, 3), (3, 1), (3, -1), (1, -3), (-1, -3), (-3, -1), (-3, 1), (-1, 3))
_TWO = tuple((2 * a, 2 * b) for a, b in _ORTH + _DIAG)


def _rays(sq: int, dirs: tuple[tuple[int, int], ...]) -> tuple[tuple[int, ...], ...]:
    out = []
    for df, dr in dirs:
        f, r, ray = (sq & 7) + df, (sq >> 3) + dr, []
        while 0 <= f < 8 and 0 <= r < 8:
            ray.append(f + 8 * r)
            f, r = f + df, r + dr
        if ray:
            out.append(tuple(ray))
    return tuple(out)


def _leaps(sq: int, steps: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    f, r = sq & 7, sq >> 3
    return tuple(f + df + 8 * (r + dr) for df, dr in steps if 0 <= f + df < 8 and 0 <= r + dr < 8)


_SLIDE_DIRS = {DRAGON: _ORTH + _DIAG, ELEMENTAL: _DIAG, CONSTRUCT: _ORTH}
_LEAP_STEPS = {FEY: _KNIGHT, SPIRIT: _FAR, MYRMIDON: _TWO, UNDEAD: _ORTH, BEAST: _DIAG}
SLIDES: Final[tuple[tuple[tuple[tuple[int, ...], ...], ...], ...]] = tuple(tuple(_rays(s, _SLIDE_DIRS[k]) if k in _SLIDE_DIRS else () for s in range(64))
               for k in range(8))
LEAPS: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(tuple(_leaps(s, _LEAP_STEPS[k]) if k in _LEAP_STEPS else () for s in range(64))
              for k in range(8))
KNIGHT_LEAPS: Final[tuple[tuple[int, ...], ...]] = tuple(_leaps(s, _KNIGHT) for s in range(64))
NEIGHBOURS: Final[tuple[tuple[int, ...], ...]] = tuple(_leaps(s, _ORTH) for s in range(64))


def reach(arena: tuple[int, ...] | list[int], sq: int, knight: bool) -> list[int]:
    """Squares the minion on `sq` attacks or may step to: empty squares and
    enemy minions (wards are the caller's business), R4 applied."""
    piece = arena[sq]
    k, colour = (piece - 1) & 7, (piece - 1) >> 3
    forbidden = -1
    if k < 3 and (sq >> 3) == (0 if colour == 0 else 7):
        forbidden = 7 if colour == 0 else 0  # R4
    out = []
    for ray in SLIDES[k][sq]:
        for t in ray:
            found = arena[t]
            if (t >> 3) != forbidden and (not found or (found - 1) >> 3 != colour):
                out.append(t)
            if found:
                break
    steps = LEAPS[k][sq]
    if knight and k != FEY:
        steps = steps + KNIGHT_LEAPS[sq]
    for t in steps:
        found = arena[t]
        if (t >> 3) != forbidden and (not found or (found - 1) >> 3 != colour):
            out.append(t)
    return out

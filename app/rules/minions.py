"""Minion types, squares and how each type moves (R1, R3, R5).

Everything here is a small int so the engine's hot path works on ints and
tuples: a colour is 0 (white) or 1 (black, see colours.py); a type is an index into `TYPES`;
a square is ``file + 8 * rank`` with a1 = 0 and h8 = 63; a minion standing in
the arena or a chamber is the code ``1 + 8 * colour + type`` (0 is empty).
"""

from __future__ import annotations

from typing import Final

# The colours live in colours.py; they are named here too for older imports.
from .colours import BLACK as BLACK
from .colours import COLOUR_LETTERS as COLOUR_LETTERS
from .colours import COLOURS as COLOURS
from .colours import WHITE as WHITE
from .colours import other as other

TYPES: Final = ("dragon", "elemental", "construct", "fey", "spirit", "myrmidon", "undead", "beast")
# Final: a compiled build (mypyc) reads these from C statics, not the module's dict.
DRAGON: Final = 0
ELEMENTAL: Final = 1
CONSTRUCT: Final = 2
FEY: Final = 3
SPIRIT: Final = 4
MYRMIDON: Final = 5
UNDEAD: Final = 6
BEAST: Final = 7
TYPE_INDEX = {name: i for i, name in enumerate(TYPES)}
# Letters of the position text form: white upper case, black lower case.
TYPE_LETTERS = "DECFSMUB"

GREATER, MINOR, PAWN = "greater", "minor", "pawn"
RANK_OF = (GREATER, GREATER, GREATER, MINOR, MINOR, MINOR, PAWN, PAWN)
GREATER_TYPES = (DRAGON, ELEMENTAL, CONSTRUCT)
COPIES: Final = 3  # of each type per player (R2)


# The helpers below are the one place the encodings are spelled out; the rest
# of the engine reads through them, except in a few hot loops that say why.

def code(colour: int, kind: int) -> int:
    """The minion code of a colour's minion of a type (never 0)."""
    return 1 + 8 * colour + kind


def owner_of(piece: int) -> int:
    return (piece - 1) >> 3


def type_of(piece: int) -> int:
    return (piece - 1) & 7


# The minion codes of each colour, for set tests that run in C.
CODES_OF: Final = tuple(frozenset(code(colour, kind) for kind in range(8)) for colour in (WHITE, BLACK))


def owned_by(piece: int, colour: int) -> bool:
    """Whether `piece` is a minion (not 0) of `colour`."""
    return piece != 0 and (piece - 1) >> 3 == colour


def is_greater(kind: int) -> bool:
    return kind < 3  # the greater types come first in TYPES (R3)


def slot(colour: int, kind: int) -> int:
    """Where a colour's count of a type sits in the 16 counts of a reserve or
    dead pile (White's eight types, then Black's)."""
    return 8 * colour + kind


def slot_of(piece: int) -> int:
    """The count slot of a minion's owner and type: its code less one."""
    return piece - 1


def counts_of(counts: tuple[int, ...], colour: int) -> tuple[int, ...]:
    """One colour's eight counts, in `TYPES` order, from a reserve or dead pile."""
    return counts[8 * colour:8 * colour + 8]


def rank_of(square: int) -> int:
    """The rank of a square, 0 (rank 1) to 7 (rank 8)."""
    return square >> 3


def file_of(square: int) -> int:
    """The file of a square, 0 (a) to 7 (h)."""
    return square & 7


def square_at(file: int, rank: int) -> int:
    return file + 8 * rank


def has_bit(bits: int, index: int) -> bool:
    """Whether a bit set (the state's wards, runes, passed) holds `index`."""
    return bool((bits >> index) & 1)


def piece_letter(piece: int) -> str:
    letter = TYPE_LETTERS[type_of(piece)]
    return letter if owner_of(piece) == WHITE else letter.lower()


def square_name(square: int) -> str:
    return "abcdefgh"[file_of(square)] + str(rank_of(square) + 1)


SQUARE_NAMES: Final = tuple(square_name(s) for s in range(64))
SQUARE_INDEX = {name: s for s, name in enumerate(SQUARE_NAMES)}


def backrow(colour: int) -> int:
    """The rank (0-7) of a colour's backrow (R1)."""
    return 0 if colour == WHITE else 7


def _leaps(square: int, steps: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    f, r = file_of(square), rank_of(square)
    return tuple(
        square_at(f + df, r + dr)
        for df, dr in steps
        if 0 <= f + df < 8 and 0 <= r + dr < 8
    )


def _rays(square: int, dirs: tuple[tuple[int, int], ...]) -> tuple[tuple[int, ...], ...]:
    f, r = file_of(square), rank_of(square)
    rays = []
    for df, dr in dirs:
        ray = []
        nf, nr = f + df, r + dr
        while 0 <= nf < 8 and 0 <= nr < 8:
            ray.append(square_at(nf, nr))
            nf, nr = nf + df, nr + dr
        if ray:
            rays.append(tuple(ray))
    return tuple(rays)


ORTHOGONAL = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))
KNIGHT = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
FAR_KNIGHT = ((1, 3), (3, 1), (3, -1), (1, -3), (-1, -3), (-3, -1), (-3, 1), (-1, 3))
TWO_STEP = tuple((2 * df, 2 * dr) for df, dr in ORTHOGONAL + DIAGONAL)

# SLIDES[type][square] -> rays (empty for leapers); LEAPS[type][square] -> squares.
_SLIDE_DIRS = {DRAGON: ORTHOGONAL + DIAGONAL, ELEMENTAL: DIAGONAL, CONSTRUCT: ORTHOGONAL}
_LEAP_STEPS = {FEY: KNIGHT, SPIRIT: FAR_KNIGHT, MYRMIDON: TWO_STEP, UNDEAD: ORTHOGONAL, BEAST: DIAGONAL}

SLIDES: Final[tuple[tuple[tuple[tuple[int, ...], ...], ...], ...]] = tuple(
    tuple(_rays(s, _SLIDE_DIRS[t]) if t in _SLIDE_DIRS else () for s in range(64))
    for t in range(8)
)
LEAPS: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    tuple(_leaps(s, _LEAP_STEPS[t]) if t in _LEAP_STEPS else () for s in range(64))
    for t in range(8)
)
KNIGHT_LEAPS: Final[tuple[tuple[int, ...], ...]] = tuple(_leaps(s, KNIGHT) for s in range(64))
# Squares sharing a side with each square (the Shadow Mage, R14).
NEIGHBOURS: Final[tuple[tuple[int, ...], ...]] = tuple(_leaps(s, ORTHOGONAL) for s in range(64))

BACKROW_SQUARES: Final = (tuple(range(0, 8)), tuple(range(56, 64)))
SIDE_SQUARES: Final = (tuple(range(0, 32)), tuple(range(32, 64)))
ALL_SQUARES: Final = tuple(range(64))


def summon_squares(colour: int, kind: int) -> tuple[int, ...]:
    """Where a summoned minion of this type may land, before emptiness (R5)."""
    rank = RANK_OF[kind]
    if rank == GREATER:
        return BACKROW_SQUARES[colour]
    if rank == MINOR:
        return SIDE_SQUARES[colour]
    return ALL_SQUARES

"""What a mage's power is made of (R10, R12, R14): the record, and its parts.

Each mage's power is one `MagePower` record, written once, in fixed_mages.py
(R12), chaos_mages.py or dream_lord.py (R14); powers.py gathers the records and derives the
engine's tables from them. A record holds the forms its payload takes, the
power in plain words, and four functions. All four work on the state *after*
the minion has left its chamber and gone to its owner's reserve (R10), and take
the same first four arguments:

    s       the working state (a copy the engine may change)
    colour  the player using the power
    left    the chamber the minion left: the mage itself, or the Dream Lord's
            when it borrows the mage
    piece   the minion's code

- `options(s, colour, left, piece)` lists every payload the player may use;
- `check(..., payload)` raises IllegalAction, naming the rule, if it may not;
- `apply(..., payload)` carries a checked payload out on `s`;
- `tell(..., payload)` says what the payload does, as a phrase whose subject
  is the player ("summons a dragon on d1"), for the match's log.

Below the record are the small reads, checks and changes of the working state
that the records are built from.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import repeat
from typing import Any, Final

from .colours import COLOURS
from .errors import IllegalAction
from .mages import FIXED_MAGES, MAGES, OFF, TOP_FLOOR, private_seat
from .minions import (
    SQUARE_NAMES,
    TYPES,
    code,
    is_greater,
    owned_by,
    owner_of,
    slot,
    slot_of,
    summon_squares,
    type_of,
)
from .moves import destinations, reaches, refusal
from .state import State

Payload = tuple[Any, ...]  # a power other than None (see actions.py)
Lister = Callable[[State, int, int, int], list[Payload]]
Checker = Callable[[State, int, int, int, Payload], None]
Applier = Callable[[State, int, int, int, Payload], None]
Teller = Callable[[State, int, int, int, Payload], str]

# What each payload form looks like in the contract's JSON.
SHAPES = {
    "move": '{"move": [from, to]}', "summon": '{"summon": square}', "use": "{}",
    "target": '{"target": mage}', "player": '{"player": colour}',
    "alchemy": '{"square": square, "minion": type}', "square": '{"square": square}',
    "swap": '{"swap": [square, square]}', "dream": '{"mage": chaos_mage, "power": {...}}',
}


@dataclass(frozen=True, slots=True)
class MagePower:
    """One mage's power, whole: listed, checked, applied and told in words."""

    mage: int  # index in mages.MAGES
    forms: tuple[str, ...]  # the payload forms it takes (keys of SHAPES)
    words: str  # the power in plain words, for people
    options: Lister
    check: Checker
    apply: Applier
    tell: Teller
    kind: int | None = None  # the type a floor 1-8 mage moves or summons

    @property
    def name(self) -> str:
        return MAGES[self.mage]

    @property
    def rule(self) -> str:
        return "R12" if self.mage in FIXED_MAGES else "R14"

    def check_form(self, payload: Payload) -> None:
        if payload[0] not in self.forms:
            shapes = " or ".join(SHAPES[f] for f in self.forms)
            raise IllegalAction(self.rule, f"the {spaced(self.mage)}'s power takes {shapes}")


# ---- names in words ------------------------------------------------------------------

def spaced(mage: int) -> str:
    """"dragon lord": the mage's name as the refusals write it."""
    return MAGES[mage].replace("_", " ")


def title(mage: int) -> str:
    """"the Dragon Lord": the mage's name as the log writes it."""
    return "the " + MAGES[mage].replace("_", " ").title()


def player(colour: int) -> str:
    return COLOURS[colour].capitalize()


def a_or_an(kind: int) -> str:
    """"a dragon", "an elemental": a minion type with its article."""
    name = TYPES[kind]
    return ("an " if name[0] in "aeiou" else "a ") + name


def whose(piece: int) -> str:
    """"Black's fey": a minion named with its owner."""
    return f"{player(owner_of(piece))}'s {TYPES[type_of(piece)]}"


def minion_of(piece: int, colour: int) -> str:
    """"the beast" when the minion is `colour`'s own, else "Black's fey"."""
    return f"the {TYPES[type_of(piece)]}" if owned_by(piece, colour) else whose(piece)


# ---- small reads of the working state ------------------------------------------------

def may_place(s: State, mage: int, colour: int) -> bool:
    """An empty chamber in play that this colour may place on (R9, R18)."""
    seat = s.seat[mage]
    if seat == OFF or s.occupant[mage]:
        return False
    return seat <= TOP_FLOOR or seat == private_seat(colour)


# The last answer of `unwarded_minions`: listing one position's actions asks
# it the same question once per chamber, about one arena (the very tuple).
_last_unwarded: tuple[tuple[int, ...], int, int | None, tuple[int, ...]] = ((), 0, None, ())


def unwarded_minions(s: State, colour: int | None) -> tuple[int, ...]:
    """Squares of the minions a power may touch: not warded (R14), of
    `colour` or, for None, of either player."""
    global _last_unwarded
    arena, wards = s.arena, s.wards
    last = _last_unwarded
    if last[0] is arena and last[1] == wards and last[2] == colour:
        return last[3]
    lo, hi = (1, 16) if colour is None else (1 + 8 * colour, 8 + 8 * colour)
    found = tuple([sq for sq in range(64) if lo <= arena[sq] <= hi and not (wards >> sq) & 1])
    _last_unwarded = (arena, wards, colour, found)
    return found


def summon_targets(s: State, colour: int, kind: int) -> list[int]:
    arena = s.arena
    return [sq for sq in summon_squares(colour, kind) if not arena[sq]]


def moves_of(s: State, colour: int, kind: int | None) -> list[Payload]:
    """Every ordinary move of `colour`'s minions (of one type, or any)."""
    knight = s.has_runes(colour)
    out: list[Payload] = []
    arena = s.arena
    wanted = None if kind is None else code(colour, kind)
    wards = s.wards
    for sq in unwarded_minions(s, colour):
        if wanted is None or arena[sq] == wanted:
            # zip builds the ("move", sq, to) tuples in C: listing is per position searched.
            out += zip(repeat("move"), repeat(sq), destinations(arena, wards, sq, knight))
    return out


def use_only(s: State, colour: int, left: int, piece: int) -> list[Payload]:
    """The one payload of a power that needs no target: `{}`."""
    return [("use",)]


# ---- checks --------------------------------------------------------------------------

def no_check(s: State, colour: int, left: int, piece: int, power: Payload) -> None:
    """The check of a power that is always allowed (R12, R14)."""

def check_mover(s: State, sq: int, colour: int, rule: str, who: str) -> None:
    """The minion on `sq` is `colour`'s and free to be used (not warded)."""
    # owned_by and warded spelled out: this runs per move applied.
    piece = s.arena[sq]
    if piece and (piece - 1) >> 3 == colour and not (s.wards >> sq) & 1:
        return
    where = SQUARE_NAMES[sq]
    if not owned_by(piece, colour):
        raise IllegalAction(rule, f"{where} holds no minion of {who}")
    if s.warded(sq):
        raise IllegalAction(
            "R14", f"the minion on {where} is warded by the Force Mage until the round ends")


def check_move(s: State, a: int, b: int, knight: bool, capture: bool) -> None:
    if not reaches(s.arena, s.wards, a, b, knight, capture):
        raise refusal(s.arena, s.wards, a, b, knight, capture)


# summon_squares as sets, for the check of every summon applied.
_SUMMON_SETS: Final = tuple(tuple(frozenset(summon_squares(colour, kind)) for kind in range(8))
                     for colour in (0, 1))


def check_summon(s: State, colour: int, kind: int, sq: int) -> None:
    if s.reserve[8 * colour + kind] > 0 and not s.arena[sq] and sq in _SUMMON_SETS[colour][kind]:
        return
    name, where = TYPES[kind], SQUARE_NAMES[sq]
    if s.reserve[slot(colour, kind)] <= 0:
        raise IllegalAction("R5", f"there is no {name} in your reserve to summon")
    if s.arena[sq]:
        raise IllegalAction(
            "R5", f"a minion is summoned onto an empty square; {where} is occupied")
    if sq not in summon_squares(colour, kind):
        zone = ("its owner's backrow" if is_greater(kind)
                else "its owner's side (ranks 1-4 for White, 5-8 for Black)")
        raise IllegalAction("R5", f"a {name} is summoned onto {zone}, not {where}")


def check_arena_minion(s: State, sq: int) -> None:
    """A minion stands on `sq` and is not warded (R14)."""
    where = SQUARE_NAMES[sq]
    if s.arena[sq] == 0:
        raise IllegalAction("R14", f"there is no minion on {where}")
    if s.warded(sq):
        raise IllegalAction("R14", f"the minion on {where} is warded by the Force Mage")


# ---- changes to the working state ----------------------------------------------------

def put(s: State, changes: dict[int, int]) -> None:
    """Set arena squares to minion codes (0 to empty them)."""
    arena = list(s.arena)
    for sq, piece in changes.items():
        arena[sq] = piece
    s.arena = tuple(arena)


def add(counts: tuple[int, ...], index: int, delta: int) -> tuple[int, ...]:
    out = list(counts)
    out[index] += delta
    return tuple(out)


def move(s: State, a: int, b: int) -> None:
    """The minion on `a` goes to `b`, capturing what stands there (R3)."""
    arena = list(s.arena)
    victim = arena[b]
    if victim:
        s.dead = add(s.dead, slot_of(victim), 1)
        s.captured = True
    arena[b] = arena[a]
    arena[a] = 0
    s.arena = tuple(arena)


def summon(s: State, colour: int, kind: int, sq: int) -> None:
    s.reserve = add(s.reserve, slot(colour, kind), -1)
    arena = list(s.arena)
    arena[sq] = code(colour, kind)
    s.arena = tuple(arena)


def to_reserve(s: State, sq: int) -> None:
    """The minion on `sq` goes to its owner's reserve."""
    s.reserve = add(s.reserve, slot_of(s.arena[sq]), 1)
    arena = list(s.arena)
    arena[sq] = 0
    s.arena = tuple(arena)


def set_occupant(s: State, mage: int, piece: int) -> None:
    occupant = list(s.occupant)
    occupant[mage] = piece
    s.occupant = tuple(occupant)


# ---- words for a move ----------------------------------------------------------------

def tell_move(s: State, colour: int, a: int, b: int) -> str:
    """"moves the beast from b2 to c3", or "takes Black's fey on c6 with the
    beast from b7" when the move captures."""
    mover, victim = s.arena[a], s.arena[b]
    if victim:
        return (f"takes {whose(victim)} on {SQUARE_NAMES[b]} with {minion_of(mover, colour)} "
                f"from {SQUARE_NAMES[a]}")
    return f"moves {minion_of(mover, colour)} from {SQUARE_NAMES[a]} to {SQUARE_NAMES[b]}"


def tell_summon(kind: int, sq: int) -> str:
    return f"summons {a_or_an(kind)} on {SQUARE_NAMES[sq]}"

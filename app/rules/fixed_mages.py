"""The twelve fixed mages of floors 1-12 (R12), one `MagePower` record each.

See power_base.py for what a record holds and the arguments its functions
take. Floors 1-8 are one pattern over a minion type, so one function makes
their eight records; each of floors 9-12 has its own section.
"""

from __future__ import annotations

from itertools import repeat

from .colours import other
from .errors import IllegalAction
from .mages import (
    ANIMIST,
    ARTIFICER,
    DRAGON_LORD,
    DRUID,
    ELEMENTAL_MASTER,
    MAGES,
    MAGICIAN,
    MYSTIC,
    NECROMANCER,
    OFF,
    ORACLE,
    SORCERER,
    WARLOCK,
    WIZARD,
)
from .minions import (
    BACKROW_SQUARES,
    BEAST,
    CONSTRUCT,
    DRAGON,
    ELEMENTAL,
    FEY,
    GREATER_TYPES,
    MYRMIDON,
    SPIRIT,
    SQUARE_NAMES,
    TYPES,
    UNDEAD,
    backrow,
    code,
    is_greater,
    rank_of,
    slot,
    slot_of,
    type_of,
)
from .power_base import (
    MagePower,
    Payload,
    add,
    check_move,
    check_mover,
    check_summon,
    move,
    moves_of,
    no_check,
    set_occupant,
    spaced,
    summon,
    summon_targets,
    tell_move,
    tell_summon,
    title,
    unwarded_minions,
    use_only,
    whose,
)
from .state import State

# ---- floors 1-8: move one minion of a type, or summon one ----------------------------


def _commander(mage: int, kind: int, plural: str) -> MagePower:
    """The record of a mage that moves or summons minions of type `kind`."""
    name = TYPES[kind]
    who = f"yours for the {spaced(mage)}"  # built once: the check runs per move tried

    def options(s: State, colour: int, left: int, piece: int) -> list[Payload]:
        out = moves_of(s, colour, kind)
        if s.reserve[slot(colour, kind)]:
            out += zip(repeat("summon"), summon_targets(s, colour, kind))
        return out

    def check(s: State, colour: int, left: int, piece: int, power: Payload) -> None:
        if power[0] == "summon":
            check_summon(s, colour, kind, power[1])
            return
        a, b = power[1], power[2]
        check_mover(s, a, colour, "R12", who)
        found = type_of(s.arena[a])
        if found != kind:
            raise IllegalAction("R12", f"the {spaced(mage)} moves only your {name} minions; "
                                       f"{SQUARE_NAMES[a]} holds a {TYPES[found]}")
        check_move(s, a, b, s.has_runes(colour), True)

    def apply(s: State, colour: int, left: int, piece: int, power: Payload) -> None:
        if power[0] == "summon":
            summon(s, colour, kind, power[1])
        else:
            move(s, power[1], power[2])

    def tell(s: State, colour: int, left: int, piece: int, power: Payload) -> str:
        if power[0] == "summon":
            return tell_summon(kind, power[1])
        return tell_move(s, colour, power[1], power[2])

    return MagePower(mage, ("move", "summon"), f"Move one of your {plural}, or summon one.",
                     options, check, apply, tell, kind=kind)


NECROMANCER_POWER = _commander(NECROMANCER, UNDEAD, "undead")
SORCERER_POWER = _commander(SORCERER, BEAST, "beasts")
WIZARD_POWER = _commander(WIZARD, MYRMIDON, "myrmidons")
WARLOCK_POWER = _commander(WARLOCK, SPIRIT, "spirits")
DRUID_POWER = _commander(DRUID, FEY, "fey")
ARTIFICER_POWER = _commander(ARTIFICER, CONSTRUCT, "constructs")
ELEMENTAL_MASTER_POWER = _commander(ELEMENTAL_MASTER, ELEMENTAL, "elementals")
DRAGON_LORD_POWER = _commander(DRAGON_LORD, DRAGON, "dragons")


# ---- Animist (9): move any one of your minions ---------------------------------------

def _animist_options(s: State, colour: int, left: int, piece: int) -> list[Payload]:
    return moves_of(s, colour, None)


def _animist_check(s: State, colour: int, left: int, piece: int, power: Payload) -> None:
    a, b = power[1], power[2]
    check_mover(s, a, colour, "R12", "yours")
    check_move(s, a, b, s.has_runes(colour), True)


def _move(s: State, colour: int, left: int, piece: int, power: Payload) -> None:
    move(s, power[1], power[2])


def _tell_move(s: State, colour: int, left: int, piece: int, power: Payload) -> str:
    return tell_move(s, colour, power[1], power[2])


ANIMIST_POWER = MagePower(
    ANIMIST, ("move",), "Move any one of your minions.",
    _animist_options, _animist_check, _move, _tell_move,
)


# ---- Mystic (10): a minion of yours jumps to any empty square ------------------------

def _mystic_options(s: State, colour: int, left: int, piece: int) -> list[Payload]:
    arena = s.arena
    empty = [sq for sq in range(64) if not arena[sq]]
    far = set(BACKROW_SQUARES[other(colour)])
    short = [sq for sq in empty if sq not in far]  # for a greater minion at home (R4)
    home = set(BACKROW_SQUARES[colour])
    greater = {code(colour, kind) for kind in GREATER_TYPES}
    out: list[Payload] = []
    for sq in unwarded_minions(s, colour):
        # zip builds the tuples in C: the Mystic lists ~400 moves.
        out += zip(repeat("move"), repeat(sq), short if sq in home and arena[sq] in greater else empty)
    return out


def _mystic_check(s: State, colour: int, left: int, piece: int, power: Payload) -> None:
    a, b = power[1], power[2]
    check_mover(s, a, colour, "R12", "yours")
    if s.arena[b]:
        raise IllegalAction("R12", f"the Mystic moves a minion to an empty square; "
                                   f"{SQUARE_NAMES[b]} is occupied")
    kind = type_of(s.arena[a])
    if is_greater(kind) and rank_of(a) == backrow(colour) and rank_of(b) == backrow(other(colour)):
        raise IllegalAction("R4", f"a {TYPES[kind]} on its own backrow cannot reach the "
                                  f"opponent's backrow in one move, by the Mystic's jump too")


MYSTIC_POWER = MagePower(
    MYSTIC, ("move",),
    "Move one of your minions to any empty square (no capture; the backrow rule holds).",
    _mystic_options, _mystic_check, _move, _tell_move,
)


# ---- Oracle (11): take the Orb -------------------------------------------------------

def _oracle_apply(s: State, colour: int, left: int, piece: int, power: Payload) -> None:
    s.orb = colour  # from the next phase on (R13)


def _oracle_tell(s: State, colour: int, left: int, piece: int, power: Payload) -> str:
    return "takes the Orb"


ORACLE_POWER = MagePower(
    ORACLE, ("use",), "Take the Orb: you start each phase from the next one on.",
    use_only, no_check, _oracle_apply, _oracle_tell,
)


# ---- Magician (12): clear another chamber --------------------------------------------

def _magician_options(s: State, colour: int, left: int, piece: int) -> list[Payload]:
    return [("target", m) for m in range(len(MAGES)) if s.occupant[m] and m != left]


def _magician_check(s: State, colour: int, left: int, piece: int, power: Payload) -> None:
    target = power[1]
    if target == left:
        raise IllegalAction("R12", "the Magician clears another chamber, not its own")
    if s.seat[target] == OFF:
        raise IllegalAction("R12", f"the {spaced(target)} is not in this match")
    if s.occupant[target] == 0:
        raise IllegalAction("R12", f"the {spaced(target)} chamber is empty")


def _magician_apply(s: State, colour: int, left: int, piece: int, power: Payload) -> None:
    target = power[1]
    victim = s.occupant[target]
    set_occupant(s, target, 0)
    s.reserve = add(s.reserve, slot_of(victim), 1)


def _magician_tell(s: State, colour: int, left: int, piece: int, power: Payload) -> str:
    target = power[1]
    return (f"clears {title(target)}, sending {whose(s.occupant[target])} back to its "
            f"owner's reserve")


MAGICIAN_POWER = MagePower(
    MAGICIAN, ("target",),
    "Send the minion on any other chamber back to its owner's reserve; that chamber's "
    "power is not used.",
    _magician_options, _magician_check, _magician_apply, _magician_tell,
)


FIXED_POWERS = (
    NECROMANCER_POWER, SORCERER_POWER, WIZARD_POWER, WARLOCK_POWER, DRUID_POWER,
    ARTIFICER_POWER, ELEMENTAL_MASTER_POWER, DRAGON_LORD_POWER, ANIMIST_POWER, MYSTIC_POWER,
    ORACLE_POWER, MAGICIAN_POWER,
)

"""Ten of the eleven chaos mages of the deck (R6, R14), one `MagePower` record each.

See power_base.py for what a record holds and the arguments its functions
take. The eleventh, the Dream Lord, borrows these records: it stands in
dream_lord.py, and powers.py gathers the deck.
"""

from __future__ import annotations

from itertools import repeat

from .actions import swap_key
from .colours import other
from .errors import IllegalAction
from .mages import (
    ALCHEMIST,
    CONJURER,
    ENCHANTER,
    FORCE_MAGE,
    ILLUSIONIST,
    MAGES,
    MAGUS,
    MENTALIST,
    RUNE_MASTER,
    SEER,
    SHADOW_MAGE,
)
from .minions import (
    NEIGHBOURS,
    SQUARE_NAMES,
    TYPES,
    code,
    counts_of,
    owned_by,
    slot,
    slot_of,
    type_of,
)
from .moves import destinations
from .power_base import (
    MagePower,
    Payload,
    a_or_an,
    add,
    check_arena_minion,
    check_move,
    check_mover,
    check_summon,
    may_place,
    move,
    no_check,
    player,
    put,
    set_occupant,
    spaced,
    summon,
    summon_targets,
    tell_move,
    title,
    to_reserve,
    unwarded_minions,
    use_only,
    whose,
)
from .state import State

# ---- Seer: who takes the next two turns ----------------------------------------------


def _seer_options(s: State, colour: int, left: int, piece: int) -> list[Payload]:
    return [("player", 0), ("player", 1)]


def _seer_apply(s: State, colour: int, left: int, piece: int, power: Payload) -> None:
    s.owed = (power[1], power[1])  # replaces any turns still owed (docs/rules.md)


def _seer_tell(s: State, colour: int, left: int, piece: int, power: Payload) -> str:
    if power[1] == colour:
        return "takes the next two turns"
    return f"gives the next two turns to {player(power[1])}"


SEER_POWER = MagePower(
    SEER, ("player",),
    "Name yourself or your opponent: that player takes the next two turns of this phase.",
    _seer_options, no_check, _seer_apply, _seer_tell,
)


# ---- Magus: the minion goes on to another chamber ------------------------------------

def _magus_options(s: State, colour: int, left: int, piece: int) -> list[Payload]:
    return [("target", m) for m in range(len(MAGES)) if m != left and may_place(s, m, colour)]


def _magus_check(s: State, colour: int, left: int, piece: int, power: Payload) -> None:
    target = power[1]
    if target == left:
        raise IllegalAction("R14", "the Magus sends the minion to a different chamber")
    if not may_place(s, target, colour):
        raise IllegalAction("R14", f"the {spaced(target)} is not an empty chamber you may place on")


def _magus_apply(s: State, colour: int, left: int, piece: int, power: Payload) -> None:
    s.reserve = add(s.reserve, slot_of(piece), -1)
    set_occupant(s, power[1], piece)


def _magus_tell(s: State, colour: int, left: int, piece: int, power: Payload) -> str:
    return f"sends it on to {title(power[1])}"


MAGUS_POWER = MagePower(
    MAGUS, ("target",),
    "Put the minion on another empty chamber you may use, instead of in your reserve.",
    _magus_options, _magus_check, _magus_apply, _magus_tell,
)


# ---- Alchemist: exchange an arena minion for another type from the reserve -----------

def _alchemist_options(s: State, colour: int, left: int, piece: int) -> list[Payload]:
    # (type, its code) of each type in reserve: a code is compared, not decoded, per minion.
    held = [(k, code(colour, k)) for k, count in enumerate(counts_of(s.reserve, colour)) if count]
    arena = s.arena
    out: list[Payload] = []
    for sq in unwarded_minions(s, colour):
        piece = arena[sq]
        for kind, held_code in held:
            if held_code != piece:
                out.append(("alchemy", sq, kind))
    return out


def _alchemist_check(s: State, colour: int, left: int, piece: int, power: Payload) -> None:
    sq, kind = power[1], power[2]
    check_mover(s, sq, colour, "R14", "yours")
    if kind == type_of(s.arena[sq]):
        raise IllegalAction(
            "R14", f"the Alchemist swaps in a minion of a different type, not a {TYPES[kind]}")
    if s.reserve[slot(colour, kind)] <= 0:
        raise IllegalAction("R14", f"there is no {TYPES[kind]} in your reserve")


def _alchemist_apply(s: State, colour: int, left: int, piece: int, power: Payload) -> None:
    sq, kind = power[1], power[2]
    reserve = list(s.reserve)
    reserve[slot(colour, kind)] -= 1
    reserve[slot_of(s.arena[sq])] += 1
    s.reserve = tuple(reserve)
    put(s, {sq: code(colour, kind)})


def _alchemist_tell(s: State, colour: int, left: int, piece: int, power: Payload) -> str:
    sq, kind = power[1], power[2]
    return (f"exchanges the {TYPES[type_of(s.arena[sq])]} on {SQUARE_NAMES[sq]} for "
            f"{a_or_an(kind)} from their reserve")


ALCHEMIST_POWER = MagePower(
    ALCHEMIST, ("alchemy",),
    "Exchange one of your minions in the arena for one of another type from your reserve.",
    _alchemist_options, _alchemist_check, _alchemist_apply, _alchemist_tell,
)


# ---- Mentalist: move an opponent's minion, without capture ---------------------------

def _mentalist_options(s: State, colour: int, left: int, piece: int) -> list[Payload]:
    enemy = other(colour)
    knight = s.has_runes(enemy)  # the enemy's own Rune Master, not yours (docs/rules.md)
    out: list[Payload] = []
    arena, wards = s.arena, s.wards
    for sq in unwarded_minions(s, enemy):
        out += zip(repeat("move"), repeat(sq), destinations(arena, wards, sq, knight, capture=False))
    return out


def _mentalist_check(s: State, colour: int, left: int, piece: int, power: Payload) -> None:
    a, b = power[1], power[2]
    enemy = other(colour)
    check_mover(s, a, enemy, "R14", "your opponent's (the Mentalist moves the opponent's minions)")
    check_move(s, a, b, s.has_runes(enemy), False)


def _mentalist_apply(s: State, colour: int, left: int, piece: int, power: Payload) -> None:
    move(s, power[1], power[2])


def _mentalist_tell(s: State, colour: int, left: int, piece: int, power: Payload) -> str:
    return tell_move(s, colour, power[1], power[2])


MENTALIST_POWER = MagePower(
    MENTALIST, ("move",),
    "Move one of your opponent's minions by its own movement onto an empty square.",
    _mentalist_options, _mentalist_check, _mentalist_apply, _mentalist_tell,
)


# ---- Enchanter: replace an opponent's minion with your own of its type ---------------

def _enchanter_options(s: State, colour: int, left: int, piece: int) -> list[Payload]:
    held = counts_of(s.reserve, colour)
    arena = s.arena
    out: list[Payload] = []
    for sq in unwarded_minions(s, other(colour)):
        if held[type_of(arena[sq])]:
            out.append(("square", sq))
    return out


def _enchanter_check(s: State, colour: int, left: int, piece: int, power: Payload) -> None:
    sq = power[1]
    check_mover(s, sq, other(colour), "R14", "your opponent's")
    kind = type_of(s.arena[sq])
    if s.reserve[slot(colour, kind)] <= 0:
        raise IllegalAction("R14", f"there is no {TYPES[kind]} in your reserve")


def _enchanter_apply(s: State, colour: int, left: int, piece: int, power: Payload) -> None:
    sq = power[1]
    kind = type_of(s.arena[sq])
    to_reserve(s, sq)
    summon(s, colour, kind, sq)


def _enchanter_tell(s: State, colour: int, left: int, piece: int, power: Payload) -> str:
    sq = power[1]
    victim = s.arena[sq]
    return (f"replaces {whose(victim)} on {SQUARE_NAMES[sq]} with {a_or_an(type_of(victim))} "
            f"from their reserve")


ENCHANTER_POWER = MagePower(
    ENCHANTER, ("square",),
    "Send an opponent's minion in the arena to its reserve and put one of yours of its type "
    "on its square.",
    _enchanter_options, _enchanter_check, _enchanter_apply, _enchanter_tell,
)


# ---- Force Mage: ward a minion for the round -----------------------------------------

def _force_mage_options(s: State, colour: int, left: int, piece: int) -> list[Payload]:
    return [("square", sq) for sq in unwarded_minions(s, None)]


def _force_mage_check(s: State, colour: int, left: int, piece: int, power: Payload) -> None:
    where = SQUARE_NAMES[power[1]]
    if s.arena[power[1]] == 0:
        raise IllegalAction("R14", f"there is no minion on {where}")
    if s.warded(power[1]):
        raise IllegalAction("R14", f"the minion on {where} is already warded")


def _force_mage_apply(s: State, colour: int, left: int, piece: int, power: Payload) -> None:
    s.wards |= 1 << power[1]


def _force_mage_tell(s: State, colour: int, left: int, piece: int, power: Payload) -> str:
    sq = power[1]
    return f"wards {whose(s.arena[sq])} on {SQUARE_NAMES[sq]} until the round ends"


FORCE_MAGE_POWER = MagePower(
    FORCE_MAGE, ("square",),
    "Ward a minion in the arena: until the round ends nobody can move, swap, capture, "
    "replace or send it home.",
    _force_mage_options, _force_mage_check, _force_mage_apply, _force_mage_tell,
)


# ---- Illusionist: swap two minions ---------------------------------------------------

def _illusionist_options(s: State, colour: int, left: int, piece: int) -> list[Payload]:
    squares = sorted(unwarded_minions(s, None), key=swap_key)
    arena = s.arena
    out: list[Payload] = []
    for i, a in enumerate(squares):
        for b in squares[i + 1:]:
            if arena[a] != arena[b]:
                out.append(("swap", a, b))
    return out


def _illusionist_check(s: State, colour: int, left: int, piece: int, power: Payload) -> None:
    a, b = power[1], power[2]
    check_arena_minion(s, a)
    check_arena_minion(s, b)
    if s.arena[a] == s.arena[b]:
        raise IllegalAction("R14", "the Illusionist swaps two minions that differ in owner or type")


def _illusionist_apply(s: State, colour: int, left: int, piece: int, power: Payload) -> None:
    a, b = power[1], power[2]
    put(s, {a: s.arena[b], b: s.arena[a]})


def _illusionist_tell(s: State, colour: int, left: int, piece: int, power: Payload) -> str:
    a, b = power[1], power[2]
    return (f"swaps {whose(s.arena[a])} on {SQUARE_NAMES[a]} with {whose(s.arena[b])} "
            f"on {SQUARE_NAMES[b]}")


ILLUSIONIST_POWER = MagePower(
    ILLUSIONIST, ("swap",), "Swap two minions in the arena that differ in owner or type.",
    _illusionist_options, _illusionist_check, _illusionist_apply, _illusionist_tell,
)


# ---- Shadow Mage: send home a minion beside one of yours -----------------------------

def _shadow_mage_options(s: State, colour: int, left: int, piece: int) -> list[Payload]:
    # The squares beside the colour's minions, gathered once rather than
    # looking round each minion: this lister ran a quarter of a listing.
    arena = s.arena
    lo, hi = 1 + 8 * colour, 8 + 8 * colour
    beside: set[int] = set()
    for sq in range(64):
        if lo <= arena[sq] <= hi:
            beside.update(NEIGHBOURS[sq])
    return [("square", sq) for sq in unwarded_minions(s, None) if sq in beside]


def _shadow_mage_check(s: State, colour: int, left: int, piece: int, power: Payload) -> None:
    sq = power[1]
    check_arena_minion(s, sq)
    if not any(owned_by(s.arena[n], colour) for n in NEIGHBOURS[sq]):
        raise IllegalAction("R14", f"the Shadow Mage needs a minion of yours sharing a side "
                                   f"with {SQUARE_NAMES[sq]}")


def _shadow_mage_apply(s: State, colour: int, left: int, piece: int, power: Payload) -> None:
    to_reserve(s, power[1])


def _shadow_mage_tell(s: State, colour: int, left: int, piece: int, power: Payload) -> str:
    sq = power[1]
    return f"sends {whose(s.arena[sq])} on {SQUARE_NAMES[sq]} back to its owner's reserve"


SHADOW_MAGE_POWER = MagePower(
    SHADOW_MAGE, ("square",),
    "Send a minion that shares a side with one of yours back to its owner's reserve.",
    _shadow_mage_options, _shadow_mage_check, _shadow_mage_apply, _shadow_mage_tell,
)


# ---- Rune Master: knight leaps for the round -----------------------------------------

def _rune_master_apply(s: State, colour: int, left: int, piece: int, power: Payload) -> None:
    s.runes |= 1 << colour


def _rune_master_tell(s: State, colour: int, left: int, piece: int, power: Payload) -> str:
    return "lets their minions leap like a knight until the round ends"


RUNE_MASTER_POWER = MagePower(
    RUNE_MASTER, ("use",),
    "Until the round ends, each of your minions may also leap like a knight when it moves.",
    use_only, no_check, _rune_master_apply, _rune_master_tell,
)


# ---- Conjurer: the minion is summoned at once ----------------------------------------

def _conjurer_options(s: State, colour: int, left: int, piece: int) -> list[Payload]:
    return [("summon", sq) for sq in summon_targets(s, colour, type_of(piece))]


def _conjurer_check(s: State, colour: int, left: int, piece: int, power: Payload) -> None:
    check_summon(s, colour, type_of(piece), power[1])


def _conjurer_apply(s: State, colour: int, left: int, piece: int, power: Payload) -> None:
    summon(s, colour, type_of(piece), power[1])


def _conjurer_tell(s: State, colour: int, left: int, piece: int, power: Payload) -> str:
    return f"summons it on {SQUARE_NAMES[power[1]]}"


CONJURER_POWER = MagePower(
    CONJURER, ("summon",), "Summon the minion at once instead of putting it in your reserve.",
    _conjurer_options, _conjurer_check, _conjurer_apply, _conjurer_tell,
)


# The ten whose power the Dream Lord may borrow (dream_lord.py), in deck order.
BORROWABLE = (
    SEER_POWER, MAGUS_POWER, ALCHEMIST_POWER, MENTALIST_POWER, ENCHANTER_POWER,
    FORCE_MAGE_POWER, ILLUSIONIST_POWER, SHADOW_MAGE_POWER, RUNE_MASTER_POWER, CONJURER_POWER,
)

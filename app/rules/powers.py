"""The mages' powers (R12, R14): what each may do, and doing it.

Both halves work on the state *after* the minion has left its chamber and gone
to its owner's reserve (R10). `options` lists every power a player may use;
`use` checks one power and carries it out on a working copy of the state,
raising IllegalAction with the rule's number when the power is not allowed.
"""

from __future__ import annotations

from collections.abc import Callable

from .actions import Power, swap_key
from .errors import IllegalAction
from .mages import (
    ALCHEMIST,
    ANIMIST,
    CHAOS_MAGES,
    CONJURER,
    DREAM_LORD,
    ENCHANTER,
    FORCE_MAGE,
    ILLUSIONIST,
    MAGES,
    MAGICIAN,
    MAGUS,
    MENTALIST,
    MYSTIC,
    OFF,
    ORACLE,
    RUNE_MASTER,
    SEER,
    SHADOW_MAGE,
    TYPE_OF_MAGE,
    private_seat,
)
from .minions import (
    NEIGHBOURS,
    SQUARE_NAMES,
    TYPES,
    backrow,
    code,
    summon_squares,
)
from .moves import destinations, refusal
from .state import State

SHAPES = {
    "move": '{"move": [from, to]}', "summon": '{"summon": square}', "use": "{}",
    "target": '{"target": mage}', "player": '{"player": colour}',
    "alchemy": '{"square": square, "minion": type}', "square": '{"square": square}',
    "swap": '{"swap": [square, square]}', "dream": '{"mage": chaos_mage, "power": {...}}',
}


def _rule(mage: int) -> str:
    return "R12" if mage < 12 else "R14"


def _name(mage: int) -> str:
    return MAGES[mage].replace("_", " ")


# ---- small reads of the state --------------------------------------------

def _own(piece: int, colour: int) -> bool:
    return piece != 0 and (piece - 1) >> 3 == colour


def _warded(s: State, square: int) -> bool:
    return bool((s.wards >> square) & 1)


def _may_place(s: State, mage: int, colour: int) -> bool:
    """An empty chamber in play that this colour may place on (R9, R18)."""
    seat = s.seat[mage]
    if seat == OFF or s.occupant[mage]:
        return False
    return seat <= 16 or seat == private_seat(colour)


def _unwarded_minions(s: State, colour: int | None) -> list[int]:
    arena, wards = s.arena, s.wards
    out = []
    for sq in range(64):
        piece = arena[sq]
        if piece and not (wards >> sq) & 1 and (colour is None or (piece - 1) >> 3 == colour):
            out.append(sq)
    return out


def _summon_targets(s: State, colour: int, kind: int) -> list[int]:
    arena = s.arena
    return [sq for sq in summon_squares(colour, kind) if not arena[sq]]


# ---- changes to the working state ----------------------------------------

def _set(s: State, changes: dict[int, int]) -> None:
    arena = list(s.arena)
    for sq, piece in changes.items():
        arena[sq] = piece
    s.arena = tuple(arena)


def _add(counts: tuple[int, ...], index: int, delta: int) -> tuple[int, ...]:
    out = list(counts)
    out[index] += delta
    return tuple(out)


def _move(s: State, a: int, b: int) -> None:
    victim = s.arena[b]
    if victim:
        s.dead = _add(s.dead, victim - 1, 1)
        s.captured = True
    _set(s, {a: 0, b: s.arena[a]})


def _summon(s: State, colour: int, kind: int, sq: int) -> None:
    s.reserve = _add(s.reserve, 8 * colour + kind, -1)
    _set(s, {sq: code(colour, kind)})


def _to_reserve(s: State, sq: int) -> None:
    piece = s.arena[sq]
    s.reserve = _add(s.reserve, piece - 1, 1)
    _set(s, {sq: 0})


# ---- listing powers ------------------------------------------------------

def _moves_of(s: State, colour: int, kind: int | None) -> list[Power]:
    knight = bool((s.runes >> colour) & 1)
    out: list[Power] = []
    arena = s.arena
    for sq in _unwarded_minions(s, colour):
        if kind is not None and (arena[sq] - 1) & 7 != kind:
            continue
        for to in destinations(arena, s.wards, sq, knight):
            out.append(("move", sq, to))
    return out


def options(s: State, colour: int, mage: int, piece: int) -> list[Power]:
    """Every power `colour` may use on removing `piece` from `mage` (not None)."""
    return _OPTIONS[mage](s, colour, mage, piece)


def _opt_fixed(s: State, colour: int, mage: int, piece: int) -> list[Power]:
    kind = TYPE_OF_MAGE[mage]
    out = _moves_of(s, colour, kind)
    if s.reserve[8 * colour + kind]:
        out += [("summon", sq) for sq in _summon_targets(s, colour, kind)]
    return out


def _opt_animist(s: State, colour: int, mage: int, piece: int) -> list[Power]:
    return _moves_of(s, colour, None)


def _opt_mystic(s: State, colour: int, mage: int, piece: int) -> list[Power]:
    arena = s.arena
    empty = [sq for sq in range(64) if not arena[sq]]
    far = backrow(1 - colour)
    home = backrow(colour)
    out: list[Power] = []
    for sq in _unwarded_minions(s, colour):
        greater_home = (arena[sq] - 1) & 7 < 3 and sq >> 3 == home
        for to in empty:
            if greater_home and to >> 3 == far:
                continue  # R4
            out.append(("move", sq, to))
    return out


def _opt_use(s: State, colour: int, mage: int, piece: int) -> list[Power]:
    return [("use",)]


def _opt_magician(s: State, colour: int, mage: int, piece: int) -> list[Power]:
    return [("target", m) for m in range(len(MAGES)) if s.occupant[m] and m != mage]


def _opt_seer(s: State, colour: int, mage: int, piece: int) -> list[Power]:
    return [("player", 0), ("player", 1)]


def _opt_magus(s: State, colour: int, mage: int, piece: int) -> list[Power]:
    return [("target", m) for m in range(len(MAGES)) if m != mage and _may_place(s, m, colour)]


def _opt_alchemist(s: State, colour: int, mage: int, piece: int) -> list[Power]:
    base = 8 * colour
    held = [k for k in range(8) if s.reserve[base + k]]
    out: list[Power] = []
    for sq in _unwarded_minions(s, colour):
        kind = (s.arena[sq] - 1) & 7
        out += [("alchemy", sq, k) for k in held if k != kind]
    return out


def _opt_mentalist(s: State, colour: int, mage: int, piece: int) -> list[Power]:
    enemy = 1 - colour
    knight = bool((s.runes >> enemy) & 1)
    out: list[Power] = []
    for sq in _unwarded_minions(s, enemy):
        for to in destinations(s.arena, s.wards, sq, knight, capture=False):
            out.append(("move", sq, to))
    return out


def _opt_enchanter(s: State, colour: int, mage: int, piece: int) -> list[Power]:
    base = 8 * colour
    return [("square", sq) for sq in _unwarded_minions(s, 1 - colour)
            if s.reserve[base + ((s.arena[sq] - 1) & 7)]]


def _opt_force_mage(s: State, colour: int, mage: int, piece: int) -> list[Power]:
    return [("square", sq) for sq in _unwarded_minions(s, None)]


def _opt_illusionist(s: State, colour: int, mage: int, piece: int) -> list[Power]:
    squares = sorted(_unwarded_minions(s, None), key=swap_key)
    arena = s.arena
    out: list[Power] = []
    for i, a in enumerate(squares):
        for b in squares[i + 1:]:
            if arena[a] != arena[b]:
                out.append(("swap", a, b))
    return out


def _opt_shadow_mage(s: State, colour: int, mage: int, piece: int) -> list[Power]:
    arena = s.arena
    return [("square", sq) for sq in _unwarded_minions(s, None)
            if any(_own(arena[n], colour) for n in NEIGHBOURS[sq])]


def _opt_conjurer(s: State, colour: int, mage: int, piece: int) -> list[Power]:
    return [("summon", sq) for sq in _summon_targets(s, colour, (piece - 1) & 7)]


def _opt_dream_lord(s: State, colour: int, mage: int, piece: int) -> list[Power]:
    out: list[Power] = []
    for borrowed in CHAOS_MAGES:
        if s.seat[borrowed] == OFF and borrowed != DREAM_LORD:
            out += [("dream", borrowed, p) for p in _OPTIONS[borrowed](s, colour, mage, piece)]
    return out


_OPTIONS: dict[int, Callable[[State, int, int, int], list[Power]]] = {
    **{m: _opt_fixed for m in TYPE_OF_MAGE},
    ANIMIST: _opt_animist, MYSTIC: _opt_mystic, ORACLE: _opt_use, MAGICIAN: _opt_magician,
    SEER: _opt_seer, MAGUS: _opt_magus, ALCHEMIST: _opt_alchemist, MENTALIST: _opt_mentalist,
    ENCHANTER: _opt_enchanter, DREAM_LORD: _opt_dream_lord, FORCE_MAGE: _opt_force_mage,
    ILLUSIONIST: _opt_illusionist, SHADOW_MAGE: _opt_shadow_mage, RUNE_MASTER: _opt_use,
    CONJURER: _opt_conjurer,
}

# The power forms each mage takes.
FORMS: dict[int, tuple[str, ...]] = {
    **{m: ("move", "summon") for m in TYPE_OF_MAGE},
    ANIMIST: ("move",), MYSTIC: ("move",), MENTALIST: ("move",), ORACLE: ("use",),
    RUNE_MASTER: ("use",), MAGICIAN: ("target",), MAGUS: ("target",), SEER: ("player",),
    ALCHEMIST: ("alchemy",), ENCHANTER: ("square",), FORCE_MAGE: ("square",),
    SHADOW_MAGE: ("square",), ILLUSIONIST: ("swap",), CONJURER: ("summon",),
    DREAM_LORD: ("dream",),
}


# ---- using a power -------------------------------------------------------

def use(s: State, colour: int, mage: int, piece: int, power: Power) -> None:
    """Check `power` and carry it out on the working state `s`.

    Returns normally when the removed minion stays in its owner's reserve;
    the Magus and the Conjurer take it from there themselves.
    """
    _use_as(s, colour, mage, piece, mage, power)


def _use_as(s: State, colour: int, left: int, piece: int, mage: int, power: Power) -> None:
    """Use `mage`'s power for a minion that left chamber `left` (the same mage,
    or the Dream Lord's chamber when it borrows `mage`)."""
    assert power is not None
    forms = FORMS[mage]
    if power[0] not in forms:
        shapes = " or ".join(SHAPES[f] for f in forms)
        raise IllegalAction(_rule(mage), f"the {_name(mage)}'s power takes {shapes}")
    _USE[mage](s, colour, left, piece, power)


def _require(condition: bool, rule: str, detail: str) -> None:
    if not condition:
        raise IllegalAction(rule, detail)


def _check_mover(s: State, sq: int, colour: int, rule: str, who: str) -> None:
    piece = s.arena[sq]
    where = SQUARE_NAMES[sq]
    _require(piece != 0 and (piece - 1) >> 3 == colour, rule, f"{where} holds no minion of {who}")
    _require(not _warded(s, sq), "R14",
             f"the minion on {where} is warded by the Force Mage until the round ends")


def _check_move(s: State, a: int, b: int, knight: bool, capture: bool) -> None:
    if b not in destinations(s.arena, s.wards, a, knight, capture):
        raise refusal(s.arena, s.wards, a, b, knight, capture)


def _check_summon(s: State, colour: int, kind: int, sq: int) -> None:
    name, where = TYPES[kind], SQUARE_NAMES[sq]
    _require(s.reserve[8 * colour + kind] > 0, "R5", f"there is no {name} in your reserve to summon")
    _require(not s.arena[sq], "R5", f"a minion is summoned onto an empty square; {where} is occupied")
    if sq not in summon_squares(colour, kind):
        zone = {0: "its owner's backrow", 1: "its owner's side (ranks 1-4 for White, 5-8 for Black)"}
        rank = 0 if kind < 3 else 1
        raise IllegalAction("R5", f"a {name} is summoned onto {zone[rank]}, not {where}")


def _use_fixed(s: State, colour: int, mage: int, piece: int, power: Power) -> None:
    assert power is not None
    kind = TYPE_OF_MAGE[mage]
    if power[0] == "summon":
        _check_summon(s, colour, kind, power[1])
        _summon(s, colour, kind, power[1])
        return
    a, b = power[1], power[2]
    _check_mover(s, a, colour, "R12", f"yours for the {_name(mage)}")
    _require((s.arena[a] - 1) & 7 == kind, "R12",
             f"the {_name(mage)} moves only your {TYPES[kind]} minions; {SQUARE_NAMES[a]} holds "
             f"a {TYPES[(s.arena[a] - 1) & 7]}")
    _check_move(s, a, b, bool((s.runes >> colour) & 1), True)
    _move(s, a, b)


def _use_animist(s: State, colour: int, mage: int, piece: int, power: Power) -> None:
    assert power is not None
    a, b = power[1], power[2]
    _check_mover(s, a, colour, "R12", "yours")
    _check_move(s, a, b, bool((s.runes >> colour) & 1), True)
    _move(s, a, b)


def _use_mystic(s: State, colour: int, mage: int, piece: int, power: Power) -> None:
    assert power is not None
    a, b = power[1], power[2]
    _check_mover(s, a, colour, "R12", "yours")
    _require(not s.arena[b], "R12", f"the Mystic moves a minion to an empty square; {SQUARE_NAMES[b]} is occupied")
    kind = (s.arena[a] - 1) & 7
    if kind < 3 and a >> 3 == backrow(colour) and b >> 3 == backrow(1 - colour):
        raise IllegalAction("R4", f"a {TYPES[kind]} on its own backrow cannot reach the "
                                  f"opponent's backrow in one move, by the Mystic's jump too")
    _move(s, a, b)


def _use_oracle(s: State, colour: int, mage: int, piece: int, power: Power) -> None:
    s.orb = colour  # from the next phase on (R13)


def _use_rune_master(s: State, colour: int, mage: int, piece: int, power: Power) -> None:
    s.runes |= 1 << colour


def _use_magician(s: State, colour: int, mage: int, piece: int, power: Power) -> None:
    assert power is not None
    target = power[1]
    _require(target != mage, "R12", "the Magician clears another chamber, not its own")
    _require(s.seat[target] != OFF, "R12", f"the {_name(target)} is not in this match")
    victim = s.occupant[target]
    _require(victim != 0, "R12", f"the {_name(target)} chamber is empty")
    occupant = list(s.occupant)
    occupant[target] = 0
    s.occupant = tuple(occupant)
    s.reserve = _add(s.reserve, victim - 1, 1)


def _use_seer(s: State, colour: int, mage: int, piece: int, power: Power) -> None:
    assert power is not None
    s.owed = (power[1], power[1])


def _use_magus(s: State, colour: int, mage: int, piece: int, power: Power) -> None:
    assert power is not None
    target = power[1]
    _require(target != mage, "R14", "the Magus sends the minion to a different chamber")
    _require(_may_place(s, target, colour), "R14",
             f"the {_name(target)} is not an empty chamber you may place on")
    s.reserve = _add(s.reserve, piece - 1, -1)
    occupant = list(s.occupant)
    occupant[target] = piece
    s.occupant = tuple(occupant)


def _use_alchemist(s: State, colour: int, mage: int, piece: int, power: Power) -> None:
    assert power is not None
    sq, kind = power[1], power[2]
    _check_mover(s, sq, colour, "R14", "yours")
    old = (s.arena[sq] - 1) & 7
    _require(kind != old, "R14", f"the Alchemist swaps in a minion of a different type, not a {TYPES[kind]}")
    _require(s.reserve[8 * colour + kind] > 0, "R14", f"there is no {TYPES[kind]} in your reserve")
    reserve = list(s.reserve)
    reserve[8 * colour + kind] -= 1
    reserve[8 * colour + old] += 1
    s.reserve = tuple(reserve)
    _set(s, {sq: code(colour, kind)})


def _use_mentalist(s: State, colour: int, mage: int, piece: int, power: Power) -> None:
    assert power is not None
    a, b = power[1], power[2]
    enemy = 1 - colour
    _check_mover(s, a, enemy, "R14", "your opponent's (the Mentalist moves the opponent's minions)")
    _check_move(s, a, b, bool((s.runes >> enemy) & 1), False)
    _move(s, a, b)


def _use_enchanter(s: State, colour: int, mage: int, piece: int, power: Power) -> None:
    assert power is not None
    sq = power[1]
    _check_mover(s, sq, 1 - colour, "R14", "your opponent's")
    kind = (s.arena[sq] - 1) & 7
    _require(s.reserve[8 * colour + kind] > 0, "R14", f"there is no {TYPES[kind]} in your reserve")
    _to_reserve(s, sq)
    _summon(s, colour, kind, sq)


def _use_force_mage(s: State, colour: int, mage: int, piece: int, power: Power) -> None:
    assert power is not None
    sq = power[1]
    _require(s.arena[sq] != 0, "R14", f"there is no minion on {SQUARE_NAMES[sq]}")
    _require(not _warded(s, sq), "R14", f"the minion on {SQUARE_NAMES[sq]} is already warded")
    s.wards |= 1 << sq


def _use_illusionist(s: State, colour: int, mage: int, piece: int, power: Power) -> None:
    assert power is not None
    a, b = power[1], power[2]
    for sq in (a, b):
        _require(s.arena[sq] != 0, "R14", f"there is no minion on {SQUARE_NAMES[sq]}")
        _require(not _warded(s, sq), "R14", f"the minion on {SQUARE_NAMES[sq]} is warded by the Force Mage")
    _require(s.arena[a] != s.arena[b], "R14",
             "the Illusionist swaps two minions that differ in owner or type")
    _set(s, {a: s.arena[b], b: s.arena[a]})


def _use_shadow_mage(s: State, colour: int, mage: int, piece: int, power: Power) -> None:
    assert power is not None
    sq = power[1]
    where = SQUARE_NAMES[sq]
    _require(s.arena[sq] != 0, "R14", f"there is no minion on {where}")
    _require(not _warded(s, sq), "R14", f"the minion on {where} is warded by the Force Mage")
    _require(any(_own(s.arena[n], colour) for n in NEIGHBOURS[sq]), "R14",
             f"the Shadow Mage needs a minion of yours sharing a side with {where}")
    _to_reserve(s, sq)


def _use_conjurer(s: State, colour: int, mage: int, piece: int, power: Power) -> None:
    assert power is not None
    _check_summon(s, colour, (piece - 1) & 7, power[1])
    _summon(s, colour, (piece - 1) & 7, power[1])


def _use_dream_lord(s: State, colour: int, mage: int, piece: int, power: Power) -> None:
    assert power is not None
    borrowed, inner = power[1], power[2]
    _require(borrowed in CHAOS_MAGES, "R14", f"the Dream Lord borrows chaos mages only, not the {_name(borrowed)}")
    _require(borrowed != DREAM_LORD and s.seat[borrowed] == OFF, "R14",
             f"the Dream Lord borrows a chaos mage not in play; the {_name(borrowed)} is in play")
    # As if the minion left the Dream Lord's chamber: the Magus may not send it back there.
    _use_as(s, colour, mage, piece, borrowed, inner)


_USE: dict[int, Callable[[State, int, int, int, Power], None]] = {
    **{m: _use_fixed for m in TYPE_OF_MAGE},
    ANIMIST: _use_animist, MYSTIC: _use_mystic, ORACLE: _use_oracle, MAGICIAN: _use_magician,
    SEER: _use_seer, MAGUS: _use_magus, ALCHEMIST: _use_alchemist, MENTALIST: _use_mentalist,
    ENCHANTER: _use_enchanter, DREAM_LORD: _use_dream_lord, FORCE_MAGE: _use_force_mage,
    ILLUSIONIST: _use_illusionist, SHADOW_MAGE: _use_shadow_mage, RUNE_MASTER: _use_rune_master,
    CONJURER: _use_conjurer,
}

"""Applying actions and listing the legal ones: the turn order of a match.

`apply(state, action)` never changes `state`: it returns a new state and the
automatic actions (R11) that followed, as (colour, action) pairs.
"""

from __future__ import annotations

from itertools import repeat
from typing import Any, Final

from . import powers as _powers
from .actions import Action, parse_action
from .colours import BLACK, COLOURS, WHITE, other
from .deck import shuffle
from .errors import IllegalAction, MalformedAction, MatchOver
from .mages import MAGES, OFF, TOP_FLOOR, private_seat
from .minions import (
    BACKROW_SQUARES,
    CODES_OF,
    COPIES,
    TYPES,
    code,
    counts_of,
    owned_by,
    slot,
    slot_of,
)
from .power_base import spaced
from .powers import may_place
from .state import ACTION, DECISION, DRAW, OVER, REASONS, SETUP, State
from .variants import VARIANT_RULES

# Final: a compiled build (mypyc) reads these from C statics, not the module's dict.
PASS: Final[Action] = ("pass",)
Automatic = list[tuple[int, Action]]
_MAGE_COUNT: Final = len(MAGES)


# ---- reading the state -----------------------------------------------------

def in_tower(s: State, colour: int) -> bool:
    """Whether `colour` has a minion on any chamber (R10)."""
    return not CODES_OF[colour].isdisjoint(s.occupant)


def usable_chambers(s: State, colour: int) -> list[int]:
    return [m for m in range(_MAGE_COUNT) if may_place(s, m, colour)]


def _must_pass(s: State, colour: int) -> bool:
    """R11: a pass is the only thing this colour can do in the decision phase."""
    if not any(counts_of(s.reserve, colour)):
        return True
    return not any(may_place(s, m, colour) for m in range(_MAGE_COUNT))


def _tower_full(s: State) -> bool:
    return all(s.occupant[m] for m in range(_MAGE_COUNT) if s.seat[m] != OFF)


# ---- the legal actions -----------------------------------------------------

def setup_choices(s: State) -> list[str]:
    """In the setup phase, any order of these types is a legal backrow (R7)."""
    return list(TYPES) if s.phase == SETUP else []


def legal_actions(s: State) -> list[Action]:
    """Every legal action of the player to move, each once.

    Empty in the setup phase (see `setup_choices`) and once the match is over.
    """
    if s.phase == DECISION:
        return _legal_placements(s)
    if s.phase == ACTION:
        return _legal_removals(s)
    return []


def _legal_placements(s: State) -> list[Action]:
    colour = s.to_move
    held = [k for k, count in enumerate(counts_of(s.reserve, colour)) if count]
    out: list[Action] = [("place", m, k) for m in usable_chambers(s, colour) for k in held]
    out.append(PASS)
    return out


def _legal_removals(s: State) -> list[Action]:
    colour = s.to_move
    mine = CODES_OF[colour]
    out: list[Action] = []
    # One working copy for every chamber, its occupant and reserve set per
    # chamber as after_removal would: the listers only read it.
    after = s.copy()
    records = _powers.POWERS
    for mage, piece in enumerate(s.occupant):
        if piece not in mine:
            continue
        occupant = list(s.occupant)
        occupant[mage] = 0
        after.occupant = tuple(occupant)
        reserve = list(s.reserve)
        reserve[piece - 1] += 1
        after.reserve = tuple(reserve)
        out.append(("remove", mage, None))
        # zip builds the ("remove", mage, power) tuples in C.
        out += zip(repeat("remove"), repeat(mage), records[mage].options(after, colour, mage, piece))
    return out


def after_removal(s: State, mage: int, piece: int) -> State:
    """A working copy with `piece` taken off `mage` and put in reserve (R10)."""
    after = s.copy()
    occupant = list(s.occupant)
    occupant[mage] = 0
    after.occupant = tuple(occupant)
    reserve = list(s.reserve)
    reserve[slot_of(piece)] += 1
    after.reserve = tuple(reserve)
    return after


# ---- applying an action ----------------------------------------------------

def apply(s: State, action: Any) -> tuple[State, Automatic]:
    """The state after `action` by the player to move, and the automatic actions.

    `action` is an engine tuple or the contract's JSON form. Raises
    MalformedAction or IllegalAction (naming the rule) and changes nothing.
    """
    # `action` is typed Any, not Action | dict: anything else must be refused
    # as malformed, and the compiled engine (mypyc) would raise TypeError at
    # the call for a value outside the declared type.
    # `apply_steps` without its list of steps: the search and perft call this
    # once per action tried.
    if isinstance(action, dict):
        action = parse_action(action)
    state = _apply_one(s, action)
    automatic: Automatic = []
    while state.phase == DECISION and _must_pass(state, state.to_move):  # automatic_action
        automatic.append((state.to_move, PASS))
        state = _apply_one(state, PASS)
    return state, automatic


Step = tuple[int, Action, State]


def apply_steps(s: State, action: Any) -> list[Step]:
    """`action` and the automatic actions after it (R11), each with the state it
    leaves: [(colour, action, state), ...], the player's own action first."""
    if isinstance(action, dict):
        action = parse_action(action)
    colour = s.to_move
    state = _apply_one(s, action)
    steps: list[Step] = [(colour, action, state)]
    while (forced := automatic_action(state)) is not None:
        colour = state.to_move
        state = _apply_one(state, forced)
        steps.append((colour, forced, state))
    return steps


def automatic_action(s: State) -> Action | None:
    """The action the engine plays for the player to move, if it is forced (R11)."""
    if s.phase == DECISION and _must_pass(s, s.to_move):
        return PASS
    return None


def _apply_one(s: State, action: Any) -> State:
    if s.phase == OVER:
        raise MatchOver()
    kind = action[0] if isinstance(action, tuple) and action else None
    if kind == "setup":
        return _apply_setup(s, action)
    if kind in ("place", "pass"):
        if s.phase != DECISION:
            raise IllegalAction("R9", f"placing and passing belong to the decision phase; this is the {_phase(s)}")
        new = s.copy()
        if kind == "place":
            _place(new, action[1], action[2])
        else:
            new.passed |= 1 << s.to_move
        _after_decision_turn(new, s.to_move)
        return new
    if kind == "remove":
        if s.phase != ACTION:
            raise IllegalAction("R10", f"removing belongs to the action phase; this is the {_phase(s)}")
        new = _remove(s, action[1], action[2])
        if not _check_victory(new, s.to_move):
            _after_action_turn(new, s.to_move)
        return new
    raise MalformedAction(f"not an action: {action!r}")


def _phase(s: State) -> str:
    return ("setup phase", "decision phase", "action phase", "end")[s.phase]


def _apply_setup(s: State, action: Action) -> State:
    if s.phase != SETUP:
        raise IllegalAction("R7", "the setup phase is over")
    row = action[1]
    if sorted(row) != list(range(8)):
        raise IllegalAction("R7", "the backrow holds one minion of each of the 8 types")
    colour = s.to_move
    new = s.copy()
    arena = list(s.arena)
    reserve = list(s.reserve)
    for square, kind in zip(BACKROW_SQUARES[colour], row, strict=True):
        arena[square] = code(colour, kind)
        reserve[slot(colour, kind)] -= 1
    new.arena, new.reserve = tuple(arena), tuple(reserve)
    if colour == WHITE:
        new.to_move = other(colour)
    else:
        new.phase, new.to_move = DECISION, new.orb
    return new


def _place(s: State, mage: int, kind: int) -> None:
    colour = s.to_move
    seat = s.seat[mage]
    index = slot(colour, kind)
    if (seat == OFF or s.occupant[mage] or (seat > TOP_FLOOR and seat != private_seat(colour))
            or not s.reserve[index]):
        _refuse_placement(s, mage, kind)
    reserve = list(s.reserve)
    reserve[index] -= 1
    s.reserve = tuple(reserve)
    occupant = list(s.occupant)
    occupant[mage] = code(colour, kind)
    s.occupant = tuple(occupant)


def _refuse_placement(s: State, mage: int, kind: int) -> None:
    """Why `mage` may not take a `kind` minion now: the first rule broken."""
    colour = s.to_move
    seat = s.seat[mage]
    name = spaced(mage)
    if seat == OFF:
        raise IllegalAction("R6", f"the {name} is not in this match's tower")
    if s.occupant[mage]:
        raise IllegalAction("R9", f"the {name} chamber is occupied; a chamber holds one minion")
    if seat > TOP_FLOOR and seat != private_seat(colour):
        raise IllegalAction("R18", f"the {name} is {COLOURS[other(colour)]}'s private chamber")
    raise IllegalAction("R9", f"{COLOURS[colour]} has no {TYPES[kind]} in reserve")


def _remove(s: State, mage: int, power: Any) -> State:
    colour = s.to_move
    piece = s.occupant[mage]
    if s.seat[mage] == OFF:
        raise IllegalAction("R6", f"the {spaced(mage)} is not in this match's tower")
    if not owned_by(piece, colour):
        raise IllegalAction("R10", f"you have no minion on the {spaced(mage)} chamber")
    # after_removal and the power's record (check, then apply), spelled out: this runs
    # for every removal applied. The removed minion stays in its owner's reserve unless
    # the power takes it from there (the Magus and the Conjurer).
    new = s.copy()
    occupant = list(s.occupant)
    occupant[mage] = 0
    new.occupant = tuple(occupant)
    reserve = list(s.reserve)
    reserve[piece - 1] += 1
    new.reserve = tuple(reserve)
    if power is not None:
        record = _powers.POWERS[mage]  # read from the module: a test swaps a record
        record.check_form(power)
        record.check(new, colour, mage, piece, power)
        record.apply(new, colour, mage, piece, power)
    return new


# ---- what happens next -----------------------------------------------------

def _after_decision_turn(s: State, mover: int) -> None:
    # A player who must pass is left to move: `automatic_action` plays it.
    if (s.has_passed(WHITE) and s.has_passed(BLACK)) or _tower_full(s):
        _begin_action_phase(s)
        return
    opponent = 1 - mover  # other(mover), spelled out: this runs per placement applied
    s.to_move = mover if s.has_passed(opponent) else opponent


def _begin_action_phase(s: State) -> None:
    s.phase = ACTION
    first = s.orb
    if not in_tower(s, first):
        first = other(first)  # skipped, not an action (R10, R11)
        if not in_tower(s, first):
            _end_round(s)
            return
    s.to_move = first


def _after_action_turn(s: State, mover: int) -> None:
    occupant = s.occupant
    has = (not CODES_OF[WHITE].isdisjoint(occupant), not CODES_OF[BLACK].isdisjoint(occupant))
    if not has[WHITE] and not has[BLACK]:
        _end_round(s)
        return
    owed, last = s.owed, mover
    while owed:  # the Seer's turns; a player with nothing left loses them (R14)
        nxt, owed = owed[0], owed[1:]
        last = nxt
        if has[nxt]:
            s.owed, s.to_move = owed, nxt
            return
    s.owed = ()
    nxt = 1 - last
    s.to_move = nxt if has[nxt] else last


def _end_round(s: State) -> None:
    s.wards, s.runes, s.owed = 0, 0, ()
    s.quiet = 0 if s.captured else s.quiet + 1
    s.captured = False
    if s.no_progress_rounds and s.quiet >= s.no_progress_rounds:
        _finish(s, DRAW, "no_progress")  # R16
        return
    if VARIANT_RULES[s.variant].rotates:
        _rotate(s)
    s.round += 1
    s.phase, s.passed, s.to_move = DECISION, 0, s.orb
    if not any(s.reserve):
        # Neither player can ever place again, so nothing can ever change.
        _finish(s, DRAW, "no_progress")


def _rotate(s: State) -> None:
    """R17: the top chaos card goes, the rest move up, a new one lands on 13."""
    floors = VARIANT_RULES[s.variant].chaos_floors
    seat = list(s.seat)
    on_floor = {f: m for m, f in enumerate(seat) if f in floors}
    top = floors[-1]
    seat[on_floor[top]] = OFF
    discard = s.discard + (on_floor[top],)
    for floor in reversed(floors[:-1]):
        seat[on_floor[floor]] = floor + 1
    deck = s.deck
    if not deck:
        deck, discard = shuffle(discard, s.seed, f"reshuffle:{s.round + 1}"), ()
    seat[deck[0]] = floors[0]
    s.seat, s.deck, s.discard = tuple(seat), deck[1:], discard


# ---- the end of a match ----------------------------------------------------

def winning_reason(s: State, colour: int) -> str | None:
    """Why `colour` has won now (R15), or None."""
    # Arithmetic rather than other() and slot(): this runs twice per action applied.
    enemy = 1 - colour
    if CODES_OF[enemy].isdisjoint(s.arena):
        return "eliminated"
    # The greater types are the first three of each colour's counts.
    dragons, elementals, constructs = s.dead[8 * enemy:8 * enemy + 3]
    if dragons + elementals + constructs >= 5:
        return "five_greater"
    if dragons >= COPIES or elementals >= COPIES or constructs >= COPIES:
        return "three_of_a_kind"
    return None


def _check_victory(s: State, mover: int) -> bool:
    # winning_reason for both colours, spelled out: this runs per removal applied.
    arena, dead = s.arena, s.dead
    for colour in (mover, 1 - mover):  # the player who acted wins a tie (R15)
        enemy = 1 - colour
        base = 8 * enemy
        dragons, elementals, constructs = dead[base], dead[base + 1], dead[base + 2]
        if CODES_OF[enemy].isdisjoint(arena):
            reason = "eliminated"
        elif dragons + elementals + constructs >= 5:
            reason = "five_greater"
        elif dragons >= COPIES or elementals >= COPIES or constructs >= COPIES:
            reason = "three_of_a_kind"
        else:
            continue
        _finish(s, colour, reason)
        return True
    return False


def _finish(s: State, winner: int, reason: str) -> None:
    s.phase, s.winner, s.reason = OVER, winner, REASONS.index(reason)
    s.owed = ()


def conclude(s: State, winner: str | None, reason: str) -> State:
    """The state ended from outside the rules: resignation, time, agreement, abort."""
    if s.phase == OVER:
        raise MatchOver()
    if reason not in REASONS:
        raise MalformedAction(f"unknown reason {reason!r}")
    new = s.copy()
    _finish(new, DRAW if winner is None else COLOURS.index(winner), reason)
    return new

"""The engine's state: a compact value of ints and tuples, JSON both ways.

A `State` is never changed once handed out: `apply` copies it and changes the
copy. Its JSON form (`to_json` / `from_json`) is exact and includes the secret
parts (seed, deck order); `view.public_view` is what clients may see.
"""

from __future__ import annotations

from typing import Any, Final

from .colours import COLOURS
from .errors import BadPosition
from .mages import MAGES
from .variants import VARIANTS
from .view_shape import ResultView

# Final: a compiled build (mypyc) reads these from C statics, not the module's dict.
SETUP: Final = 0
DECISION: Final = 1
ACTION: Final = 2
OVER: Final = 3
PHASES = ("setup", "decision", "action", "over")
DRAW: Final = 2  # `winner` of a drawn match
NO_WINNER: Final = -1  # `winner` while the match runs

REASONS = (
    "eliminated", "five_greater", "three_of_a_kind", "resigned", "timeout",
    "agreement", "no_progress", "aborted", "adjudicated",
)

# (name, kind) of every field, in order. Kind tells JSON how to carry it.
_FIELDS: tuple[tuple[str, str], ...] = (
    ("arena", "ints"),  # 64 minion codes, a1..h8
    ("reserve", "ints"),  # 16 counts: colour * 8 + type
    ("dead", "ints"),  # 16 counts, same layout
    ("seat", "ints"),  # per mage: 0 off the board, 1-16 floor, 17/18 private
    ("occupant", "ints"),  # per mage: minion code on its chamber, 0 if empty
    ("phase", "int"),
    ("to_move", "int"),
    ("orb", "int"),
    ("round", "int"),
    ("passed", "int"),  # bit per colour: passed in this decision phase (R9)
    ("runes", "int"),  # bit per colour: Rune Master active this round
    ("wards", "int"),  # bit per square: Force Mage ward this round
    ("owed", "ints"),  # colours owed the next turns by the Seer, in order
    ("quiet", "int"),  # whole rounds in a row ended without a capture (R16)
    ("captured", "bool"),  # a capture happened in the current round
    ("deck", "ints"),  # chaos cards still to draw, top first (secret, R20)
    ("discard", "ints"),  # chaos cards discarded by rotation (R17)
    ("seed", "str"),  # secret until the match ends, unless custom (R20)
    ("custom", "bool"),  # the creator chose the seed or the chaos mages
    ("variant", "int"),
    ("no_progress_rounds", "int"),  # 0 turns R16's draw off
    ("winner", "int"),  # NO_WINNER, a colour, or DRAW
    ("reason", "int"),  # index into REASONS once over, else -1
)
FIELD_NAMES = tuple(name for name, _ in _FIELDS)


class State:
    __slots__ = FIELD_NAMES

    arena: tuple[int, ...]
    reserve: tuple[int, ...]
    dead: tuple[int, ...]
    seat: tuple[int, ...]
    occupant: tuple[int, ...]
    phase: int
    to_move: int
    orb: int
    round: int
    passed: int
    runes: int
    wards: int
    owed: tuple[int, ...]
    quiet: int
    captured: bool
    deck: tuple[int, ...]
    discard: tuple[int, ...]
    seed: str
    custom: bool
    variant: int
    no_progress_rounds: int
    winner: int
    reason: int

    def __init__(
        self,
        arena: tuple[int, ...],
        reserve: tuple[int, ...],
        dead: tuple[int, ...],
        seat: tuple[int, ...],
        occupant: tuple[int, ...],
        phase: int,
        to_move: int,
        orb: int,
        round: int,
        passed: int,
        runes: int,
        wards: int,
        owed: tuple[int, ...],
        quiet: int,
        captured: bool,
        deck: tuple[int, ...],
        discard: tuple[int, ...],
        seed: str,
        custom: bool,
        variant: int,
        no_progress_rounds: int,
        winner: int,
        reason: int,
    ) -> None:
        self.arena = arena
        self.reserve = reserve
        self.dead = dead
        self.seat = seat
        self.occupant = occupant
        self.phase = phase
        self.to_move = to_move
        self.orb = orb
        self.round = round
        self.passed = passed
        self.runes = runes
        self.wards = wards
        self.owed = owed
        self.quiet = quiet
        self.captured = captured
        self.deck = deck
        self.discard = discard
        self.seed = seed
        self.custom = custom
        self.variant = variant
        self.no_progress_rounds = no_progress_rounds
        self.winner = winner
        self.reason = reason

    def copy(self) -> State:
        # Plain construction, every field by position: the hot path copies a
        # state per action applied. (State.__new__ with the fields set one by
        # one is no faster here, and breaks when mypyc compiles this class.)
        return State(
            self.arena, self.reserve, self.dead, self.seat, self.occupant, self.phase,
            self.to_move, self.orb, self.round, self.passed, self.runes, self.wards, self.owed,
            self.quiet, self.captured, self.deck, self.discard, self.seed, self.custom,
            self.variant, self.no_progress_rounds, self.winner, self.reason
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in FIELD_NAMES)

    def __hash__(self) -> int:
        return hash(tuple(getattr(self, n) for n in FIELD_NAMES))

    def __repr__(self) -> str:
        # A summary, not the position text: notation.py reads text into States,
        # so writing it from here would make the two modules import each other.
        # `to_text(state)` gives the whole position.
        arena = sum(1 for piece in self.arena if piece)
        return (f"<State round {self.round}, {PHASES[self.phase]} phase, "
                f"{COLOURS[self.to_move]} to move, {arena} minions in the arena>")

    # The bit sets, read by name. Each spells its bit out rather than call
    # minions.has_bit: these run on every move checked.
    def warded(self, square: int) -> bool:
        """Whether the minion on `square` is warded by the Force Mage (R14)."""
        return bool((self.wards >> square) & 1)

    def has_runes(self, colour: int) -> bool:
        """Whether `colour` used the Rune Master this round (R14)."""
        return bool((self.runes >> colour) & 1)

    def has_passed(self, colour: int) -> bool:
        """Whether `colour` passed in this decision phase (R9)."""
        return bool((self.passed >> colour) & 1)

    @property
    def over(self) -> bool:
        return self.phase == OVER

    @property
    def result(self) -> ResultView | None:
        """The contract's `result`: None while the match runs."""
        if self.phase != OVER:
            return None
        winner = None if self.winner == DRAW else COLOURS[self.winner]
        return {"winner": winner, "reason": REASONS[self.reason]}

    @property
    def variant_name(self) -> str:
        return VARIANTS[self.variant]

    def to_json(self) -> dict[str, Any]:
        """Every field, secrets included: for storage, never for a client."""
        out: dict[str, Any] = {}
        for name, kind in _FIELDS:
            value = getattr(self, name)
            out[name] = list(value) if kind == "ints" else value
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> State:
        try:
            fields: dict[str, Any] = {}
            for name, kind in _FIELDS:
                value = data[name]
                if kind == "ints":
                    if not isinstance(value, list) or not all(type(v) is int for v in value):
                        raise BadPosition(f"{name} must be a list of ints")
                    fields[name] = tuple(value)
                elif kind == "int":
                    if type(value) is not int:
                        raise BadPosition(f"{name} must be an int")
                    fields[name] = value
                elif kind == "bool":
                    if type(value) is not bool:
                        raise BadPosition(f"{name} must be true or false")
                    fields[name] = value
                else:
                    if not isinstance(value, str):
                        raise BadPosition(f"{name} must be a string")
                    fields[name] = value
        except KeyError as missing:
            raise BadPosition(f"missing field {missing}") from None
        state = cls(**fields)
        _check_shape(state)
        return state


def _check_shape(state: State) -> None:
    sizes = {"arena": 64, "reserve": 16, "dead": 16, "seat": len(MAGES), "occupant": len(MAGES)}
    for name, size in sizes.items():
        if len(getattr(state, name)) != size:
            raise BadPosition(f"{name} must hold {size} values")
    if not 0 <= state.phase <= OVER or state.to_move not in (0, 1) or state.orb not in (0, 1):
        raise BadPosition("phase, to_move or orb out of range")
    if not 0 <= state.variant < len(VARIANTS):
        raise BadPosition("unknown variant")

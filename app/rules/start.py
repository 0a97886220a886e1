"""A new match: the deck shuffled and dealt, the setup phase waiting (R6, R7)."""

from __future__ import annotations

from collections.abc import Sequence

from .colours import WHITE
from .deck import shuffle
from .errors import MalformedAction
from .mages import CHAOS_MAGES, MAGE_INDEX, MAGES, private_seat
from .minions import COPIES
from .state import NO_WINNER, SETUP, State
from .variants import VARIANT_RULES, VARIANTS

DEFAULT_NO_PROGRESS_ROUNDS = 10
# A backrow to start from, a to h (R7 lets a side choose any order): the
# constructs in the corners, as rooks stand. The page offers it first in setup.
DEFAULT_BACKROW = ("construct", "fey", "elemental", "dragon", "undead", "beast", "spirit", "myrmidon")


def new_match(
    seed: str,
    variant: str = "standard",
    no_progress_rounds: int = DEFAULT_NO_PROGRESS_ROUNDS,
    chaos: Sequence[str] | None = None,
    custom: bool = False,
) -> State:
    """The state before White's setup.

    `chaos` names chaos mages to deal first, in dealing order (floors 13, 14,
    ... then White's private cards, then Black's); the rest of the deck is
    shuffled from `seed`. Choosing them, like choosing the seed, makes the
    match custom: its seed is public from the start (R20).
    """
    if not isinstance(seed, str) or not seed:
        raise MalformedAction("the seed is a non-empty string")
    if variant not in VARIANTS:
        raise MalformedAction(f"unknown variant {variant!r}; one of {', '.join(VARIANTS)}")
    if type(no_progress_rounds) is not int or no_progress_rounds < 0:
        raise MalformedAction("no_progress_rounds must be a whole number, 0 or more")
    rules = VARIANT_RULES[VARIANTS.index(variant)]
    chosen = _chosen_cards(chaos or ())
    rest = tuple(m for m in CHAOS_MAGES if m not in chosen)
    cards = chosen + shuffle(rest, seed, "deck")

    seat = [0] * len(MAGES)
    dealt = 0
    for floor in rules.chaos_floors:
        seat[cards[dealt]] = floor
        dealt += 1
    for colour in (0, 1):
        for _ in range(rules.private_cards):
            seat[cards[dealt]] = private_seat(colour)
            dealt += 1
    for mage in range(12):
        seat[mage] = mage + 1

    return State(
        arena=(0,) * 64,
        reserve=(COPIES,) * 16,
        dead=(0,) * 16,
        seat=tuple(seat),
        occupant=(0,) * len(MAGES),
        phase=SETUP,
        to_move=WHITE,
        orb=WHITE,
        round=1,
        passed=0,
        runes=0,
        wards=0,
        owed=(),
        quiet=0,
        captured=False,
        deck=cards[dealt:],
        discard=(),
        seed=seed,
        custom=bool(custom or chaos),
        variant=VARIANTS.index(variant),
        no_progress_rounds=no_progress_rounds,
        winner=NO_WINNER,
        reason=-1,
    )


def _chosen_cards(names: Sequence[str]) -> tuple[int, ...]:
    chosen = []
    for name in names:
        mage = MAGE_INDEX.get(name) if isinstance(name, str) else None
        if mage is None or mage not in CHAOS_MAGES:
            raise MalformedAction(f"{name!r} is not a chaos mage (R6)")
        if mage in chosen:
            raise MalformedAction(f"{name} is chosen twice: every chaos mage is unique (R6)")
        chosen.append(mage)
    return tuple(chosen)

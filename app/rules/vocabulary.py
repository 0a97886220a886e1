"""Every word the engine says about the game, as one document (R1-R20).

The pages, the admin, the Learn page and the API read the mages' names and
powers, the minion types, the variants and the rulings from here
(`GET /api/v1/vocabulary`, and the same document in each page): a copy
elsewhere could drift from the rules, and once did.

    >>> v = vocabulary()
    >>> v["mages"]["dragon_lord"]["name"], v["mages"]["dragon_lord"]["minion"]
    ('Dragon Lord', 'dragon')
    >>> v["minions"]["fey"]["moves_from_d4"]
    ['b3', 'b5', 'c2', 'c6', 'e2', 'e6', 'f3', 'f5']
"""

from __future__ import annotations

from functools import cache
from typing import Any

from .actions import action_json
from .colours import BLACK, WHITE
from .engine import apply, legal_actions
from .mages import CHAOS_MAGES, FIXED_MAGES, MAGES
from .minions import (
    BEAST,
    GREATER,
    MINOR,
    RANK_OF,
    SQUARE_INDEX,
    SQUARE_NAMES,
    TYPES,
    code,
    summon_squares,
)
from .moves import destinations
from .powers import POWERS
from .start import DEFAULT_BACKROW, new_match
from .variants import VARIANT_RULES, VARIANTS
from .words import describe

# How each type moves (R3): the words beside the engine's own move tables.
MOVES = (
    "slides any distance in a straight line or along a diagonal, like a chess queen; a minion in the way stops it",
    "slides any distance along a diagonal, like a chess bishop; a minion in the way stops it",
    "slides any distance in a straight line, like a chess rook; a minion in the way stops it",
    "leaps one square one way and two the other, like a chess knight, over anything",
    "leaps one square one way and three the other, over anything",
    "leaps exactly two squares in any of the eight directions, over anything",
    "steps one square forward, back or sideways",
    "steps one square along a diagonal",
)
SUMMONED = {
    GREATER: "is summoned onto its owner's backrow (rank 1 for White, 8 for Black)",
    MINOR: "is summoned onto its owner's side (ranks 1-4 for White, 5-8 for Black)",
    "pawn": "is summoned onto any empty square",
}
# The button that uses a power taking no choice (its one form `("use",)`), by
# mage: what it does, short; any other such mage's button says "Use the power".
USE_BUTTON = {"oracle": "Take the Orb", "rune_master": "Gain knight leaps"}
USE_ANY = "Use the power"
# The rulings, one sentence each: what a refusal's "R9" points to (docs/rules.md
# states each in full).
RULINGS = {
    "R1": "The arena is 8 by 8; White's backrow is rank 1 and Black's rank 8; your side is your four nearest ranks.",
    "R2": "Each player owns 24 minions, three of each type, always somewhere: arena, reserve, chamber or dead pile.",
    "R3": "Each type moves its own way; a move ends on an empty square or captures an opponent's minion.",
    "R4": "A greater minion that starts a move on its own backrow may not end it on the opponent's backrow.",
    "R5": "A summoned minion comes from the reserve onto an empty square: greater on the backrow, "
          "minor on your side, pawn anywhere.",
    "R6": "The chaos deck holds eleven mages, shuffled from the match's seed; four are dealt onto floors 13-16.",
    "R7": "White sets up a backrow of one minion of each type, then Black; White holds the Orb.",
    "R8": "A round is a decision phase and then an action phase; the Orb's holder starts each one.",
    "R9": "In the decision phase you place a minion from your reserve on an empty chamber, or pass for the "
          "rest of the phase.",
    "R10": "In the action phase you take one of your minions off a chamber, then may use that mage's power.",
    "R11": "A player who can only pass passes automatically; a player with nothing in the tower is skipped.",
    "R12": "The fixed mages of floors 1-12 and their powers.",
    "R13": "The Orb's holder takes the first turn of each phase; the Oracle takes the Orb.",
    "R14": "The chaos mages and their powers.",
    "R15": "You win when the opponent has no minion in the arena, five greater minions dead, or three "
           "greater minions of one type dead.",
    "R16": "Resigning, running out of time, agreeing a draw, and the draw after rounds without a capture.",
    "R17": "Rotating chaos lords: at the end of each round the chaos mages move and a new one is dealt.",
    "R18": "Archmage: each player has one private chamber only they may use.",
    "R19": "Ultimate archmage: each player has three private chambers.",
    "R20": "The seed is secret until the end; its SHA-256 commitment is public from the start.",
}
# Why a match ended (`result.reason`, state.REASONS), as "White wins: ..." goes on.
ENDINGS = {
    "eliminated": "no minion of the loser's is left in the arena",
    "five_greater": "five of the loser's greater minions are dead",
    "three_of_a_kind": "three of the loser's greater minions of one type are dead",
    "resigned": "resignation",
    "timeout": "time",
    "agreement": "a draw agreed",
    "no_progress": "rounds without a capture (the no-progress rule)",
    "aborted": "the match was aborted",
    "adjudicated": "a server admin's decision",
}
FROM = SQUARE_INDEX["d4"]  # where the Learn page's diagrams stand a minion


def mage_name(mage: int) -> str:
    return MAGES[mage].replace("_", " ").title()


def moves_from(kind: int, square: int = FROM) -> list[str]:
    """Where a White minion of `kind` alone on an empty arena may move (R3)."""
    arena = [0] * 64
    arena[square] = code(WHITE, kind)
    return sorted(SQUARE_NAMES[s] for s in destinations(tuple(arena), 0, square, False))


@cache
def move_table() -> dict[str, dict[str, list[str]]]:
    """For the Learn page's arena: where each type moves from every square,
    alone on an empty arena, as a White minion (R3, and R4 from rank 1)."""
    return {name: {SQUARE_NAMES[sq]: moves_from(kind, sq) for sq in range(64)} for kind, name in enumerate(TYPES)}


def example(mage: int) -> str:
    """One use of the mage's power, told by the engine: White stands a minion on
    the mage after both backrows are set up, Black one on another chamber, and
    the first power the engine lists is used."""
    row = [TYPES[t] for t in (2, 3, 1, 0, 6, 7, 4, 5)]
    chaos = [MAGES[mage]] if mage in CHAOS_MAGES else []
    if MAGES[mage] == "dream_lord":  # it borrows a chaos mage not in play: leave some out
        chaos += ["seer", "magus", "force_mage"]
    s = new_match("learn", chaos=chaos)
    for _ in range(2):
        s, _ = apply(s, {"type": "setup", "backrow": row})
    kind = POWERS[mage].kind
    s, _ = apply(s, {"type": "place", "mage": MAGES[mage], "minion": TYPES[BEAST if kind is None else kind]})
    other = next(m for m in FIXED_MAGES if m != mage)
    s, _ = apply(s, {"type": "place", "mage": MAGES[other], "minion": "fey"})
    s, _ = apply(s, {"type": "pass"})
    if s.to_move == BLACK:
        s, _ = apply(s, {"type": "pass"})
    uses = [a for a in legal_actions(s) if a[0] == "remove" and a[1] == mage and a[2] is not None]
    return describe(s, uses[len(uses) // 2])


def variant_words(index: int) -> str:
    rules = VARIANT_RULES[index]
    floors = rules.chaos_floors
    where = f"floor {floors[0]}" if len(floors) == 1 else f"floors {floors[0]}-{floors[-1]}"
    words = f"Chaos mages on {where}"
    if rules.private_cards:
        chambers = "one private chamber" if rules.private_cards == 1 else f"{rules.private_cards} private chambers"
        words += f"; each player also has {chambers}, dealt from the chaos deck, that only they may use"
    if rules.rotates:
        words += "; at the end of each round the chaos mages rotate and a new one is dealt"
    return words + "."


@cache
def vocabulary() -> dict[str, Any]:
    """The document: mages, minion types, variants and rulings, in the engine's words."""
    mages = {}
    for mage, record in enumerate(POWERS):
        mages[MAGES[mage]] = {
            "name": mage_name(mage),
            "power": record.words,
            "rule": record.rule,
            "chaos": mage in CHAOS_MAGES,
            "floor": mage + 1 if mage in FIXED_MAGES else None,
            "minion": None if record.kind is None else TYPES[record.kind],
            "example": example(mage),
            "use": USE_BUTTON.get(MAGES[mage], USE_ANY) if "use" in record.forms else None,
        }
    minions = {}
    for kind, name in enumerate(TYPES):
        rank = RANK_OF[kind]
        minions[name] = {
            "name": name.capitalize(),
            "rank": rank,
            "moves": MOVES[kind],
            "summoned": SUMMONED[rank],
            "summon_squares": {"white": [SQUARE_NAMES[s] for s in summon_squares(WHITE, kind)],
                               "black": [SQUARE_NAMES[s] for s in summon_squares(BLACK, kind)]},
            "moves_from_d4": moves_from(kind),
        }
    variants = {name: {"name": name.replace("_", " ").capitalize(), "rules": variant_words(i)}
                for i, name in enumerate(VARIANTS)}
    return {"mages": mages, "minions": minions, "variants": variants, "rulings": RULINGS, "endings": ENDINGS,
            "types": list(TYPES), "chaos": [MAGES[m] for m in CHAOS_MAGES],
            "default_backrow": list(DEFAULT_BACKROW)}


__all__ = ["ENDINGS", "MOVES", "move_table", "RULINGS", "action_json", "example", "moves_from", "vocabulary"]

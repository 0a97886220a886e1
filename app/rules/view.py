"""The engine's part of the contract's public match state (R20: no secrets).

The deck order and the seed never appear here while the match runs; the seed
appears once it is over, or from the start in a custom match.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from .colours import COLOURS, WHITE
from .deck import commitment
from .mages import CHAOS_MAGES, MAGE_INDEX, MAGES, OFF, PRIVATE_WHITE, private_seat
from .minions import (
    SQUARE_INDEX,
    SQUARE_NAMES,
    TYPE_INDEX,
    TYPES,
    code,
    owner_of,
    type_of,
)
from .notation import public_text
from .start import new_match
from .state import OVER, PHASES, State
from .variants import VARIANTS
from .view_shape import ChamberView, Effect, MinionCounts, MinionView, PrivateByColour, PublicView

# Each minion code's owner and type by name, looked up: a view is made for every
# version of every match, some 30 minions each.
_OWNERS: Final = tuple(COLOURS[owner_of(piece)] if piece else "" for piece in range(17))
_KINDS: Final = tuple(TYPES[type_of(piece)] if piece else "" for piece in range(17))


def _minion(piece: int) -> MinionView | None:
    if not piece:
        return None
    return {"owner": _OWNERS[piece], "minion": _KINDS[piece]}


def _counts(counts: tuple[int, ...], colour: int) -> MinionCounts:
    first = 8 * colour
    return {"dragon": counts[first], "elemental": counts[first + 1], "construct": counts[first + 2],
            "fey": counts[first + 3], "spirit": counts[first + 4], "myrmidon": counts[first + 5],
            "undead": counts[first + 6], "beast": counts[first + 7]}


def public_view(s: State) -> PublicView:
    over = s.phase == OVER
    tower: list[ChamberView] = []
    private: PrivateByColour = {"white": [], "black": []}
    for floor in range(1, 17):
        for mage, seat in enumerate(s.seat):
            if seat == floor:
                tower.append({"floor": floor, "mage": MAGES[mage], "occupant": _minion(s.occupant[mage])})
    for mage, seat in enumerate(s.seat):
        if seat >= PRIVATE_WHITE:
            private["white" if seat == PRIVATE_WHITE else "black"].append(
                {"mage": MAGES[mage], "occupant": _minion(s.occupant[mage])})
    effects: list[Effect] = [
        {"mage": "force_mage", "square": SQUARE_NAMES[sq]} for sq in range(64) if s.warded(sq)
    ]
    effects += [{"mage": "rune_master", "player": COLOURS[c]} for c in (0, 1) if s.has_runes(c)]
    if s.owed:
        effects.append({"mage": "seer", "owed": [COLOURS[c] for c in s.owed]})
    return {
        "options": {"variant": s.variant_name, "no_progress_rounds": s.no_progress_rounds},
        "round": s.round,
        "phase": PHASES[s.phase],
        "to_move": None if over else COLOURS[s.to_move],
        "orb": COLOURS[s.orb],
        "arena": {SQUARE_NAMES[sq]: _minion(p) for sq, p in enumerate(s.arena) if p},
        "reserve": {"white": _counts(s.reserve, 0), "black": _counts(s.reserve, 1)},
        "dead": {"white": _counts(s.dead, 0), "black": _counts(s.dead, 1)},
        "tower": tower,
        "private": private,
        "passed": {"white": s.has_passed(0), "black": s.has_passed(1)},
        "effects": effects,
        "quiet_rounds": s.quiet,
        "chaos": {
            "deck_count": len(s.deck),
            "discard": [MAGES[m] for m in s.discard],
            "not_in_play": [MAGES[m] for m in CHAOS_MAGES if s.seat[m] == OFF],
        },
        "result": s.result,
        "custom": s.custom,
        "seed_commitment": commitment(s.seed),
        "seed": s.seed if (over or s.custom) else None,
        # The position text of docs/notation.md, masked as R20 asks.
        "position": public_text(s),
    }


def _piece(minion: MinionView | None) -> int:
    if not minion:
        return 0
    return code(COLOURS.index(minion["owner"]), TYPE_INDEX[minion["minion"]])


_EMPTY = new_match("view")
_EMPTY.deck = ()  # what a view hides stays empty: this state tells, it is never played on


def state_from_view(view: Mapping[str, Any]) -> State:
    """The engine's State as far as a public state shows it: the arena, the
    chambers, the reserves and dead piles, the phase, the Orb and the effects.

    What the view hides (the deck, the seed) is left empty, so the state can
    tell an action in words (words.describe_view) but must not be played on.
    """
    s = _EMPTY.copy()
    s.variant = VARIANTS.index(view["options"]["variant"])
    seat = [OFF] * len(MAGES)
    occupant = [0] * len(MAGES)
    for chamber in view["tower"]:
        mage = MAGE_INDEX[chamber["mage"]]
        seat[mage], occupant[mage] = chamber["floor"], _piece(chamber["occupant"])
    for colour, chambers in view["private"].items():
        for chamber in chambers:
            mage = MAGE_INDEX[chamber["mage"]]
            seat[mage] = private_seat(COLOURS.index(colour))
            occupant[mage] = _piece(chamber["occupant"])
    s.seat, s.occupant = tuple(seat), tuple(occupant)
    arena = [0] * 64
    for square, minion in view["arena"].items():
        arena[SQUARE_INDEX[square]] = _piece(minion)
    s.arena = tuple(arena)
    s.reserve = tuple(view["reserve"][c][t] for c in COLOURS for t in TYPES)
    s.dead = tuple(view["dead"][c][t] for c in COLOURS for t in TYPES)
    s.phase = PHASES.index(view["phase"])
    s.to_move = COLOURS.index(view["to_move"]) if view["to_move"] else WHITE
    s.orb, s.round = COLOURS.index(view["orb"]), view["round"]
    for effect in view["effects"]:
        if effect["mage"] == "force_mage":
            s.wards |= 1 << SQUARE_INDEX[effect["square"]]
        elif effect["mage"] == "rune_master":
            s.runes |= 1 << COLOURS.index(effect["player"])
        elif effect["mage"] == "seer":
            s.owed = tuple(COLOURS.index(c) for c in effect["owed"])
    return s

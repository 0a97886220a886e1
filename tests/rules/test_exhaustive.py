"""The strong consistency check, exhaustively: in positions from random games,
every well-formed action of the player to move (every chamber, every power
form with every square, type, mage and colour, the Dream Lord's borrowing of
every chaos mage included) is accepted by `apply` exactly when
`legal_actions` lists it."""

from __future__ import annotations

import os
import random
from itertools import combinations
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.rules import (
    ACTION,
    DECISION,
    OVER,
    SETUP,
    VARIANTS,
    IllegalAction,
    MageryError,
    State,
    apply,
    legal_actions,
    new_match,
)
from app.rules.actions import swap_key
from app.rules.mages import CHAOS_MAGES, MAGES
from app.rules.powers import FORMS
from tests.rules.helpers import RULE_PREFIX, check_conservation

ALL_FORMS = ("move", "summon", "use", "target", "player", "alchemy", "square", "swap", "dream")


def _form_powers(s: State, form: str, depth: int) -> list[Any]:
    occupied = [q for q in range(64) if s.arena[q]]
    if form == "move":
        return [("move", a, b) for a in occupied for b in range(64)]
    if form == "summon":
        return [("summon", q) for q in range(64)]
    if form == "use":
        return [("use",)]
    if form == "target":
        return [("target", m) for m in range(len(MAGES))]
    if form == "player":
        return [("player", 0), ("player", 1)]
    if form == "alchemy":
        return [("alchemy", q, k) for q in occupied for k in range(8)]
    if form == "square":
        return [("square", q) for q in range(64)]
    if form == "swap":
        ordered = sorted(occupied, key=swap_key)
        return [("swap", a, b) for a, b in combinations(ordered, 2)] + [
            ("swap", q, q) for q in occupied[:3]]
    if form == "dream":
        if depth:
            return [("dream", CHAOS_MAGES[0], ("use",))]
        out = []
        for borrowed in list(CHAOS_MAGES) + [10]:  # and one fixed mage, the Oracle
            for inner_form in FORMS[borrowed]:
                out += [("dream", borrowed, p) for p in _form_powers(s, inner_form, depth + 1)]
            other = next(f for f in ALL_FORMS if f not in FORMS[borrowed])
            out += [("dream", borrowed, p) for p in _form_powers(s, other, depth + 1)[:2]]
        return out
    raise AssertionError(form)


def all_removals(s: State, mage: int) -> list[Any]:
    out: list[Any] = [("remove", mage, None)]
    for form in FORMS[mage]:
        out += [("remove", mage, p) for p in _form_powers(s, form, 0)]
    for form in ALL_FORMS:  # a few payloads of the wrong form
        if form not in FORMS[mage]:
            out += [("remove", mage, p) for p in _form_powers(s, form, 1)[:2]]
    return out


def all_candidates(s: State, mages: list[int] | None = None) -> list[Any]:
    """Every well-formed action, or (with `mages`) every removal from those chambers."""
    if mages is not None:
        return [a for m in mages for a in all_removals(s, m)]
    out: list[Any] = [("pass",)]
    out += [("place", m, k) for m in range(len(MAGES)) for k in range(8)]
    for mage in range(len(MAGES)):
        out += all_removals(s, mage) if s.occupant[mage] else [("remove", mage, None)]
    return out


def check_exhaustively(s: State, mages: list[int] | None = None) -> int:
    listed = legal_actions(s)
    if mages is not None:
        listed = [a for a in listed if a[0] == "remove" and a[1] in mages]
    accepted = set()
    frozen = s.copy()
    for action in all_candidates(s, mages):
        try:
            new, _ = apply(s, action)
        except MageryError as err:
            assert isinstance(err, IllegalAction), (action, err)
            assert RULE_PREFIX.match(str(err)), str(err)
        else:
            check_conservation(new)
            accepted.add(action)
    assert s == frozen
    missing = set(listed) - accepted
    extra = accepted - set(listed)
    assert not missing, f"listed but refused: {sorted(missing, key=repr)[:5]}"
    assert not extra, f"accepted but not listed: {sorted(extra, key=repr)[:5]}"
    return len(listed)


def positions(game_seed: int, variant: str, wanted: int) -> list[State]:
    rng = random.Random(game_seed)
    s = new_match(seed=f"{rng.getrandbits(128):032x}", variant=variant)
    seen: list[State] = []
    while s.phase != OVER:
        if s.phase == SETUP:
            row = list(range(8))
            rng.shuffle(row)
            s, _ = apply(s, ("setup", tuple(row)))
            continue
        if rng.random() < (0.15 if s.phase == ACTION else 0.02):
            seen.append(s)
        s, _ = apply(s, rng.choice(legal_actions(s)))
    rng.shuffle(seen)
    decision = [p for p in seen if p.phase == DECISION][:1]
    return decision + [p for p in seen if p.phase == ACTION][:wanted]


@pytest.mark.parametrize("variant", VARIANTS)
@settings(max_examples=max(1, int(os.environ.get("MAGERY_RULES_GAMES", "5")) // 2 + 1),
          deadline=None, database=None)
@given(game_seed=st.integers(min_value=0, max_value=2**63 - 1))
def test_accepted_exactly_when_listed_exhaustively(variant: str, game_seed: int) -> None:
    found = positions(game_seed, variant, wanted=6)
    assert found
    for s in found:
        check_exhaustively(s)


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_mage_is_checked_exhaustively_as_the_movers_chamber(variant: str) -> None:
    """Random games until every mage of the variant has held a minion of the
    player to move, in several positions, each checked exhaustively."""
    wanted = 4
    covered = dict.fromkeys(range(len(MAGES)), 0)
    for game_seed in range(200):
        rng = random.Random(f"{variant}-{game_seed}")
        s = new_match(seed=f"{rng.getrandbits(128):032x}", variant=variant)
        while s.phase != OVER:
            if s.phase == SETUP:
                row = list(range(8))
                rng.shuffle(row)
                s, _ = apply(s, ("setup", tuple(row)))
                continue
            if s.phase == ACTION:
                lo, hi = 1 + 8 * s.to_move, 8 + 8 * s.to_move
                mine = [m for m in range(len(MAGES))
                        if lo <= s.occupant[m] <= hi and covered[m] < wanted]
                if mine:
                    check_exhaustively(s, mine)
                    for m in mine:
                        covered[m] += 1
            s, _ = apply(s, rng.choice(legal_actions(s)))
        if min(covered.values()) >= wanted:
            break
    assert min(covered.values()) >= wanted, {MAGES[m]: n for m, n in covered.items()}

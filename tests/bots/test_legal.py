"""Every level only ever plays legal actions (hypothesis over random positions,
in every variant).

A position is reached by random play from a new match; each level is then
asked for an action, which the engine must accept and, outside the setup
phase, must be one of `legal_actions`. The strong level thinks for a few
hundredths of a second so the test stays fast: legality does not depend on
how long it searches.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.bots import LEVELS, choose, random_bot
from app.rules import OVER, SETUP, VARIANTS, State, action_json, apply, legal_actions, new_match

THINK = 0.03


def reached(seed: int, steps: int, variant: str) -> State:
    rng = random.Random(seed)
    s = new_match(seed=f"{seed:032x}", variant=variant)
    for _ in range(steps):
        if s.phase == OVER:
            break
        s, _ = apply(s, random_bot(s, rng))
    return s


@pytest.mark.parametrize("variant", VARIANTS)
@settings(max_examples=6, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**64), steps=st.integers(0, 400))
def test_every_level_plays_a_legal_action(variant: str, seed: int, steps: int) -> None:
    s = reached(seed, steps, variant)
    if s.phase == OVER:
        s = reached(seed, steps // 3, variant)
    if s.phase == OVER:
        return
    legal = [action_json(a) for a in legal_actions(s)]
    for level in LEVELS:
        action = choose(level, s.to_json(), seed, THINK)
        after, _ = apply(s, action)  # raises on an illegal action
        assert after != s
        if s.phase == SETUP:
            assert action["type"] == "setup"
        else:
            assert action in legal, (level, action)


def test_a_whole_match_of_greedy_against_strong_is_legal_to_its_end() -> None:
    s = new_match(seed="f" * 32, variant="rotating", no_progress_rounds=3)
    for turn in range(2000):
        if s.phase == OVER:
            break
        level = ("greedy", "strong")[s.to_move]
        s, _ = apply(s, choose(level, s.to_json(), turn, 0.01))
    assert s.phase == OVER

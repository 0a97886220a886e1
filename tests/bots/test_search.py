"""The strong level's tables (search.py): a position met again costs a look-up,
and the key tells apart exactly what the rules read (the seed is not among it)."""

from __future__ import annotations

import random

from app.bots import random_bot
from app.bots.evaluate import score
from app.bots.search import INF, Search, position_key
from app.rules import ACTION, OVER, State, apply, new_match


def action_position() -> State:
    rng = random.Random(5)
    s = new_match(seed="c" * 32)
    while s.phase != OVER:
        s, _ = apply(s, random_bot(s, rng))
        if s.phase == ACTION and s.round >= 2:
            return s
    raise AssertionError("no action phase reached")


def test_a_position_searched_again_is_answered_from_the_table() -> None:
    s = action_position()
    search = Search(think_seconds=1e9, max_depth=3)
    first = search.value(s, 2, -INF, INF)
    nodes, scored = search.nodes, len(search.scores)
    assert nodes > 1 and scored > 1
    again = search.value(s, 2, -INF, INF)
    assert again == first
    assert search.nodes == nodes + 1  # the one node looked up, nothing below it
    assert len(search.scores) == scored


def test_a_leaf_scored_once_is_not_scored_again() -> None:
    s = action_position()
    search = Search(think_seconds=1e9)
    assert search._leaf(s, 0) == score(s)
    search.scores[position_key(s)] = 12345.0  # what a second score would overwrite
    assert search._leaf(s, 0) == 12345.0


def test_the_key_ignores_the_seed_and_sees_a_ward_and_the_deck() -> None:
    s = action_position()
    other_seed = s.copy()
    other_seed.seed = "d" * 32
    assert position_key(other_seed) == position_key(s)
    warded = s.copy()
    warded.wards = 1 << next(sq for sq, piece in enumerate(s.arena) if piece)
    assert position_key(warded) != position_key(s)
    dealt = s.copy()
    dealt.deck = tuple(reversed(s.deck))
    assert len(s.deck) > 1 and position_key(dealt) != position_key(s)

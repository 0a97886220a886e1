"""The strong level's tables (search.py): a position met again costs a look-up,
and the key tells apart exactly what the rules read (the seed is not among it)."""

from __future__ import annotations

import random

from app.bots import random_bot
from app.bots.evaluate import score
from app.bots.search import INF, Search, position_key
from app.rules import ACTION, OVER, State, apply, legal_actions, new_match


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


def capture_position() -> State:
    """An action-phase position where the player to move can kill a minion, and
    does better to (a capture worth less than standing would not show that
    quiescence ran)."""
    for seed in range(40):
        rng = random.Random(seed)
        s = new_match(seed=f"{seed:032d}")
        while s.phase != OVER:
            if (s.phase == ACTION and any(apply(s, a)[0].dead != s.dead for a in legal_actions(s))
                    and played_out(s, 1) != score(s)):
                return s
            s, _ = apply(s, random_bot(s, rng))
    raise AssertionError("no capture found")


def played_out(s: State, plies: int) -> float:
    """Quiescence by brute force: the player to move takes the evaluation or
    any action that fills a dead pile, for `plies` such actions, no pruning."""
    stand = score(s)
    if plies == 0 or s.phase != ACTION:
        return stand
    after = [apply(s, a)[0] for a in legal_actions(s)]
    values = [stand] + [played_out(child, plies - 1) for child in after if child.dead != s.dead]
    return max(values) if s.to_move == 0 else min(values)


def test_a_leaf_plays_its_captures_out() -> None:
    s = capture_position()
    for plies in (1, 2, 3):
        search = Search(think_seconds=1e9, quiescence=plies)
        assert search.value(s, 0, -INF, INF) == played_out(s, plies)
    # It is not the static evaluation: the capture changed the value.
    assert Search(think_seconds=1e9, quiescence=2).value(s, 0, -INF, INF) != score(s)
    assert Search(think_seconds=1e9, quiescence=0).value(s, 0, -INF, INF) == score(s)


def action_positions(count: int) -> list[State]:
    """Action-phase positions of round 2 or later, from random matches."""
    out = []
    for number in range(count):
        rng = random.Random(number)
        s = new_match(seed=f"{number:032x}")
        while s.phase != OVER:
            s, _ = apply(s, random_bot(s, rng))
            if s.phase == ACTION and s.round >= 2 and len(legal_actions(s)) > 4:
                out.append(s)
                break
    return out


def test_actions_past_the_width_are_searched_a_ply_shallower() -> None:
    shallower = 0
    for s in action_positions(6):
        for late in (0, 2):
            search = Search(think_seconds=1e9, width=1, late=late)
            search.value(s, 3, -INF, INF)
            ordered = search.table[position_key(s)].by_value
            assert ordered is not None and len(ordered) > 3
            depths = [search.table[position_key(child)].depth if position_key(child) in search.table else None
                      for _, child in ordered[:4]]
            # The first at full depth (two plies left); the next `late` with one
            # ply left, again with two only where that made it the best; the rest pruned.
            assert depths[0] == 2
            assert all(d in (1, 2) for d in depths[1:1 + late])
            assert depths[1 + late:] == [None] * (3 - late)
            shallower += depths[1:1 + late].count(1)
    # Searched at full depth every time, the late actions would never stop at one ply.
    assert shallower > 0

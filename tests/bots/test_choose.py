"""choose(): think time honoured (an upper bound only, generous), hidden
information never used (R20), plain data in and out; evaluate() in range."""

from __future__ import annotations

import pickle
import random
import time

import pytest

from app.bots import LEVELS, choose, choose_with_info, evaluate, random_bot
from app.bots.hidden import determinize
from app.rules import ACTION, OVER, State, apply, new_match
from tests.rules.helpers import position


def busy_position() -> State:
    """An action phase with many powers on offer (found by random play)."""
    rng = random.Random(11)
    s = new_match(seed="b" * 32)
    best = None
    while s.phase != OVER:
        s, _ = apply(s, random_bot(s, rng))
        if s.phase == ACTION and s.round >= 2:
            best = s
            break
    assert best is not None
    return best


@pytest.mark.parametrize("think", [0.05, 0.4])
def test_strong_answers_within_its_think_time(think: float) -> None:
    """Counted in this process's CPU seconds, by the search's own clock and by the
    test's (as the arena counts): the search's deadline is what is tested, and a
    busy machine's stalls, which a wall clock counts, are not the search's."""
    s = busy_position()
    began = time.process_time()
    action, _ = choose_with_info("strong", s.to_json(), 3, think, clock="cpu")
    spent = time.process_time() - began
    apply(s, action)
    assert spent < 3 * think + 1.0


def test_choose_is_a_picklable_top_level_function_of_plain_data() -> None:
    assert pickle.loads(pickle.dumps(choose)) is choose
    s = busy_position()
    action = choose("greedy", s.to_json(), 1, 0.1)
    assert pickle.loads(pickle.dumps(action)) == action


def test_levels_are_named_weakest_first() -> None:
    assert LEVELS == ("random", "greedy", "strong")
    with pytest.raises(ValueError, match="unknown bot level"):
        choose("grandmaster", new_match(seed="x" * 32).to_json(), 1, 0.1)


def test_the_bot_sees_the_same_guess_whatever_the_true_deck_order() -> None:
    s = new_match(seed="d" * 32, variant="rotating")
    other = s.copy()
    other.deck = tuple(reversed(s.deck))
    other.seed = "e" * 32
    a, b = determinize(s, random.Random(9)), determinize(other, random.Random(9))
    assert a.deck == b.deck and a.seed == b.seed
    assert sorted(a.deck) == sorted(s.deck)
    assert a.seed != s.seed


def test_greedy_at_a_rotation_does_not_depend_on_the_deck_order() -> None:
    # The last removal of a round deals a new chaos card (R17): the choice
    # must not change with the hidden order of the deck.
    base = position(
        {"d4": "D", "a1": "U", "d7": "c", "h8": "u"},
        turn="aw", tower={"animist": "B"}, variant="rotating",
    )
    reordered = base.copy()
    reordered.deck = tuple(reversed(base.deck))
    for seed in range(4):
        assert choose("greedy", base.to_json(), seed, 0.1) == choose("greedy", reordered.to_json(), seed, 0.1)


def test_evaluate_is_in_range_and_sees_an_ended_match_and_material() -> None:
    s = busy_position()
    assert -1.0 <= evaluate(s.to_json()) <= 1.0
    won = position({"a1": "U"}, turn="xw", result="w:eliminated")
    assert evaluate(won) == 1.0
    ahead = position({"a1": "D", "b1": "C", "c1": "E", "h8": "u"}, turn="dw")
    behind = position({"a8": "d", "b8": "c", "c8": "e", "h1": "U"}, turn="dw")
    assert evaluate(ahead) > 0.3 > -0.3 > evaluate(behind)

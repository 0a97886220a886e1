"""bench/tune_eval.py takes the evaluation apart into weighted terms to fit its
weights (issue 22): the terms and the weights read from app/bots/evaluate.py
must add up to `score` exactly, or a fit would tune something else."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from app.bots.evaluate import score
from app.rules import ACTION, DECISION, OVER, SETUP, apply, legal_actions, new_match

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import tune_eval  # noqa: E402


def test_the_terms_add_up_to_the_evaluation_in_every_position_of_random_matches() -> None:
    weights = tune_eval.shipped()
    seen = 0
    for number in range(3):
        rng = random.Random(number)
        s = new_match(seed=f"{number:032x}", variant=("standard", "archmage", "rotating")[number])
        while s.phase != OVER:
            if s.phase == SETUP:
                s = apply(s, {"type": "setup", "backrow": tune_eval.choose_setup(s, rng)})[0]
                continue
            if s.phase in (ACTION, DECISION):
                assert abs(tune_eval.weighted(tune_eval.terms(s), weights) - score(s)) < 1e-9
                seen += 1
            s = apply(s, rng.choice(legal_actions(s)))[0]
    assert seen > 100


def test_a_term_left_out_is_noticed() -> None:
    """The check above can fail: without mobility the sum misses the score."""
    weights = {**tune_eval.shipped(), "mobility": 0.0}
    s = new_match(seed="0" * 32)
    rng = random.Random(5)
    while s.phase != ACTION:
        if s.phase == SETUP:
            s = apply(s, {"type": "setup", "backrow": tune_eval.choose_setup(s, rng)})[0]
        else:
            s = apply(s, rng.choice(legal_actions(s)))[0]
    assert abs(tune_eval.weighted(tune_eval.terms(s), weights) - score(s)) > 1e-3


def test_a_self_play_match_writes_terms_and_its_ending() -> None:
    lines = tune_eval.play_one((7, 1, 0.1, 0.5))
    assert lines
    for line in lines:
        row = json.loads(line)
        assert len(row["t"]) == len(tune_eval.NAMES) and row["r"] in (0.0, 0.5, 1.0)
    assert len({json.loads(line)["r"] for line in lines}) == 1  # one ending per match


def test_the_fit_moves_a_weight_the_endings_call_for() -> None:
    """Endings that follow mobility alone pull its weight up from the shipped one."""
    rng = random.Random(3)
    names = tune_eval.NAMES
    rows = []
    for _ in range(400):
        t = [0.0] * len(names)
        t[names.index("material")] = rng.uniform(-3, 3)
        t[names.index("mobility")] = rng.uniform(-60, 60)
        t[names.index("orb")] = rng.choice((-1.0, 1.0))
        rows.append((t, 1.0 if t[names.index("mobility")] > 0 else 0.0))
    weights, _, first, best = tune_eval.fit_weights(rows, rounds=40)
    assert best < first
    assert weights["mobility"] > 2 * tune_eval.shipped()["mobility"]

"""app/kernel/jsontext.py writes what the standard library's compact encoder
writes (issue 22: orjson instead, for speed): on the public states of a played
match, on the answer's other parts (names in any script, nested lists, the
clock's integers), and, through the standard library, on what orjson refuses."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from app.kernel import jsontext
from app.rules import apply_steps, legal_actions, new_match, public_view
from app.rules.minions import TYPES
from app.rules.state import OVER, SETUP


def _standard(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def _states(seed: str, most: int = 60) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    state, views = new_match(seed=seed), []
    for _ in range(most):
        if state.phase == OVER:
            break
        if state.phase == SETUP:
            action: Any = ("setup", tuple(rng.sample(range(len(TYPES)), len(TYPES))))
        else:
            action = rng.choice(legal_actions(state))
        state = apply_steps(state, action)[-1][2]
        views.append(public_view(state))
    return views


ODD = {"players": {"white": {"name": "Zoë «ünïcode» 名前 \u2028 \"quoted\" \\ \n", "rating": None},
                   "black": {"name": "\U0001f9d9", "connected": True, "rating": {"rating": 1500, "rd": 350}}},
       "clock": {"white": 299_000, "black": -1, "big": 2**62}, "empty": {}, "list": [[], [1, [2, (3, 4)]]],
       "result": None, "flag": False}


@pytest.mark.parametrize("fast", [True, False], ids=["orjson", "standard"])
def test_the_text_is_the_standard_compact_text(fast: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    if not fast:
        monkeypatch.setattr(jsontext, "_fast", None)
    elif jsontext._fast is None:
        pytest.skip("orjson is not installed here")
    for value in [*_states("json-text"), ODD]:
        assert jsontext.compact(value) == _standard(value)


def test_what_orjson_refuses_is_written_by_the_standard_library() -> None:
    for value in ({1: "a key that is an int"}, {"huge": 2**70}):
        assert jsontext.compact(value) == _standard(value)

"""The API's state schema and the service's TypedDicts are one shape: mypy holds
app/api/shapes_held.py (tests/test_code_quality.py runs it); here the same
function is run on a real state, so the models accept what the service makes
and refuse a key it does not."""

from __future__ import annotations

import copy
from typing import Any

import pydantic
import pytest

from app.api.match_example import MATCH_EXAMPLE
from app.api.shapes_held import held_to_the_service


def _parts(state: dict[str, Any]) -> dict[str, Any]:
    return {
        "state": state, "player": state["players"]["white"], "counts": state["reserve"]["white"],
        "chamber": state["tower"][0], "private": {"mage": "oracle", "occupant": None},
        "chaos": state["chaos"], "result": {"winner": "white", "reason": "five_greater"},
        "rematch": {"offered_by": None, "declined_by": None, "match_id": None},
        "rating": {"rating": 1500, "rd": 350, "provisional": True},
        "entry": {"version": 1, "player": "white", "action": {"type": "pass"}, "automatic": False,
                  "at": "2026-11-21T15:04:12.250Z"},
    }


def test_a_real_state_fits_every_model() -> None:
    held_to_the_service(**_parts(copy.deepcopy(MATCH_EXAMPLE)))


@pytest.mark.parametrize("part", ["state", "player", "counts", "chamber", "chaos", "rematch", "rating", "entry"])
def test_a_key_the_service_does_not_make_is_refused(part: str) -> None:
    parts = _parts(copy.deepcopy(MATCH_EXAMPLE))
    parts[part] = {**parts[part], "secret": 1}
    with pytest.raises(pydantic.ValidationError, match="secret"):
        held_to_the_service(**parts)

"""The evaluation's mobility (issue 22): the squares a side attacks count."""

from __future__ import annotations

from app.bots.evaluate import score
from tests.rules.helpers import position


def test_a_minion_in_the_open_scores_above_the_same_minion_in_a_corner() -> None:
    # Nothing within reach of either Dragon and no capture either way: only
    # the squares it attacks tell the two apart.
    enemies = {"g8": "u", "h6": "u"}
    centre = position({"d4": "D", **enemies}, turn="dw")
    corner = position({"a1": "D", **enemies}, turn="dw")
    assert score(centre) > score(corner)

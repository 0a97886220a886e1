"""The rules of leaving a rated match (app/ratings/leaving.py): which endings
are offences, the wait's ladder, and forgiveness after a clean run."""

from __future__ import annotations

import pytest

from app.ratings.leaving import (
    CLEAN_RUN,
    FORGIVEN_AFTER_SECONDS,
    LONGEST_WAIT_SECONDS,
    next_level,
    offences,
    wait_seconds,
)

BOTH = {"white": True, "black": True}


@pytest.mark.parametrize(("result", "ending", "ender", "acted", "found"), [
    ({"winner": "white", "reason": "timeout", "abandoned": "black"}, {"type": "claim", "result": "win"}, "white",
     BOTH, {"black": "left"}),
    ({"winner": "black", "reason": "timeout"}, {"type": "timeout"}, "white", {"white": False, "black": True},
     {"white": "no_move"}),
    ({"winner": "black", "reason": "timeout"}, {"type": "timeout"}, "white", BOTH, {}),  # thought too long: no offence
    ({"winner": None, "reason": "aborted"}, {"type": "abort", "late": "black"}, None, BOTH, {"black": "late_setup"}),
    ({"winner": None, "reason": "aborted"}, {"type": "abort"}, "white", BOTH, {"white": "aborts"}),
    ({"winner": None, "reason": "aborted"}, {"type": "abort"}, None, BOTH, {}),  # nobody joined: the server's
    ({"winner": "white", "reason": "resigned"}, {"type": "resign"}, "black", BOTH, {}),
    ({"winner": "white", "reason": "eliminated"}, {"type": "remove"}, "white", BOTH, {}),
])
def test_which_endings_are_offences(result, ending, ender, acted, found) -> None:
    assert offences(result, ending, ender, True, acted) == found
    assert offences(result, ending, ender, False, acted) == {}  # not a real-time match: never


def test_the_wait_starts_at_ten_minutes_and_doubles_to_a_day() -> None:
    waits = [wait_seconds(n) for n in range(1, 10)]
    assert waits[:4] == [600, 1200, 2400, 4800]
    assert waits[-1] == LONGEST_WAIT_SECONDS and all(a <= b for a, b in zip(waits, waits[1:], strict=False))


def test_a_clean_run_or_a_quiet_week_forgives() -> None:
    assert next_level(3, 0, 60.0) == 4
    assert next_level(3, CLEAN_RUN - 1, 60.0) == 4
    assert next_level(3, CLEAN_RUN, 60.0) == 1
    assert next_level(3, 0, FORGIVEN_AFTER_SECONDS) == 1
    assert next_level(0, 0, None) == 1

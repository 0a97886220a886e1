"""Leaving a rated match is not free: which endings are offences, and how long
the wait before the next rated match grows. Pure rules; app/accounts/playban.py
keeps the count and refuses rated play during a wait.

An offence is one of these, in a rated match with a real-time clock (a
correspondence match has days per move and its own ways to end):

- `left`: the opponent claimed the match after the player had gone for good;
- `no_move`: the player's clock ran out before they had made a single
  action of their own (they never started: gone, or sitting it out). A clock
  run out later in a match is a loss like any other (thinking too long is
  no offence);
- `late_setup`: the player did not set up in time and the match was aborted;
- `aborts`: the player called off a third rated match within a day (one or two
  aborts are anyone's right: a wrong time control, a caller at the door).

Each offence starts a wait: 10 minutes for the first, doubling with each
offence after it, at most a day. A clean run forgives: after `CLEAN_RUN`
rated matches finished without an offence, or `FORGIVEN_AFTER_SECONDS`
without one, the next offence is a first again.

    >>> wait_seconds(1), wait_seconds(2), wait_seconds(4), wait_seconds(12)
    (600, 1200, 4800, 86400)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

FIRST_WAIT_SECONDS = 600
LONGEST_WAIT_SECONDS = 24 * 3600
CLEAN_RUN = 10  # rated matches finished without an offence that forgive the past ones
FORGIVEN_AFTER_SECONDS = 7 * 24 * 3600
ABORTS_FORGIVEN = 2  # aborts a player may make in ABORT_WINDOW_SECONDS before the next is an offence
ABORT_WINDOW_SECONDS = 24 * 3600


def wait_seconds(level: int) -> int:
    """The wait after the `level`-th offence in a row (level ≥ 1)."""
    return int(min(FIRST_WAIT_SECONDS * 2 ** (max(1, level) - 1), LONGEST_WAIT_SECONDS))


def next_level(level: int, clean: int, seconds_since_last: float | None) -> int:
    """The level a new offence brings, from the standing `level`, the rated
    matches finished clean since the last offence and the seconds since it."""
    if clean >= CLEAN_RUN or seconds_since_last is None or seconds_since_last >= FORGIVEN_AFTER_SECONDS:
        return 1
    return level + 1


def offences(result: Mapping[str, Any], ending: Mapping[str, Any], ender: str | None, timed: bool,
             acted: Mapping[str, bool]) -> dict[str, str]:
    """{colour: offence} for a rated match's ending: `result` its public result,
    `ending` the action that ended it and `ender` the colour that made it (None:
    the server); `timed` a real-time clock; `acted` each colour made an action
    of its own after setup.
    Aborts are returned as `aborts` for the caller to count against the window.

    >>> offences({"winner": "white", "reason": "timeout", "abandoned": "black"}, {"type": "claim"},
    ...          "white", True, {"white": True, "black": True})
    {'black': 'left'}
    >>> offences({"winner": "white", "reason": "resigned"}, {"type": "resign"}, "black", True,
    ...          {"white": True, "black": True})
    {}
    """
    if not timed:
        return {}
    kind = ending.get("type")
    if kind == "abort":
        late = ending.get("late")
        if isinstance(late, str):
            return {late: "late_setup"}
        return {ender: "aborts"} if ender is not None else {}
    loser = None if result.get("winner") is None else ("black" if result["winner"] == "white" else "white")
    if result.get("abandoned") is not None:
        return {str(result["abandoned"]): "left"}
    if result.get("reason") == "timeout" and loser is not None and not acted.get(loser):
        return {loser: "no_move"}
    return {}

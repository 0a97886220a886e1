"""Moments as the server stores and sends them: milliseconds since the epoch,
and the one text form every timestamp it sends takes (`stamp`)."""

from __future__ import annotations

import time
from datetime import UTC, datetime


def moment(ms: int) -> datetime:
    return datetime.fromtimestamp(ms / 1000, UTC)


def ms_of(when: datetime) -> int:
    return round(when.timestamp() * 1000)


# The seconds `stamp` wrote lately, each with its text up to the milliseconds:
# an action stamps its log entry and the server's time (this second) and the
# match's creation (its own second), and strftime was 8 µs of each.
_SECONDS: dict[int, str] = {}
_MOST_SECONDS = 1024  # then forgotten all at once: a few matches' creations, and now


def stamp(ms: int) -> str:
    """The one form every timestamp the server sends takes: RFC 3339, UTC, `Z`,
    milliseconds ("2026-11-22T13:02:45.410Z")."""
    second = ms // 1000
    text = _SECONDS.get(second)
    if text is None:
        if len(_SECONDS) >= _MOST_SECONDS:
            _SECONDS.clear()
        text = _SECONDS[second] = moment(second * 1000).strftime("%Y-%m-%dT%H:%M:%S.")
    return f"{text}{ms % 1000:03d}Z"


def now_stamp() -> str:
    """The server's time now, as `stamp` writes it."""
    return stamp(int(time.time() * 1000))

"""Compact JSON text of what the match service writes and answers on every action.

An action's public state is encoded once, for its log row and for its answer,
and the engine state and the action for the match's row: with the standard
library's encoder that was about a fifth of the server's instructions per
action (callgrind over a run of actions). orjson writes the same text
as `json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))`
for what these values hold (dicts with str keys, lists, tuples, str, int,
bool, None) some ten times faster. What it refuses (a key that is not a str,
an int beyond 64 bits) goes the standard library's way, and so does everything
where orjson is not installed (a venv made before it was a dependency).

One difference stays: orjson writes a NaN or an infinite float as null where
json.dumps refuses it; these values hold no float (a rating is shown in whole
points), and tests/api/test_json_text.py keeps the two agreeing on a match's
states.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

_fast: Callable[[Any], bytes] | None
try:
    from orjson import dumps as _orjson_dumps

    _fast = _orjson_dumps
except ImportError:  # the standard library's encoder serves
    _fast = None


def _standard(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def compact(value: Any) -> str:
    """`value` as compact JSON text, non-ASCII characters as they are."""
    if _fast is None:
        return _standard(value)
    try:
        return _fast(value).decode()
    except TypeError:  # orjson.JSONEncodeError is a TypeError: what it cannot write
        return _standard(value)

"""The compact form of an update: what changed in the match state, not all of it.

A socket or a stream opened with `?updates=compact` is sent, for a version `v`,
either the full `update` (its `match` is the whole state) or a `delta` message:
the update's own fields (`action`, `player`, `automatic`, `words`, `at`) with
`base` (= v - 1, the version it applies to), `status` (the match's after it)
and `changes` instead of `match`.

`changes` is a list, applied in order, of
- `[path, value]`: set the value at `path` (a new key is added), and
- `[path]`: remove the key at `path`,
- `[path, start, count, text]`: in the string at `path`, replace the `count`
  characters from `start` with `text` (only for ASCII strings, so that a
  character is the same unit in every language: the position's text, mostly),
where `path` is a list of object keys and array indices from the state's root.
Objects are compared key by key; arrays of the same length index by index; an
array whose length changed, or any value whose type changed, is set whole; a
long ASCII string changed in one stretch is spliced, when that is shorter.

What lives (LIVE in room.py) is not diffed: it is said in full in every delta,
so that a client holding the state from a snapshot (whose clock was running
down when it was sent) or from `presence` messages lands on the very state a
full update carries: `clock` (as committed), `connected` (each seat's
`players.<colour>.connected`), `spectators`, and `server_time` (only when it is
not `at`, which it nearly always is).

Pure functions: the server builds a delta once per version per room (room.py),
the tests apply them over random matches, and static/js/compact.js is the
client's `applied`.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from app.rules import COLOURS

FORMAT = 1  # the `delta` message's form; a change of form gets a new number
NOT_DIFFED = ("version", "clock", "spectators", "server_time")  # said in full, or by `version`

Change = list[Any]
SPLICE_FROM = 32  # a string shorter than this is set whole: a splice would save next to nothing
SPLICE_COST = 12  # the characters a splice's start and count take, about


def settled(state: Mapping[str, Any]) -> dict[str, Any]:
    """The part of a state the delta compares: without what lives."""
    rest = {k: v for k, v in state.items() if k not in NOT_DIFFED}
    players = rest.get("players")
    if isinstance(players, dict):
        rest["players"] = {colour: ({k: v for k, v in p.items() if k != "connected"} if isinstance(p, dict) else p)
                           for colour, p in players.items()}
    return rest


def changes(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[Change]:
    """What turns the settled part of `before` into that of `after`."""
    found: list[Change] = []
    _diff(settled(before), settled(after), [], found)
    return found


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b  # True is not 1, 1 is not 1.0: JSON tells them apart


# An array may be a tuple in the server's state: JSON makes both an array.


def _diff(a: Any, b: Any, path: list[Any], found: list[Change]) -> None:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in a:
            if key not in b:
                found.append([[*path, key]])
        for key, value in b.items():
            if key not in a:
                found.append([[*path, key], value])
            else:
                _diff(a[key], value, [*path, key], found)
    elif isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)) and len(a) == len(b):
        for index, (x, y) in enumerate(zip(a, b, strict=True)):
            _diff(x, y, [*path, index], found)
    elif isinstance(a, str) and isinstance(b, str) and a != b and len(b) >= SPLICE_FROM \
            and a.isascii() and b.isascii():
        found.append(_splice(a, b, path))
    elif not _same(a, b):
        found.append([path, b])


def _splice(a: str, b: str, path: list[Any]) -> Change:
    """`b` as the one stretch of `a` it changed, or whole when that is no shorter."""
    most = min(len(a), len(b))
    start = 0
    while start < most and a[start] == b[start]:
        start += 1
    end = 0
    while end < most - start and a[-1 - end] == b[-1 - end]:
        end += 1
    text = b[start:len(b) - end]
    if len(text) + SPLICE_COST >= len(b):
        return [path, b]
    return [path, start, len(a) - start - end, text]


def delta(update: Mapping[str, Any], before: Mapping[str, Any], wired: Mapping[str, Any]) -> dict[str, Any]:
    """The `delta` message of `update` (its committed state after) against `before`
    (the committed state of version - 1); `wired` is the state as a full update
    would carry it now (with this moment's presence), whose live fields it says."""
    state = update["match"]
    message = {k: v for k, v in update.items() if k != "match"}
    message["type"] = "delta"
    message["format"] = FORMAT
    message["base"] = before["version"]
    message["status"] = state.get("status")  # said for a client that reads no state (the stream's end, legal)
    message["changes"] = changes(before, state)
    message["clock"] = wired.get("clock")
    players = wired.get("players") or {}
    message["connected"] = {c: bool(p.get("connected")) for c, p in players.items() if isinstance(p, dict)}
    message["spectators"] = wired.get("spectators", 0)
    if wired.get("server_time") != update.get("at"):
        message["server_time"] = wired.get("server_time")
    return message


class Unusable(ValueError):
    """The delta does not apply to the state held: ask for the full state."""


def applied(state: Mapping[str, Any], message: Mapping[str, Any]) -> dict[str, Any]:
    """The state after `message` (a `delta`), from `state` (its `base` version). A
    new object; `state` is left as it was."""
    if message.get("format") != FORMAT or state.get("version") != message.get("base"):
        raise Unusable("the delta applies to another version or form")
    out: dict[str, Any] = copy.deepcopy(dict(state))
    for change in message["changes"]:
        path = change[0]
        if not path:
            raise Unusable("a change names no place")
        holder: Any = out
        for step in path[:-1]:
            holder = holder[step]
        if len(change) == 2:
            holder[path[-1]] = copy.deepcopy(change[1])
        elif len(change) == 4:
            start, count, text = change[1:]
            was = holder[path[-1]]
            holder[path[-1]] = was[:start] + text + was[start + count:]
        else:
            del holder[path[-1]]
    out["version"] = message["version"]
    out["clock"] = copy.deepcopy(message.get("clock"))
    out["spectators"] = message.get("spectators", 0)
    out["server_time"] = message.get("server_time", message.get("at"))
    players = out.get("players")
    if isinstance(players, dict):
        for colour in COLOURS:
            if isinstance(players.get(colour), dict) and colour in message.get("connected", {}):
                players[colour]["connected"] = message["connected"][colour]
    return out

"""A compact update (`delta`, docs/api.md "delta (compact updates)") applied to
the state a client holds."""

from __future__ import annotations

import copy
from typing import Any

from .shapes import Line, Match

FORMAT = 1


class DeltaMismatch(Exception):
    """The delta is not for the state held (its `base` is another version, or its
    `format` is unknown): resume with `?since=<the version held>`, which sends full updates."""


def apply_delta(state: Match, delta: Line) -> Match:
    """The state after `delta`, a new dict (the one held is left as it was)."""
    if delta.get("format") != FORMAT or delta.get("base") != state.get("version"):
        raise DeltaMismatch(f"a delta on version {delta.get('base')} (format {delta.get('format')}), "
                            f"held: version {state.get('version')}")
    after = copy.deepcopy(state)
    for change in delta["changes"]:
        path = change[0]
        holder: Any = after
        for step in path[:-1]:
            holder = holder[step]
        last = path[-1]
        if len(change) == 2:
            if isinstance(holder, list) and last == len(holder):
                holder.append(change[1])
            else:
                holder[last] = change[1]
        elif len(change) == 1:
            del holder[last]
        else:
            start, count, text = change[1], change[2], change[3]
            holder[last] = holder[last][:start] + text + holder[last][start + count:]
    # What lives is said whole in every delta, never diffed.
    after["status"] = delta["status"]
    after["clock"] = delta["clock"]
    for colour, connected in delta.get("connected", {}).items():
        after["players"][colour]["connected"] = connected
    if "spectators" in delta:
        after["spectators"] = delta["spectators"]
    after["server_time"] = delta.get("server_time", delta["at"])
    after["version"] = delta["version"]
    return after

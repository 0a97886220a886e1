"""A match's history, version by version: what the replay and a reviewing
spectator step through. Every state here is the one the server's engine made
when that version was applied, as its update carried it (so the seed of a
running match is never in it, R20).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from . import history_store
from .errors import BadRequest, NotFound
from .record import ms_of, stamp

MAX_STATES = 100  # per call: about 3 KB each


async def states(engine: AsyncEngine, match_id: str, first: int, last: int | None) -> dict[str, Any]:
    """`{"version": now, "states": [{"version", "player", "action", "automatic", "at",
    "match"}]}` for the versions `first`..`last` (`last` defaults to as many as allowed)."""
    if first < 1:
        raise BadRequest("from is a version, 1 or more (version 1 is the first entry of the log)")
    version = await history_store.current_version(engine, match_id)
    if version is None:
        raise NotFound(f"no match {match_id!r}")
    # Any range the schema admits is answered: one the wrong way round holds no
    # states, and one longer than MAX_STATES is cut to its first MAX_STATES.
    end = first + MAX_STATES - 1 if last is None else min(last, first + MAX_STATES - 1)
    rows = await history_store.entries_between(engine, match_id, first, min(end, version))
    return {"version": version, "states": [
        {"version": r.version, "player": r.player, "action": r.action, "automatic": r.automatic,
         "at": stamp(ms_of(r.at)),
         "match": r.public}
        for r in rows]}

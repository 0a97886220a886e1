"""A match's history, version by version: what the replay and a reviewing
spectator step through. Every state here is the one the server's engine made
when that version was applied, as its update carried it (so the seed of a
running match is never in it, R20).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from app.kernel.errors import BadRequest, NotFound
from app.kernel.moments import ms_of, stamp
from app.rules import State

from . import stored_states
from .errors import MatchRunning
from .replay import initial_state, steps
from .telling import told

Entry = tuple[int, str | None, dict[str, Any], bool]  # version, player, action, automatic

MAX_STATES = 100  # per call: about 3 KB each


async def states(engine: AsyncEngine, match_id: str, first: int, last: int | None) -> tuple[dict[str, Any], bool]:
    """(`{"version": now, "states": [{"version", "player", "action", "automatic", "at",
    "match"}]}` for the versions `first`..`last` (`last` defaults to as many as
    allowed), whether the match is finished: then the answer never changes)."""
    if first < 1:
        raise BadRequest("from is a version, 1 or more (version 1 is the first entry of the log)")
    found = await stored_states.current_version(engine, match_id)
    if found is None:
        raise NotFound(f"no match {match_id!r}")
    version, finished = found
    # Any range the schema admits is answered: one the wrong way round holds no
    # states, and one longer than MAX_STATES is cut to its first MAX_STATES.
    end = first + MAX_STATES - 1 if last is None else min(last, first + MAX_STATES - 1)
    # The row before `first` too: its state is the one the first entry's words are told from.
    rows = await stored_states.entries_between(engine, match_id, max(1, first - 1), min(end, version))
    before = rows[0].public if rows and rows[0].version < first else None
    rows = [r for r in rows if r.version >= first]
    return {"version": version, "states": [
        {"version": r.version, "player": r.player, "action": r.action, "automatic": r.automatic,
         "at": stamp(ms_of(r.at)), "words": words,
         "match": r.public}
        for r, words in zip(rows, told(before, rows), strict=True)]}, finished


async def finished_log(engine: AsyncEngine, match_id: str) -> tuple[int, State, list[Entry]]:
    """(the version now, the engine's state as the match was created, its log as
    (version, player, action, automatic)) of a finished match, for judging its
    positions. A running match has none to give (MatchRunning): what they say
    would help a player."""
    found = await stored_states.finished_log(engine, match_id)
    if found is None:
        raise NotFound(f"no match {match_id!r}")
    row, log = found
    if row.status != "finished":
        raise MatchRunning("the match is still running: its positions are judged only once it is over")
    start = initial_state(row.seed, row.options, row.chaos, row.custom)
    return row.version, start, [(r.version, r.player, r.action, r.automatic) for r in log]


def positions(start: State, log: list[Entry]) -> list[tuple[int, State]]:
    """[(version, the engine's state after it)], version 0 (the match as created) first."""
    after = steps(start, ((player, action, automatic) for _, player, action, automatic in log))
    return [(0, start), *((entry[0], state) for entry, state in zip(log, after, strict=True))]

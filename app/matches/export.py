"""A player's finished matches in one stream (`GET /users/{name}/matches/export`):
newest first, a page at a time (keyset on created_at, id), so however many
there are, only one page is ever held.

Only finished matches: their seed is public by then (R20) and nothing in
them is secret to anyone, so each is what `GET /matches/{id}` (or
`/record`) shows everyone. A page read for an export is never put in the
state cache: an old match read once would push out the live ones.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from app.kernel.errors import ServiceError
from app.rules import State

from . import export_reads, store
from .game_record import record_text
from .keeper import MatchKeeper
from .record import Record, record_from_rows

PAGE = 50  # matches read in one statement



class UnknownCursor(ServiceError):
    """An `after` of the right form that names no match: well-formed, unusable."""

    status, code = 422, "unknown_cursor"


@dataclass(frozen=True, slots=True)
class Wanted:
    """Which of the player's finished matches: made in [since, until), of one
    variant, rated or casual (None: any)."""

    since: datetime | None = None
    until: datetime | None = None
    variant: str | None = None
    rated: bool | None = None


async def resume_point(keeper: MatchKeeper, after: str) -> tuple[datetime, str]:
    """The keyset place just past the match `after` (the last one a client kept)."""
    row = await export_reads.created_of(keeper.engine, after)
    if row is None:
        raise UnknownCursor(f"after={after!r} names no match: pass the id of the last match the export gave you")
    return row, after


async def finished_records(keeper: MatchKeeper, account_id: int, wanted: Wanted, most: int,
                           after: tuple[datetime, str] | None,
                           next_page: Callable[[], Awaitable[None]]) -> AsyncIterator[Record]:
    """Up to `most` records, newest first; `next_page` is awaited before every
    page but the first (where a reader's budget is charged, or waited for)."""
    left, first = most, True
    while left > 0:
        if not first:
            await next_page()
        first = False
        rows, seat_rows, states = await export_reads.finished_of(
            keeper.engine, account_id, limit=min(PAGE, left), after=after, since=wanted.since,
            until=wanted.until, variant=wanted.variant, rated=wanted.rated)
        for row in rows:
            yield record_from_rows(row, seat_rows[row.id], State.from_json(states[row.id]))
        left -= len(rows)
        if len(rows) < PAGE or not rows:
            return
        after = (rows[-1].created_at, rows[-1].id)


def public_state(keeper: MatchKeeper, rec: Record) -> dict[str, Any]:
    """The match as `GET /matches/{id}` shows it."""
    return dict(keeper.present(rec))


async def record_of(keeper: MatchKeeper, rec: Record) -> str:
    """The match as `GET /matches/{id}/record` writes it (without an analysis's notes)."""
    return record_text(rec, await store.log(keeper.engine, rec.id, 0) or [])

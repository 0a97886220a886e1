"""`GET /api/v1/users/{name}/matches/export`: every finished match of a player
in one stream, newest first: as newline-delimited JSON (each line the match as
`GET /matches/{id}` shows it), or with `Accept: text/plain` as game records
(each as `/record` writes it) one after another, a blank line between.

Resumable: each line's `id` (each record's `Match` header) is where a client
stands; `?after=<that id>` goes on just past it. Fair to other readers: the
request counts as a heavy read against the address's read budget
(budget.py), and each further page of matches counts again; over the budget
the stream waits for the window to allow it, so an export runs at the pace
the budget sets and never ahead of other readers.

No `from __future__ import annotations`: FastAPI reads the routes' annotations.
"""

import asyncio
import json
from collections.abc import AsyncIterator
from datetime import datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import StreamingResponse

from app.kernel.errors import RateLimited, ServiceError
from app.kernel.limits import RedisWindow
from app.kernel.moments import moment
from app.kernel.networks import network_of
from app.matches import export
from app.rules import VARIANTS

from .budget import HEAVY
from .deps import ProfilesDep, ReadBudgetDep, ReadsDep, SettingsDep
from .errors import responses
from .query_numbers import Digits
from .users import UserName, found_player

router = APIRouter(prefix="/users", tags=["users"])

MS_MAX = 2**47  # past the year 6000: a moment beyond it is no moment this server keeps
STREAM_HEADERS = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
RECORDS = "text/plain"
MATCH_ID = r"^[A-Za-z0-9_-]{1,32}$"


def _moment(ms: int | None) -> datetime | None:
    return None if ms is None else moment(ms)


def wants_records(accept: str | None) -> bool:
    """Whether the client asked for the game records (`Accept: text/plain`) rather than JSON lines."""
    if not accept:
        return False
    kinds = [part.split(";")[0].strip().lower() for part in accept.split(",")]
    return RECORDS in kinds and "application/x-ndjson" not in kinds


async def _charge(budget: Any, key: str) -> None:
    """Count one more page of the export against the address's read budget,
    waiting for the window to make room when it is spent."""
    while True:
        try:
            if isinstance(budget, RedisWindow):
                await budget.hit(key, weight=HEAVY)
            else:
                budget.count(key, weight=HEAVY)
            return
        except RateLimited as over:
            await asyncio.sleep(over.retry_after)


DOC = {200: {"description": "newline-delimited JSON, one finished match a line (as `GET /api/v1/matches/{id}`), "
                            "newest first; or, asked with `Accept: text/plain`, the game records (as "
                            "`/record`), a blank line between two",
             "content": {"application/x-ndjson": {"schema": {"type": "string"},
                                                 "x-itemSchema": {"$ref": "#/components/schemas/MatchState"}},
                         "text/plain": {"schema": {"type": "string"}}}},
       **responses(400, 404, 422, 429, own={422: {
           "empty_span": "until must come after since",
           "unknown_cursor": "after='qBkz' names no match: pass the id of the last match the export gave you"}})}


class EmptySpan(ServiceError):
    """`since` and `until` each well-formed, together a span with nothing in it:
    no schema can relate two parameters, so this is no malformed request."""

    status, code = 422, "empty_span"


@router.get("/{name}/matches/export", response_class=StreamingResponse, responses=DOC,
            summary="Every finished match of a player, in one stream")
async def export_matches(
    request: Request, name: UserName, profiles: ProfilesDep, reads: ReadsDep, budget: ReadBudgetDep,
    settings: SettingsDep,
    since: Annotated[int | None, Query(ge=0, le=MS_MAX, description=(
        "only matches made at or after this moment, in milliseconds since the epoch")), Digits] = None,
    until: Annotated[int | None, Query(ge=0, le=MS_MAX, description=(
        "only matches made before this moment, in milliseconds since the epoch")), Digits] = None,
    variant: Literal[VARIANTS] | None = None,  # type: ignore[valid-type]
    rated: Annotated[bool | None, Query(description="only rated (true) or casual (false) matches")] = None,
    max: Annotated[int | None, Query(ge=1, le=2**31 - 1, description=(  # noqa: A002 - the name lichess uses
        "at most this many matches (the server sends at most EXPORT_MAX_MATCHES in one answer either way)")),
                   Digits] = None,
    after: Annotated[str | None, Query(pattern=MATCH_ID, max_length=32, description=(
        "the id of the last match you kept: the export goes on just past it"))] = None,
) -> StreamingResponse:
    """Only finished matches, nothing secret (their seeds are public once they
    end, R20). A long export is resumed with `after` (the last line's `id`, the
    last record's `Match` header), with the same filters."""
    if since is not None and until is not None and until <= since:
        raise EmptySpan("until must come after since")
    player = await found_player(profiles, name)
    keeper = reads.keeper
    place = await export.resume_point(keeper, after) if after is not None else None
    wanted = export.Wanted(_moment(since), _moment(until), variant, rated)
    most = min(max or settings.export_max_matches, settings.export_max_matches)
    client = request.client
    key = f"addr:{network_of(client.host) if client else '-'}"
    records = wants_records(request.headers.get("accept"))

    async def next_page() -> None:
        await _charge(budget, key)

    async def body() -> AsyncIterator[str]:
        first = True
        async for rec in export.finished_records(keeper, player.id, wanted, most, place, next_page):
            if records:
                yield ("" if first else "\n") + await export.record_of(keeper, rec)
            else:
                yield json.dumps(export.public_state(keeper, rec), ensure_ascii=False, separators=(",", ":")) + "\n"
            first = False

    media = "text/plain; charset=utf-8" if records else "application/x-ndjson"
    return StreamingResponse(body(), media_type=media, headers=STREAM_HEADERS)

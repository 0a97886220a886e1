"""`GET /api/v1/matches/{match_id}/stream`: the route of a match as a stream of
JSON lines; what the stream carries and when it ends is match_stream.py's.

No `from __future__ import annotations`: FastAPI reads the route's annotations
as evaluated objects.
"""

from typing import Annotated, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import StreamingResponse

from .caller import SeatReader
from .deps import StreamsDep, address_of
from .errors import responses
from .head import asked_head
from .query_numbers import Digits

router = APIRouter(prefix="/matches", tags=["matches"])
# A seat's token or the account holding the seat (either scope) reads the
# seat's view, as GET /legal does; no credential at all: a watcher.
DOC = {200: {"description": "newline-delimited JSON: the match's state (with `?since=`, the updates missed "
                            "and a seat's `legal`), then each update, `presence`, a `chatLine` for each chat "
                            "line in the caller's room, and a `ping` when quiet; the last line shows the match "
                            "finished, or is `closing` (the server stopping: resume with `?since=`)",
             "content": {"application/x-ndjson": {"schema": {"type": "string"}}}},
       **responses(400, 401, 403, 404, 429, codes=("insufficient_scope", "forbidden", "rate_limited"))}


@router.get("/{match_id}/stream", response_class=StreamingResponse, responses=DOC,
            summary="The match, live, as a stream of JSON lines")
async def stream_match(
    request: Request, match_id: str, caller: SeatReader, streams: StreamsDep,
    since: Annotated[int | None, Query(ge=0, le=2**31 - 1, description=(
        "the last version you hold: the stream starts with the updates after it "
        "(or the state, when they are too many), never one twice")), Digits] = None,
    legal: Annotated[bool, Query(description=(
        "with a seat's credential: each state after which you have something to play "
        "carries `legal`, GET /legal's answer"))] = False,
    updates: Annotated[Literal["full", "compact"], Query(description=(
        "`compact`: an update may come as a `delta` message, what changed since the version "
        "before, to apply to the state you hold (docs/api.md, \"Compact updates\")"))] = "full",
) -> StreamingResponse:
    """What the websocket sends, one JSON object a line: first the state (a
    `snapshot` message), then each update as it lands on any process, with no
    gap and none twice; a `ping` line (nothing to answer) when nothing else
    went out for 7 s; a `chatLine` for each chat line said in the caller's
    room (the players' for a seat, the spectators' otherwise). With `?since=`,
    it resumes after that version, and a seat with something to play is then
    sent a `legal` line (its first, when it missed nothing). It ends
    after the line that shows the match finished, or after a `closing` line
    when the server process stops (resume with `?since=`)."""
    lines = await streams.open(match_id, caller, since, legal, address_of(request) or "-",
                               head=asked_head(request), compact=updates == "compact")
    return StreamingResponse(lines, media_type="application/x-ndjson",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

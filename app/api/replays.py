"""`GET /api/v1/matches/{id}/states`: the state after each version, for replays;
`GET /api/v1/matches/{id}/advantage`: a finished match's positions judged, for
the graph under the replay.

The answer is gzip-compressed when the client accepts it (a hundred states are
about 330 KB of JSON and under 10 KB compressed, so alike are they); this route
is the only one that sends so much, so it does so itself rather than through a
middleware.
"""

from __future__ import annotations

import gzip
import json
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from app.bots.advantage import advantage
from app.matches.history import MAX_STATES

from .conditional import NOT_MODIFIED, validated
from .deps import ReadsDep, ReplaysDep
from .errors import responses
from .query_numbers import Digits
from .schemas import LogEntry, MatchState


class StateEntry(LogEntry):
    words: str = Field(description="the entry in one sentence, in the engine's words",
                       examples=["White removes a beast from the Sorcerer and moves the beast from b2 to c3."])
    match: MatchState = Field(description="the public state right after this version")


class StateHistory(BaseModel):
    model_config = ConfigDict(extra="forbid")
    version: int = Field(description="the match's version now")
    states: list[StateEntry]


class Point(BaseModel):
    version: int = Field(description="the version after which the position is judged (0: as created)")
    white: float = Field(ge=-1, le=1, description="White's advantage: +1 a White win, -1 a Black win, 0 even")


class Advantage(BaseModel):
    version: int = Field(description="the match's version (it is finished, so it will not change)")
    judge: str = Field(description="what judged the positions: the `strong` bot level's evaluation")
    points: list[Point]


def _encode(body: Any) -> bytes:
    return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()


def _json(body: Any, request: Request) -> Response:
    return _send(_encode(body), request)


def _send(raw: bytes, request: Request, compressed: bytes | None = None) -> Response:
    headers = {"Vary": "Accept-Encoding"}
    if len(raw) > 1024 and "gzip" in request.headers.get("accept-encoding", ""):
        raw = compressed if compressed is not None else gzip.compress(raw, compresslevel=5)
        headers["Content-Encoding"] = "gzip"
    return Response(raw, media_type="application/json", headers=headers)


router = APIRouter(prefix="/matches", tags=["matches"])


@router.get(
    "/{match_id}/states", response_model=None, responses={200: {"model": StateHistory}, 304: NOT_MODIFIED,
                                                            **responses(400, 404)},
    summary="The state after each version (for replays)",
)
async def states(
    match_id: str, request: Request, reads: ReadsDep, replays: ReplaysDep,
    first: Annotated[int, Query(alias="from", ge=1, le=2**31 - 1, description="the first version"), Digits] = 1,
    last: Annotated[int | None, Query(alias="to", ge=1, le=2**31 - 1,
                                      description="the last version (at most 100 after from)"), Digits] = None,
) -> Response:
    """Each log entry of versions `from`..`to` with the public state right after it,
    as its websocket update carried it: `{"version": now, "states": [{"version",
    "player", "action", "automatic", "at", "words", "match"}]}`. At most 100 per call;
    versions past the match's current one are simply absent."""
    key = (match_id, first, last)
    compressed = replays.states.finished(key)
    if compressed is not None:  # a finished match: nothing to read
        raw = gzip.decompress(compressed)
        return validated(request, raw, True, _send(raw, request, compressed))
    end = first + MAX_STATES - 1 if last is None else min(last, first + MAX_STATES - 1)
    span = (match_id, first, end)
    states = replays.states.states(span) if first <= end else None
    if states is not None:  # every state of the range is written: only the version now is read
        version, finished = await reads.version_of(match_id)
        raw = b'{"version":' + str(version).encode() + b',"states":' + states + b"}"
    else:
        body, finished = await reads.states(match_id, first, last)
        raw = _encode(body)
        if first <= end <= body["version"]:
            replays.states.keep_states(span, _encode(body["states"]))
    if not finished:
        return _send(raw, request)
    compressed = gzip.compress(raw, compresslevel=5)
    replays.states.keep_finished(key, compressed)
    return validated(request, raw, True, _send(raw, request, compressed))


@router.get(
    "/{match_id}/advantage", response_model=Advantage, responses={304: NOT_MODIFIED, **responses(404, 409, codes=("match_running",))},
    summary="A finished match's positions judged (the advantage graph)",
)
async def judge(match_id: str, request: Request, reads: ReadsDep, replays: ReplaysDep) -> Response:
    """Every position of a finished match, from version 0 (as created) to its last,
    judged from White's view in [-1, 1] by the `strong` bot's evaluation. Only for a
    finished match: a running one answers 409 `match_running` (it would help a player)."""
    body = replays.judged.get(match_id)
    if body is None:
        async with replays.judging:
            body = replays.judged.get(match_id)  # judged meanwhile by the request ahead in the queue
            if body is None:
                version, start, log = await reads.finished_log(match_id)
                # ~300 replayed and judged positions take tens of milliseconds: off the loop.
                points = await run_in_threadpool(advantage, start, log)
                body = {"version": version, "judge": "strong", "points": points}
                replays.keep_judged(match_id, body)
    else:
        replays.judged.move_to_end(match_id)
    return validated(request, _encode(body), True, _json(body, request))  # only a finished match is judged

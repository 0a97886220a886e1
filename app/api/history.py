"""`GET /api/v1/matches/{id}/states`: the state after each version, for replays.

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
from pydantic import BaseModel, Field

from app.matches.reads import Reads

from .errors import responses
from .schemas import LogEntry, MatchState


class StateEntry(LogEntry):
    match: MatchState = Field(description="the public state right after this version")


class States(BaseModel):
    version: int = Field(description="the match's version now")
    states: list[StateEntry]


def _json(body: Any, request: Request) -> Response:
    raw = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()
    headers = {"Vary": "Accept-Encoding"}
    if len(raw) > 1024 and "gzip" in request.headers.get("accept-encoding", ""):
        raw = gzip.compress(raw, compresslevel=5)
        headers["Content-Encoding"] = "gzip"
    return Response(raw, media_type="application/json", headers=headers)


def router(reads: Reads) -> APIRouter:
    """The route, bound to this app's reads."""
    routes = APIRouter(prefix="/matches", tags=["matches"])

    @routes.get(
        "/{match_id}/states", response_model=None, responses={200: {"model": States}, **responses(400, 404)},
        summary="The state after each version (for replays)",
    )
    async def states(
        match_id: str, request: Request,
        first: Annotated[int, Query(alias="from", ge=1, le=2**31 - 1, description="the first version")] = 1,
        last: Annotated[int | None, Query(alias="to", ge=1, le=2**31 - 1,
                                          description="the last version (at most 100 after from)")] = None,
    ) -> Response:
        """Each log entry of versions `from`..`to` with the public state right after it,
        as its websocket update carried it: `{"version": now, "states": [{"version",
        "player", "action", "automatic", "at", "match"}]}`. At most 100 per call;
        versions past the match's current one are simply absent."""
        return _json(await reads.states(match_id, first, last), request)

    return routes

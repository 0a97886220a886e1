"""An arena, live: `/api/v1/tournaments/{id}/ws` (a websocket) and
`GET /api/v1/tournaments/{id}/stream` (newline-delimited JSON). Both carry
what app/tournaments/live.py offers a watcher: a `hello`, then the standings'
page (`arena`), the caller's own line (`me`, for an account) and `yourGame`
when the caller is paired, each again as it changes; and a `ping` when quiet.
The socket may ask for another page (`{"type": "page", "page": n}`); the
stream takes `?page=`. See docs/api.md, "An arena, live".

An account is optional (a watcher without one sees the standings): an account
token in `Authorization: Bearer`, or the session cookie of a page of this site.

No `from __future__ import annotations`: FastAPI reads the routes' annotations
as evaluated objects."""

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request, WebSocket
from fastapi.responses import StreamingResponse
from starlette.websockets import WebSocketDisconnect

from app.kernel.errors import ServiceError
from app.tournaments.live import ArenaLive, Watcher

from .caller import Signed, signed
from .deps import address_of
from .errors import responses
from .head import asked_head, no_lines
from .match_stream import PING, Stopping, TooManyStreams, closing_line
from .tournaments import Id
from .ws import origin_allowed

router = APIRouter(prefix="/tournaments", tags=["tournaments"])
MOST_PAGE = 10_000
Page = Annotated[int, Query(ge=1, le=MOST_PAGE, description="the page of the standings (10 a page; 1: the top)")]
DOC = {200: {"description": "newline-delimited JSON: `hello`, then `arena` (the standings' page, the pairings, "
                            "the podium once over), `me` and `yourGame` for an account that joined, each again "
                            "as it changes; a `ping` when quiet; it ends after the `arena` line that shows the "
                            "arena finished, or a `closing` line (the server stopping: open it again)",
             "content": {"application/x-ndjson": {"schema": {"type": "string"}}}},
       **responses(400, 401, 404, 429, codes=("rate_limited",),
                   own={404: {"no_such_tournament": "no tournament 'Tq3b0aZc1mBx': GET /api/v1/tournaments "
                                                    "lists them"}})}


def _live(app: Any) -> ArenaLive:
    return app.state.parts.arena_live  # type: ignore[no-any-return]


def finished(text: str) -> bool:
    """The line is an `arena` message of an arena that is over: a stream's last."""
    if not text.startswith('{"type":"arena"'):
        return False
    return bool(json.loads(text)["tournament"]["status"] == "finished")


@router.get("/{tournament_id}/stream", response_class=StreamingResponse, responses=DOC,
            summary="An arena, live, as a stream of JSON lines")
async def stream_tournament(request: Request, tournament_id: Id,
                            who: Annotated[Signed | None, Depends(signed)], page: Page = 1) -> StreamingResponse:
    """What the arena's websocket sends, one JSON object a line: `hello`, the
    standings' page `page` (`arena`), and for an account that joined its own
    line (`me`) and `yourGame` each time it is paired; each again as it changes
    on any process. A `ping` line when nothing went out for 7 s. It ends after
    the `arena` line of the finished arena (its podium)."""
    parts = request.app.state.parts
    hub, live = parts.hub, _live(request.app)
    if hub.closed:
        raise Stopping("the server is stopping: open the stream again (another process answers)")
    address = address_of(request) or "-"
    if not await hub.reserve(address):
        raise TooManyStreams(f"at most {hub.sockets_per_address} sockets and streams from one address; close one first")
    try:
        watcher = await live.watch(tournament_id, who.account_id if who else None, page)
    except BaseException:
        hub.release(address)
        raise
    if asked_head(request):
        live.leave(tournament_id, watcher)
        hub.release(address)
        return StreamingResponse(no_lines(), media_type="application/x-ndjson")
    keepalive = parts.settings.person_keepalive_seconds
    return StreamingResponse(_lines(live, hub, tournament_id, watcher, address, keepalive),
                             media_type="application/x-ndjson",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


async def _lines(live: ArenaLive, hub: Any, tournament_id: str, watcher: Watcher, address: str,
                 keepalive: float) -> AsyncIterator[str]:
    try:
        while True:
            if hub.closed:
                yield closing_line()
                return
            texts = await watcher.next(keepalive)
            if not texts:
                yield PING + "\n"
                continue
            for text in texts:
                yield text + "\n"
                if finished(text):
                    return
    finally:
        live.leave(tournament_id, watcher)
        hub.release(address)


@router.websocket("/{tournament_id}/ws")
async def tournament_socket(websocket: WebSocket, tournament_id: str) -> None:
    parts = websocket.app.state.parts
    hub, live, settings = parts.hub, _live(websocket.app), parts.settings
    headers = dict(websocket.scope["headers"])
    if not origin_allowed(headers, settings.allowed_origins):
        await websocket.close(1008)  # answered 403
        return
    address = (websocket.scope.get("client") or ("-",))[0]
    await websocket.accept()
    if hub.closed:
        await websocket.close(1001, "server shutting down")
        return
    if not await hub.reserve(address):
        await websocket.close(1008, f"too_many_sockets: at most {hub.sockets_per_address} from one address; "
                                    "close one first")
        return
    watcher = None
    try:
        try:
            raw = websocket.query_params.get("page", "1")
            if not raw.isdigit() or not 1 <= int(raw) <= MOST_PAGE:
                raise ValueError(f"bad_request: page is a whole number from 1 to {MOST_PAGE}")
            key = await parts.socket.account(headers)  # ValueError: a token that proves nothing
            watcher = await live.watch(tournament_id, key.account_id if key else None, int(raw))
        except ValueError as bad:
            await websocket.close(1008, str(bad)[:120])
            return
        except ServiceError as exc:
            await websocket.close(1008, f"{exc.code}: {exc.detail}"[:120])
            return
        sender = asyncio.create_task(_send(websocket, watcher, settings.ws_ping_seconds))
        try:
            await _receive(websocket, live, tournament_id, watcher, settings.ws_max_frame_bytes)
        finally:
            sender.cancel()
            with contextlib.suppress(BaseException):
                await sender
    finally:
        if watcher is not None:
            live.leave(tournament_id, watcher)
        hub.release(address)


async def _send(websocket: WebSocket, watcher: Watcher, ping_seconds: float) -> None:
    with contextlib.suppress(Exception):
        while True:
            texts = await watcher.next(ping_seconds)
            for text in texts or [PING]:
                await websocket.send_text(text)


async def _receive(websocket: WebSocket, live: ArenaLive, tournament_id: str, watcher: Watcher,
                   most_bytes: int) -> None:
    while True:
        try:
            text = await websocket.receive_text()
        except (WebSocketDisconnect, RuntimeError, KeyError):
            return
        if len(text) > most_bytes:
            await websocket.close(1009, f"frame over {most_bytes} bytes")
            return
        try:
            message = json.loads(text)
        except (ValueError, RecursionError):
            message = None
        kind = message.get("type") if isinstance(message, dict) else None
        if kind == "page" and isinstance(message, dict):
            page = message.get("page")
            if isinstance(page, int) and not isinstance(page, bool) and 1 <= page <= MOST_PAGE:
                live.turn(tournament_id, watcher, page)
                continue
            watcher.tell("error", json.dumps({"type": "error", "error": "bad_request",
                                              "detail": f"page is a whole number from 1 to {MOST_PAGE}"}))
        elif kind == "ping":
            watcher.tell("pong", '{"type":"pong"}')
        elif kind != "pong":
            watcher.tell("error", json.dumps({"type": "error", "error": "bad_request",
                                              "detail": 'a message is {"type": "page", "page": n} or '
                                                        '{"type": "ping"}'}))

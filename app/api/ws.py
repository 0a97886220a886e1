"""`/api/v1/matches/{match_id}/ws`: a match, live (the contract's Websocket section).

A raw ASGI endpoint: it hands the hub the server's own `send`, so one encoded
update is shared by every socket of the match. See docs/websocket.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any
from urllib.parse import parse_qs, urlsplit

from starlette.routing import WebSocketRoute

from app.matches.errors import ServiceError
from app.realtime.hub import Hub, Subscriber

PATH = "/api/v1/matches/{match_id}/ws"
BUDGET_WINDOW = 10.0  # seconds; `ws_messages_per_10s` messages allowed in each


def origin_allowed(headers: dict[bytes, bytes], allowed: list[str]) -> bool:
    """No Origin (not a browser), "*", a listed origin, or the page's own host."""
    origin = headers.get(b"origin")
    if origin is None or "*" in allowed:
        return True
    text = origin.decode("latin-1").rstrip("/")
    if text in (o.rstrip("/") for o in allowed):
        return True
    host = headers.get(b"host", b"").decode("latin-1")
    return bool(host) and urlsplit(text).netloc == host


class MatchSocket:
    """One socket's life: check, accept, join the hub, read until it closes."""

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        state = scope["app"].state
        hub: Hub = state.hub
        gate = state.realtime_gate
        settings = state.settings
        match_id = scope["path_params"]["match_id"]
        if (await receive())["type"] != "websocket.connect":
            return
        headers = dict(scope["headers"])
        if not origin_allowed(headers, settings.allowed_origins) or hub.closed:
            await send({"type": "websocket.close", "code": 1008})  # answered 403
            return
        query = parse_qs(scope["query_string"].decode("latin-1"))
        token = query.get("token", [None])[0]
        since: int | None = None
        refusal = None
        try:
            since = int(query["since"][0]) if "since" in query else None
            seat, version = await gate.authorize(match_id, token)
        except ValueError:
            refusal = "bad_request: since must be a version number"
        except ServiceError as exc:
            refusal = f"{exc.code}: {exc.detail}"
        await send({"type": "websocket.accept"})
        if refusal is not None:  # accepted first so that the reason reaches the client
            await send({"type": "websocket.close", "code": 1008, "reason": refusal[:120]})
            return
        if since is not None and since > version:
            since = None  # a version from the future: start again from a snapshot
        sub = hub.join(match_id, send, seat, since)
        sub.task = asyncio.current_task()
        first_here = seat is not None and sub.room.local[seat] == 1
        try:
            if first_here:
                await hub.source.seat_presence(match_id, seat, True)
            address = (scope.get("client") or ("-",))[0]
            await self._read(hub, gate, settings, sub, match_id, token, address, receive)
        except asyncio.CancelledError:
            if sub.task is not None:  # not the hub's doing: let it through
                raise
        finally:
            hub.leave(sub)
            if seat is not None and sub.room.local[seat] == 0:
                with contextlib.suppress(Exception):
                    await hub.source.seat_presence(match_id, seat, False)

    async def _read(self, hub: Hub, gate: Any, settings: Any, sub: Subscriber, match_id: str,
                    token: str | None, address: str, receive: Any) -> None:
        budget, max_bytes = settings.ws_messages_per_10s, settings.ws_max_frame_bytes
        window, used = time.monotonic(), 0
        while True:
            message = await receive()
            if message["type"] == "websocket.disconnect":
                return
            now = time.monotonic()
            sub.heard = now
            if now - window >= BUDGET_WINDOW:
                window, used = now, 0
            used += 1
            if used > budget:
                return await self._close(sub, 1008, "message budget exceeded")
            text = message.get("text")
            data = text.encode() if text is not None else (message.get("bytes") or b"")
            if len(data) > max_bytes:
                return await self._close(sub, 1009, f"frame over {max_bytes} bytes")
            await self._handle(hub, gate, sub, match_id, token, address, text)

    async def _handle(self, hub: Hub, gate: Any, sub: Subscriber, match_id: str,
                      token: str | None, address: str, text: str | None) -> None:
        try:
            message = json.loads(text) if text is not None else None
        except ValueError:
            message = None
        if not isinstance(message, dict):
            return await self._error(hub, gate, sub, None, "bad_request",
                                     "a message is a JSON object, sent as text")
        kind, ref = message.get("type"), message.get("id")
        if kind == "ping":
            hub.reply(sub, {"type": "pong"})
        elif kind == "pong":
            pass
        elif kind == "action":
            action, version = message.get("action"), message.get("version")
            if (not isinstance(action, dict) or not isinstance(version, int)
                    or isinstance(version, bool) or not (ref is None or isinstance(ref, str))):
                return await self._error(hub, gate, sub, ref, "bad_request",
                                         'an action message is {"type": "action", "action": {...}, '
                                         '"version": n, "id": "..."}')
            if sub.seat is None:
                return await self._error(hub, gate, sub, ref, "unauthorized",
                                         "this socket watches; connect with ?token= to play")
            try:
                landed = await gate.act(match_id, token, action, version, ref, address)
            except ServiceError as exc:
                return await self._error(hub, gate, sub, ref, exc.code, exc.detail,
                                         exc.extra.get("version"))
            hub.reply(sub, {"type": "ack", "id": ref, "version": landed})
        else:
            await self._error(hub, gate, sub, ref if isinstance(ref, str) else None, "bad_request",
                              f"unknown message type {str(kind)[:40]!r}")

    async def _error(self, hub: Hub, gate: Any, sub: Subscriber, ref: Any, code: str,
                     detail: str, version: int | None = None) -> None:
        if version is None:
            with contextlib.suppress(Exception):
                version = await gate.version(sub.room.match_id)
        hub.reply(sub, {"type": "error", "id": ref, "error": code, "detail": detail,
                        "version": version})

    async def _close(self, sub: Subscriber, code: int, reason: str) -> None:
        sub.close(code, reason)
        if sub.writer is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(sub.writer), 5)


route = WebSocketRoute(PATH, MatchSocket(), name="match_socket")

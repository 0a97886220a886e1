"""The hot routes, `POST /api/v1/matches/{id}/actions` and the `GET …/legal` a page
asks before each action, answered without FastAPI's routing, dependency solving
and response validation when the request is an ordinary one.

Every move of every match comes through these routes, and FastAPI's per-request
machinery costs more CPU than the match service does. This is a plain ASGI
middleware placed innermost, so every other middleware (headers, request ids,
metrics, limits) wraps it like any route. It only reads HTTP: an ordinary
request — a JSON body that the route's own schema (`Play`) accepts, and a
Bearer token — becomes one call of the gateway, the same call the declared route
makes, and the gateway's answer or refusal is written as the route would write it.
Anything else (a body the schema refuses, another content type, no token, an
account's token `mgo_...`) goes on to the router with its body intact, so every
other refusal is the route's own, and an account's call is the declared route's
(app/api/caller.py: its scopes, its closing, the session's CSRF check). tests/api/test_fast_path.py plays each case both ways and compares.
bench/api.py measures the server with and without it (`FAST_PATH=false`).

`GET …/legal` likewise: with a seat's Bearer token and no query string it is one
call of `Gateway.legal`, answered as the route's JSONResponse would be; anything
else (an account's token, a cookie, no token, a query) goes on to the route.
In bench/capacity.py's profile FastAPI's part of that route (routing, the
dependencies, two of them run in the thread pool) was a tenth of the server's CPU.
"""

from __future__ import annotations

import json
import re
from typing import Any

from pydantic import ValidationError

from app.accounts.tokens import PREFIX
from app.db.outage import OutageLog
from app.kernel.errors import ServiceError
from app.matches import Caller, Gateway

from .budget import COUNTED
from .errors import service_error_response, unexpected_error_response
from .schemas import Play

PATH = re.compile(r"/api/v1/matches/([^/]+)/actions")
LEGAL = re.compile(r"/api/v1/matches/([^/]+)/legal")
_JSON = (b"content-type", b"application/json")
_REPLAYED = (b"idempotency-replayed", b"true")


class FastPlay:
    def __init__(self, app: Any, gateway: Gateway, outage: OutageLog) -> None:
        self.app, self.gateway, self.outage = app, gateway, outage

    def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        # A plain function handing back the coroutine to await: no frame of its own.
        if scope["type"] == "http" and not scope.get("root_path"):
            method = scope["method"]
            if method == "POST":
                found = PATH.fullmatch(scope["path"])
                if found is not None:
                    return self._play(found.group(1), scope, receive, send)
            elif method == "GET" and not scope.get("query_string"):
                found = LEGAL.fullmatch(scope["path"])
                if found is not None:
                    token = _bearer(_headers(scope)[1])
                    if token is not None and not token.startswith(PREFIX):
                        return self._legal(found.group(1), token, scope, receive, send)
        return self.app(scope, receive, send)

    async def _legal(self, match_id: str, token: str, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """A seat asks what it may play: the route's answer (app/api/matches.py), without the route."""
        client = scope.get("client")
        caller = Caller(token, client[0] if client else None, counted=COUNTED in scope)
        try:
            text = await self.gateway.legal_text(match_id, caller)
        except ServiceError as exc:
            return await service_error_response(exc)(scope, receive, send)
        except Exception as exc:
            return await unexpected_error_response(exc, f"GET {scope['path']}", self.outage)(scope, receive, send)
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-length", str(len(text)).encode()), _JSON]})
        await send({"type": "http.response.body", "body": text})

    async def _play(self, match_id: str, scope: dict[str, Any], receive: Any, send: Any) -> None:
        chunks: list[bytes] = []
        while True:
            message = await receive()
            if message["type"] != "http.request":  # gone: let the router see it as it would
                return await self._hand_on(scope, receive, send, b"".join(chunks), message)
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        content_type, authorization = _headers(scope)
        token = _bearer(authorization)
        play = None
        if content_type == b"application/json" and token is not None and not token.startswith(PREFIX):
            try:
                play = Play.model_validate(json.loads(body))
            except (ValueError, ValidationError, RecursionError):  # the route says why
                play = None
        if play is None:
            return await self._hand_on(scope, receive, send, body, None)
        client = scope.get("client")
        caller = Caller(token, client[0] if client else None, counted=COUNTED in scope)
        try:
            acted = await self.gateway.play(match_id, caller, play.action, play.version, play.id)
        except ServiceError as exc:
            return await service_error_response(exc)(scope, receive, send)
        except Exception as exc:
            return await unexpected_error_response(exc, f"POST {scope['path']}", self.outage)(scope, receive, send)
        if acted.match_json is not None:
            text = b'{"match":' + acted.match_json.encode() + b"}"
        else:
            text = json.dumps({"match": acted.match}, ensure_ascii=False, allow_nan=False,
                              separators=(",", ":")).encode()
        headers = [(b"content-length", str(len(text)).encode()), _JSON]
        if acted.duplicate:  # as the route says it (matches.py)
            headers.append(_REPLAYED)
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": text})

    async def _hand_on(self, scope: dict[str, Any], receive: Any, send: Any, body: bytes,
                       pending: dict[str, Any] | None) -> None:
        """The router, fed the body already read (and then what `receive` says)."""
        queue: list[dict[str, Any]] = [{"type": "http.request", "body": body, "more_body": False}]
        if pending is not None:
            queue = [pending] if not body else [{"type": "http.request", "body": body, "more_body": True},
                                                pending]

        async def replay() -> dict[str, Any]:
            if queue:
                return queue.pop(0)
            message: dict[str, Any] = await receive()
            return message

        await self.app(scope, replay, send)


def _headers(scope: dict[str, Any]) -> tuple[bytes | None, bytes | None]:
    content_type = authorization = None
    for name, value in scope["headers"]:
        if name == b"content-type" and content_type is None:
            content_type = value
        elif name == b"authorization" and authorization is None:
            authorization = value
    return content_type, authorization


def _bearer(authorization: bytes | None) -> str | None:
    """The token of `Authorization: Bearer <token>`, as fastapi's HTTPBearer reads it."""
    if not authorization:
        return None
    scheme, _, param = authorization.decode("latin-1").partition(" ")
    param = param.strip()
    if not (scheme and param) or scheme.lower() != "bearer":
        return None
    return param

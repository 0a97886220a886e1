"""The hot route, `POST /api/v1/matches/{id}/actions`, answered without FastAPI's
per-request machinery when the request is an ordinary one.

Every move of every match comes through this route, and FastAPI's middleware,
router, dependency solving and response validation cost more CPU per request
than the whole match service does. An ordinary request — a JSON body that the
route's own schema (`Play`) accepts, and a Bearer token — is answered here by
the same steps in the same order as the route (count the write, prove the seat,
note it present, act) and the same error bodies (`service_error_response`).
Anything else (a body the schema refuses, another content type, no token) goes
to the full stack with its body intact, so every refusal is the route's own.
The route stays declared in app/api/matches.py: it documents the call in
OpenAPI and answers whatever this path hands on.

This path sits in front of the whole middleware stack, as the websocket's does
(app/api/ws.py): a middleware added to the app, or a new parameter or dependency
of the route, must be mirrored here. tests/api/test_fast_path.py plays each case
both ways and compares the answers.
"""

from __future__ import annotations

import json
import re
from typing import Any

from pydantic import ValidationError

from app.matches.errors import ServiceError

from .deps import count_write
from .errors import service_error_response, unexpected_error_response
from .schemas import Play

PATH = re.compile(r"/api/v1/matches/([^/]+)/actions")
_JSON = (b"content-type", b"application/json")


def install(app: Any) -> None:
    build = app.build_middleware_stack

    def build_with_fast_path() -> Any:
        stack = build()

        def dispatch(scope: dict[str, Any], receive: Any, send: Any) -> Any:
            if scope["type"] == "http" and scope["method"] == "POST" and not scope.get("root_path"):
                found = PATH.fullmatch(scope["path"])
                if found is not None:
                    return _play(app, stack, found.group(1), scope, receive, send)
            return stack(scope, receive, send)

        return dispatch

    app.build_middleware_stack = build_with_fast_path


def _headers(scope: dict[str, Any]) -> tuple[bytes | None, bytes | None]:
    content_type = authorization = None
    for name, value in scope["headers"]:
        if name == b"content-type" and content_type is None:
            content_type = value
        elif name == b"authorization" and authorization is None:
            authorization = value
    return content_type, authorization


async def _play(app: Any, stack: Any, match_id: str, scope: dict[str, Any], receive: Any, send: Any) -> None:
    chunks: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] != "http.request":  # gone: let the full stack see it as it would
            return await _hand_on(stack, scope, receive, send, b"".join(chunks), message)
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            break
    body = b"".join(chunks)
    content_type, authorization = _headers(scope)
    token = _bearer(authorization)
    play = None
    if content_type == b"application/json" and token is not None:
        try:
            play = Play.model_validate(json.loads(body))
        except (ValueError, ValidationError, RecursionError):  # the full stack says why
            play = None
    if play is None:
        return await _hand_on(stack, scope, receive, send, body, None)

    service = app.state.matches
    try:
        client = scope.get("client")
        count_write(app.state.write_limiter, client[0] if client else None, token)
        colour = await service.authenticate(match_id, token)
        await service.touch(match_id, colour)
        acted = await service.act(match_id, colour, play.action, play.version, play.id)
    except ServiceError as exc:
        return await service_error_response(exc)(scope, receive, send)
    except Exception as exc:
        return await unexpected_error_response(exc, f"POST {scope['path']}")(scope, receive, send)
    if acted.match_json is not None:
        text = b'{"match":' + acted.match_json.encode() + b"}"
    else:
        text = json.dumps({"match": acted.match}, ensure_ascii=False, allow_nan=False,
                          separators=(",", ":")).encode()
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-length", str(len(text)).encode()), _JSON]})
    await send({"type": "http.response.body", "body": text})


def _bearer(authorization: bytes | None) -> str | None:
    """The token of `Authorization: Bearer <token>`, as fastapi's HTTPBearer reads it."""
    if not authorization:
        return None
    scheme, _, param = authorization.decode("latin-1").partition(" ")
    param = param.strip()
    if not (scheme and param) or scheme.lower() != "bearer":
        return None
    return param


async def _hand_on(stack: Any, scope: dict[str, Any], receive: Any, send: Any, body: bytes,
                   pending: dict[str, Any] | None) -> None:
    """The full stack, fed the body already read (and then what `receive` says)."""
    queue: list[dict[str, Any]] = [{"type": "http.request", "body": body, "more_body": False}]
    if pending is not None:
        queue = [pending] if not body else [{"type": "http.request", "body": body, "more_body": True},
                                            pending]

    async def replay() -> dict[str, Any]:
        if queue:
            return queue.pop(0)
        message: dict[str, Any] = await receive()
        return message

    await stack(scope, replay, send)

"""The outermost HTTP layer (only the socket bypass, app/api/ws.py, stands in
front of it): operations' own answers, request ids, and HTTP metrics.

- `/healthz`, `/readyz` and `/metrics` are answered here, ahead of every
  middleware, limit and route below: a probe is never rate limited, never
  counted against a client, and never waits behind the API's machinery.
- Every other HTTP request gets an id: the client's `X-Request-ID` when it is a
  sane one (1-128 of letters, digits and `._-:`), a fresh one otherwise. It is
  sent back as `X-Request-ID` and set in app/ops/logs.py's context variable for
  every log line written while the request is served.
- Every answer is counted by method, route template (`/api/v1/matches/{match_id}`,
  never the path itself, whose ids would make a series per match) and status.
  A path no route knows counts as `unmatched`.

Websockets pass through untouched: a socket's actions are counted in the gateway.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine
from starlette.routing import Mount, compile_path

from app.realtime import Hub

from .health import readiness
from .logs import REQUEST_ID
from .metrics import CONTENT_TYPE, Metrics

_SANE_ID = re.compile(r"[A-Za-z0-9._:\-]{1,128}")
_JSON = b"application/json"


@dataclass(slots=True)
class Ops:
    """What the front needs: the parts it reads (the routes it names come from the app)."""

    engine: AsyncEngine
    hub: Hub
    head: str | None  # the migration this code expects
    metrics: Metrics | None  # None: metrics off (no /metrics, nothing counted)
    ready_timeout_seconds: float = 2.0  # READY_TIMEOUT_SECONDS


class OpsOutermost:
    def __init__(self, app: Any, ops: Ops, routes: Callable[[], Iterable[Any]],
                 paths: Callable[[], Iterable[str]]) -> None:
        """`routes`: the app's routes; `paths`: the OpenAPI schema's path
        templates; both read once, when first needed."""
        self.app, self.ops, self.routes, self.paths = app, ops, routes, paths
        self.own: dict[str, Callable[[dict[str, Any], Any, Any], Any]] = {
            "/healthz": self._healthz, "/readyz": self._readyz}
        if ops.metrics is not None:
            self.own["/metrics"] = self._metrics
        self._patterns: list[tuple[re.Pattern[str], str]] | None = None

    def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        # A plain function handing back the coroutine to await: no frame of its own.
        if scope["type"] != "http":
            return self.app(scope, receive, send)
        own = self.own.get(scope["path"])
        if own is not None:
            return own(scope, receive, send)
        return self._serve(scope, receive, send)

    async def _serve(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        request_id = None
        for name, value in scope["headers"]:
            if name == b"x-request-id":
                text = value.decode("latin-1")
                request_id = text if _SANE_ID.fullmatch(text) else None
                break
        if request_id is None:
            request_id = os.urandom(16).hex()  # as unique as a uuid4, at a fifth of its cost
        reset = REQUEST_ID.set(request_id)
        header = (b"x-request-id", request_id.encode())
        status = 0

        async def answer(message: dict[str, Any]) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message = {**message, "headers": [*message.get("headers", ()), header]}
            await send(message)

        try:
            await self.app(scope, receive, answer)
        finally:
            REQUEST_ID.reset(reset)
            metrics = self.ops.metrics
            if metrics is not None and status:
                metrics.answered(scope["method"], self._template(scope), status)

    # ---- naming the route -------------------------------------------------------

    def _template(self, scope: dict[str, Any]) -> str:
        if self._patterns is None:
            self._patterns = _patterns(self.routes(), self.paths())
        patterns, path = self._patterns, scope["path"]
        for i, (regex, template) in enumerate(patterns):
            if regex.match(path):
                if i:  # one step to the front: the busiest routes end up tried first
                    patterns[i - 1], patterns[i] = patterns[i], patterns[i - 1]
                return template
        return "unmatched"

    # ---- operations' own answers -------------------------------------------------

    async def _healthz(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        await _respond(scope, send, 200, b'{"status":"ok"}', _JSON)

    async def _readyz(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        found = await readiness(self.ops.engine, self.ops.head, self.ops.hub, self.ops.ready_timeout_seconds)
        await _respond(scope, send, 200 if found.ready else 503, json.dumps(found.body()).encode(), _JSON)

    async def _metrics(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        metrics = self.ops.metrics
        assert metrics is not None
        await metrics.count_matches(self.ops.engine)
        await _respond(scope, send, 200, metrics.render(), CONTENT_TYPE.encode())


def _patterns(routes: Iterable[Any], paths: Iterable[str]) -> list[tuple[re.Pattern[str], str]]:
    """Each route template once, with its regex. The schema's paths are the API's
    (its routers' prefixes included); the app's own routes add the rest (/docs,
    its assets under a mount, ...), matched by their own regexes."""
    found = {template: compile_path(template)[0] for template in paths}
    for route in routes:
        template, regex = getattr(route, "path", None), getattr(route, "path_regex", None)
        if isinstance(template, str) and isinstance(regex, re.Pattern) and template not in found:
            found[template + "/{path}" if isinstance(route, Mount) else template] = regex
    return [(regex, template) for template, regex in found.items()]


async def _respond(scope: dict[str, Any], send: Any, status: int, body: bytes, content_type: bytes) -> None:
    method = scope["method"]
    headers = [(b"content-type", content_type), (b"cache-control", b"no-store")]
    if method not in ("GET", "HEAD"):
        status, body = 405, b'{"error":"method_not_allowed","detail":"use GET"}'
        headers = [(b"content-type", _JSON), (b"allow", b"GET, HEAD")]
    headers.append((b"content-length", str(len(body)).encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": b"" if method == "HEAD" else body})

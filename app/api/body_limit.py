"""A request body over `limit` bytes is refused with 413 `too_large` before it
is read whole; one that does not arrive whole within
`timeout` seconds is refused with 408 `request_timeout`.

The largest legal request is a few kB, and a body is buffered and parsed on the
event loop: a handful of 10 MB bodies would hold every other request. A
declared Content-Length over the limit is refused before a byte of the body is
read (the server hands the app no more than the Content-Length it declared). A
body within the limit, declared or chunked, is read here whole, chunk by chunk
(a chunked one only up to the limit), and handed on once it has all come: a
client trickling a byte a second would otherwise hold its connection, and a
request's place in the server, for as long as it liked. Both refusals close
the connection (the rest of the body is never read). Every HTTP route sits
behind this, the fast path of `POST …/actions` included; websocket frames have
their own limit (`ws_max_frame_bytes`, app/api/ws.py).
"""

from __future__ import annotations

import asyncio
from typing import Any

from .errors import error_response


class BodyLimit:
    def __init__(self, app: Any, limit: int, timeout: float = 10.0) -> None:
        self.app, self.limit, self.timeout = app, limit, timeout

    def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        # A plain function handing back the coroutine to await: no frame of its own.
        if scope["type"] != "http":
            return self.app(scope, receive, send)
        for name, value in scope["headers"]:
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    return self._refuse(scope, receive, send, 400, "bad_request",
                                        "Content-Length is not a number")
                if declared > self.limit:
                    return self._refuse(scope, receive, send)
                if declared == 0:
                    return self.app(scope, receive, send)
                return self._read_whole(scope, receive, send)
            if name == b"transfer-encoding":
                return self._read_whole(scope, receive, send)
        return self.app(scope, receive, send)  # no body at all

    async def _read_whole(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """Read the body up to the limit and within the time allowed, then hand it on."""
        read: list[dict[str, Any]] = []
        size = 0
        try:
            async with asyncio.timeout(self.timeout):
                while True:
                    message = await receive()
                    read.append(message)
                    if message["type"] != "http.request":
                        break  # the client is gone: the app hears so after what came before
                    size += len(message.get("body", b""))
                    if size > self.limit:
                        return await self._refuse(scope, receive, send)
                    if not message.get("more_body", False):
                        break
        except TimeoutError:
            return await self._refuse(
                scope, receive, send, 408, "request_timeout",
                f"the request body did not arrive whole within {self.timeout:g} s")

        async def replay() -> dict[str, Any]:
            if read:
                return read.pop(0)
            message: dict[str, Any] = await receive()
            return message

        await self.app(scope, replay, send)

    async def _refuse(self, scope: dict[str, Any], receive: Any, send: Any, status: int = 413,
                      code: str = "too_large", detail: str | None = None) -> None:
        response = error_response(
            status, code, detail or f"the request body is over {self.limit} bytes; no request needs more")
        response.headers["connection"] = "close"  # the rest of the body is never read
        await response(scope, receive, send)

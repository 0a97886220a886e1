"""A request body over `limit` bytes is refused with 413 `too_large` before it
is read whole (issue 12, defect 4).

The largest legal request is a few kB, and a body is buffered and parsed on the
event loop: a handful of 10 MB bodies would hold every other request. A
declared Content-Length over the limit is refused before a byte of the body is
read (the server hands the app no more than the Content-Length it declared). A
body without one (chunked) is read here, chunk by chunk, only up to the limit,
and handed on once it is known to fit. Every HTTP route sits behind this,
the fast path of `POST …/actions` included; websocket frames have their own
limit (`ws_max_frame_bytes`, app/api/ws.py).
"""

from __future__ import annotations

from typing import Any

from .errors import error_response


class BodyLimit:
    def __init__(self, app: Any, limit: int) -> None:
        self.app, self.limit = app, limit

    def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        # A plain function handing back the coroutine to await: no frame of its own.
        if scope["type"] != "http":
            return self.app(scope, receive, send)
        streamed = False
        for name, value in scope["headers"]:
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    return self._refuse(scope, receive, send, 400, "bad_request",
                                        "Content-Length is not a number")
                if declared > self.limit:
                    return self._refuse(scope, receive, send)
                return self.app(scope, receive, send)
            if name == b"transfer-encoding":
                streamed = True
        if not streamed:
            return self.app(scope, receive, send)  # no body at all
        return self._counted(scope, receive, send)

    async def _counted(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """Read a body of unknown length up to the limit, then hand it on."""
        read: list[dict[str, Any]] = []
        size = 0
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

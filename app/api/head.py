"""`HEAD` answered wherever `GET` is (issue 21, item 6): FastAPI's routes take
only the methods they declare, so a HEAD was a 405. The request goes on as a GET
and its answer's headers are sent (Content-Length, ETag... as the GET's), the
body dropped."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

ASKED_HEAD = "magery.head"  # in the scope: the GET was asked as a HEAD (a 405 names HEAD)


class HeadAsGet:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def headers_only(message: Message) -> None:
            if message["type"] == "http.response.body":
                message = {**message, "body": b""}
            await send(message)

        await self.app({**scope, "method": "GET", ASKED_HEAD: True}, receive, headers_only)

"""`HEAD` answered wherever `GET` is: FastAPI's routes take
only the methods they declare, so a HEAD was a 405. The request goes on as a GET
and its answer's headers are sent (Content-Length, ETag... as the GET's), the
body dropped.

A stream (a match's, an account's events, a person's channel) runs until its
reader leaves, and a HEAD's reader waits for the end of an answer it will never
read: so those routes ask `asked_head()` after their checks and answer their
headers with `no_lines()` for a body, opening nothing and holding no place.
(Cutting the stream here instead, once its headers went, would skip the `finally`
of a stream never begun, and leak the place it holds among its address's.)"""

from __future__ import annotations

from collections.abc import AsyncIterator

from starlette.requests import Request
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


def asked_head(request: Request) -> bool:
    """This GET was asked as a HEAD: only its headers are wanted."""
    return bool(request.scope.get(ASKED_HEAD))


async def no_lines() -> AsyncIterator[str]:
    """A stream's body when asked as HEAD: none, at once."""
    return
    yield  # an async generator, that ends before its first line

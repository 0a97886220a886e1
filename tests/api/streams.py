"""A long-held HTTP stream read line by line, straight through the app's ASGI
stack (httpx's ASGITransport waits for the whole body, which a live channel
never ends): the request is sent, each body chunk is queued as it comes, and
leaving the block disconnects the client as a closed page does."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from ..waiting import DEADLINE


class Stream:
    def __init__(self, app: Any, method: str, path: str, headers: dict[str, str] | None = None,
                 body: Any = None, client: str = "127.0.0.1") -> None:
        self.app, self.method, self.path, self.client = app, method, path, client
        self.body = b"" if body is None else json.dumps(body).encode()
        self.headers = {"host": "testserver", **({"content-type": "application/json"} if body is not None else {}),
                        **{k.lower(): v for k, v in (headers or {}).items()}}
        self.status = 0
        self.chunks: asyncio.Queue[bytes] = asyncio.Queue()
        self.started = asyncio.Event()
        self.gone = asyncio.Event()
        self.buffer = b""
        self.task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> Stream:
        path, _, query = self.path.partition("?")
        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": self.method,
                 "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": query.encode(),
                 "root_path": "", "headers": [(k.encode(), v.encode()) for k, v in self.headers.items()],
                 "client": (self.client, 50000), "server": ("testserver", 80)}
        sent = False

        async def receive() -> dict[str, Any]:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": self.body, "more_body": False}
            await self.gone.wait()
            return {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                self.status = message["status"]
                self.started.set()
            elif message["type"] == "http.response.body":
                self.chunks.put_nowait(message.get("body", b""))
                if not message.get("more_body", False):
                    self.chunks.put_nowait(b"")  # the end

        self.task = asyncio.create_task(self.app(scope, receive, send))
        await asyncio.wait_for(self.started.wait(), DEADLINE)
        return self

    async def whole(self) -> Any:
        """The answer of a refused request (a JSON error, not a stream)."""
        body = b""
        while (chunk := await asyncio.wait_for(self.chunks.get(), DEADLINE)) != b"":
            body += chunk
        return json.loads(body)

    async def next(self, seconds: float = DEADLINE) -> dict[str, Any]:
        """The next line, as JSON."""
        while b"\n" not in self.buffer:
            chunk = await asyncio.wait_for(self.chunks.get(), seconds)
            if chunk == b"" and self.task is not None and self.task.done():
                raise AssertionError("the stream ended")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return dict(json.loads(line))

    async def until(self, predicate: Any, what: str) -> dict[str, Any]:
        """The first `person` message that fits `predicate` (pings and others skipped)."""
        async def look() -> dict[str, Any]:
            while True:
                message = await self.next()
                if message["type"] == "person" and predicate(message):
                    return message
        try:
            return await asyncio.wait_for(look(), DEADLINE)
        except TimeoutError:
            raise AssertionError(f"the channel never said: {what}") from None

    async def __aexit__(self, *exc: object) -> None:
        self.gone.set()
        if self.task is not None:
            await asyncio.wait_for(self.task, DEADLINE)

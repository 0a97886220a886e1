"""Sockets against the app in-process: an ASGI websocket client on the test's loop.

It speaks ASGI straight to the app (as a server would), so it runs with the
shared `app`/`api` fixtures of tests/conftest.py on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest

from app.main import create_app
from tests.conftest import Api, make_settings
from tests.realtime.redis_process import RedisProcess
from tests.waiting import DEADLINE

TIMEOUT = DEADLINE  # for a message that must come: reached only by a test that is stuck


class RealtimeClock:
    """The monotonic clock of the hub, its rooms and its heartbeat, standing still
    until the test moves it (`clock.now += 0.25`). The heartbeat still beats every
    tick of real time; what it finds depends only on where the test put the clock."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now

    def __getattr__(self, name: str) -> Any:
        return getattr(time, name)  # the rest of the time module, as it is


@pytest.fixture
def realtime_clock(monkeypatch: pytest.MonkeyPatch) -> RealtimeClock:
    """A RealtimeClock in app.realtime's hub, rooms and heartbeat (before the app starts)."""
    from app.realtime import heartbeat, hub, room

    clock = RealtimeClock()
    for module in (heartbeat, hub, room):
        monkeypatch.setattr(module, "time", clock)
    return clock


class Closed(Exception):
    def __init__(self, code: int, reason: str = "") -> None:
        super().__init__(f"closed {code} {reason}")
        self.code, self.reason = code, reason


class Socket:
    """One client socket: `await Socket.open(app, path)`, then send/receive."""

    def __init__(self, app: Any, url: str, headers: dict[str, str] | None = None,
                 client: str = "127.0.0.1") -> None:
        parts = urlsplit(url)
        hdrs = {"host": "testserver", **(headers or {})}
        self.scope = {
            "type": "websocket", "asgi": {"version": "3.0", "spec_version": "2.4"},
            "http_version": "1.1", "scheme": "ws", "server": ("testserver", 80),
            "client": (client, 50000), "root_path": "", "path": parts.path,
            "raw_path": parts.path.encode(), "query_string": parts.query.encode(),
            "headers": [(k.lower().encode(), v.encode()) for k, v in hdrs.items()],
            "subprotocols": [], "state": {},
        }
        self.app = app
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.outbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.closed: Closed | None = None
        self.accepted = False

    @classmethod
    async def open(cls, app: Any, url: str, headers: dict[str, str] | None = None,
                   client: str = "127.0.0.1") -> Socket:
        sock = cls(app, url, headers, client)
        sock.task = asyncio.create_task(app(sock.scope, sock._app_receive, sock._app_send))
        await sock.outbox.put({"type": "websocket.connect"})
        first = await asyncio.wait_for(sock.inbox.get(), TIMEOUT)
        if first["type"] == "websocket.close":
            raise Closed(first.get("code", 1000), first.get("reason", ""))
        assert first["type"] == "websocket.accept", first
        sock.accepted = True
        return sock

    async def _app_receive(self) -> dict[str, Any]:
        return await self.outbox.get()

    async def _app_send(self, message: dict[str, Any]) -> None:
        if self.closed is None:
            await self.inbox.put(message)

    async def receive(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The next message the server sends (not pings, not the opening hello); raises Closed at a close."""
        while True:
            if self.closed is not None:
                raise self.closed
            message = await asyncio.wait_for(self.inbox.get(), timeout)
            if message["type"] == "websocket.close":
                self.closed = Closed(message.get("code", 1000), message.get("reason", ""))
                await self.outbox.put({"type": "websocket.disconnect", "code": self.closed.code})
                raise self.closed
            data = json.loads(message["text"])
            if data.get("type") not in ("ping", "hello"):  # a hello opens every socket: tests read it raw
                return data

    async def receive_until(self, accept: Callable[[dict[str, Any]], bool],
                            timeout: float = TIMEOUT) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """Messages up to the first that `accept`s: (that one, those before it)."""
        before: list[dict[str, Any]] = []
        while True:
            message = await self.receive(timeout)
            if accept(message):
                return message, before
            before.append(message)

    async def nothing_for(self, seconds: float = 0.2) -> list[dict[str, Any]]:
        """What arrives (pings aside) within `seconds`."""
        got = []
        with contextlib.suppress(asyncio.TimeoutError):
            while True:
                got.append(await self.receive(seconds))
        return got

    async def send(self, data: Any) -> None:
        text = data if isinstance(data, str) else json.dumps(data)
        await self.outbox.put({"type": "websocket.receive", "text": text})

    async def close(self, code: int = 1000) -> None:
        if self.closed is None:
            self.closed = Closed(code)
            await self.outbox.put({"type": "websocket.disconnect", "code": code})
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.task, TIMEOUT)


def ws_path(match_id: str, **query: Any) -> str:
    q = "&".join(f"{k}={v}" for k, v in query.items() if v is not None)
    return f"/api/v1/matches/{match_id}/ws" + (f"?{q}" if q else "")


@pytest.fixture
async def sockets(app: Any) -> AsyncIterator[Callable[..., Any]]:
    """`await sockets(match_id, token=..., since=..., headers=..., client=...)` opens a
    socket (from 127.0.0.1, or the address `client`)."""
    opened: list[Socket] = []

    async def open_socket(match_id: str, headers: dict[str, str] | None = None,
                          client: str = "127.0.0.1", **query: Any) -> Socket:
        sock = await Socket.open(app, ws_path(match_id, **query), headers, client)
        opened.append(sock)
        return sock

    yield open_socket
    for sock in opened:
        await sock.close()


@contextlib.asynccontextmanager
async def custom_app(database_url: str, **overrides: Any) -> AsyncIterator[tuple[Any, Api]]:
    """An app with its own settings (limits, origins...), and an Api on it."""
    application = create_app(make_settings(database_url, **overrides))
    async with application.router.lifespan_context(application):
        transport = httpx.ASGITransport(app=application)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as c:
            yield application, Api(c)


@pytest.fixture(scope="module")
def redis_process() -> Iterator[RedisProcess]:
    """A Redis of the module's own, that its tests may restart."""
    process = RedisProcess()
    try:
        yield process
    finally:
        process.stop()

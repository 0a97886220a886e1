"""What the sign-in fronts' tests count (tests/admin/test_sign_in_front.py for the
admins' form, tests/web/test_players_sign_in_front.py for the players'): the tries
that got past the front into the stack, and the passwords really checked."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, ClassVar

import httpx

from tests.waiting import DEADLINE


class Reached:
    """A middleware inside the stack (behind the front): counts the POSTs to
    `path` that got there. A test file subclasses it with its form's path."""

    path: ClassVar[str] = ""
    count: ClassVar[int] = 0

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["path"] == self.path and scope["method"] == "POST":
            type(self).count += 1
        await self.app(scope, receive, send)


class Checks:
    """A wing's password check (`real`), counting the passwords checked and
    those being checked now; held at `gate` if given."""

    def __init__(self, real: Callable[[str, str], Any], gate: threading.Event | None = None) -> None:
        self.real = real
        self.gate = gate
        self.calls = self.now = 0
        self.lock = threading.Lock()

    def __call__(self, digest: str, password: str) -> bool:
        with self.lock:
            self.calls += 1
            self.now += 1
        try:
            if self.gate is not None:
                self.gate.wait(DEADLINE)
            return bool(self.real(digest, password))
        finally:
            with self.lock:
                self.now -= 1


def client_at(app: Any, host: str = "127.0.0.1") -> httpx.AsyncClient:
    """A client of `app` calling from the address `host`."""
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app, client=(host, 1)),
                             base_url="http://testserver")

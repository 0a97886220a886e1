"""Sign-in tries of a locked address refused in front of the whole stack
(issue 17, item 3).

Thirty sign-ins sent at once from one address each went through the error
middleware, the budgets, the body limit, FastAPI's routing and the form's
parsing before the lock (app/admin/tries.py) refused the 25 past
`ADMIN_LOCK_AFTER`: measured with the handler refusing at its first line,
that work alone, at one instant, cost another match's p99 about the 2x the
goal allows (docs/reliability.md). Here, ahead of all of it (app/main.py puts
this inside only the operations' request ids and metrics), a process lets one
try per address at a time in; the others wait in line, costing nothing but
their place, and once the process knows the address is locked each is refused
right here: its small form read and parsed by hand, audited as the handler
audits a locked try, answered the handler's own 429 page with the pages'
security headers. At most `tries.LINE_MOST` wait per address; one more is
answered 503 at once, as a full password pool answers (nothing checked,
counted or audited).

Whatever the handler would answer otherwise (a form this does not read: not
urlencoded, over `MOST_FORM_BYTES`, slower than the body's timeout; a wrong
CSRF token; a name no account could have) goes in to the handler, which
refuses a locked address itself all the same. So no password is checked here,
and none more than the handler would let through.
"""

from __future__ import annotations

import asyncio
from typing import Any
from urllib.parse import parse_qsl

from starlette.requests import Request

from app.security import security_headers

from . import accounts, pages, sessions, throttle
from .context import Admin
from .tries import SignIns

PATH = "/admin/login"
MOST_FORM_BYTES = 4096  # a sign-in form is a name, a password, a token and a path: a few hundred bytes
_HEADERS = security_headers()


class SignInsInFront:
    """A plain ASGI wrapper: `POST /admin/login` passes through the address's
    line; every other request goes straight on."""

    def __init__(self, app: Any, admin: Admin) -> None:
        self.app, self.admin = app, admin

    def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        # A plain function handing back the coroutine to await: no frame of its own.
        if scope["type"] != "http" or scope["path"] != PATH or scope["method"] != "POST":
            return self.app(scope, receive, send)
        return self._try(scope, receive, send)

    async def _try(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        tries: SignIns = self.admin.sign_ins
        client = scope.get("client")
        where = client[0] if client else None
        key = throttle.address_key(where)
        locked = tries.wait(key, self.admin.now())
        if not locked:
            if tries.line_full(key):
                await self._answer(scope, receive, send, 0)
                return
            async with tries.in_line(key):
                locked = tries.wait(key, self.admin.now())  # the try before may have learnt the lock
                if not locked:
                    await self.app(scope, receive, send)
                    return
        # Out of the line before refusing: the tries behind come out at once and
        # their audit entries go in one insert (app/admin/audit.py's Batch).
        await self._answer(scope, receive, send, locked)

    async def _answer(self, scope: dict[str, Any], receive: Any, send: Any, locked: int) -> None:
        """Refuse the try: 429 for `locked` seconds, audited, or 503 (0: no room in line)."""
        read = await self._read_form(scope, receive)
        form = _fields(read) if read is not None else None
        request = Request(scope)
        if form is None or not sessions.same(form.get(sessions.CSRF_FIELD, ""),
                                             request.cookies.get(sessions.LOGIN_COOKIE) or "\0"):
            return await self._go_in(scope, receive, send, read or [])
        name = form.get("username", "").strip()
        if not accounts.NAME.fullmatch(name):
            return await self._go_in(scope, receive, send, read or [])
        target = pages.safe_next(form.get("next", ""))
        if locked:
            where = scope["client"][0] if scope.get("client") else None
            await self.admin.sign_ins.failures.record("sign_in_failure", self.admin.now(), name, address=where,
                                                      locked=True)
            response = pages.locked_form(request, locked, target, name)
        else:
            response = pages.busy_form(request, target, name)
        for header, value in _HEADERS.items():
            response.headers.setdefault(header, value)
        await response(scope, receive, send)

    async def _read_form(self, scope: dict[str, Any], receive: Any) -> list[dict[str, Any]] | None:
        """The body's messages, if it is a small urlencoded form that came whole in time (else
        None, nothing read; or what was read, for the handler to have, when it proved not to be)."""
        headers = dict(scope["headers"])
        if not headers.get(b"content-type", b"").startswith(b"application/x-www-form-urlencoded"):
            return None
        try:
            if int(headers.get(b"content-length", b"-1")) not in range(MOST_FORM_BYTES + 1):
                return None
        except ValueError:
            return None
        read: list[dict[str, Any]] = []
        size = 0
        try:
            async with asyncio.timeout(self.admin.settings.body_timeout_seconds):
                while True:
                    message = await receive()
                    read.append(message)
                    size += len(message.get("body", b""))
                    if message["type"] != "http.request" or size > MOST_FORM_BYTES:
                        return read
                    if not message.get("more_body", False):
                        return read
        except TimeoutError:
            return read

    async def _go_in(self, scope: dict[str, Any], receive: Any, send: Any, read: list[dict[str, Any]]) -> None:
        """On to the handler, with what was read of the body first."""

        async def replay() -> dict[str, Any]:
            if read:
                return read.pop(0)
            message: dict[str, Any] = await receive()
            return message

        await self.app(scope, replay, send)


def _fields(read: list[dict[str, Any]]) -> dict[str, str] | None:
    """The form's fields (the last of a name wins, as in the handler), or None
    if the messages are not a whole urlencoded body of UTF-8 text."""
    if not read or read[-1]["type"] != "http.request" or read[-1].get("more_body", False):
        return None
    body = b"".join(m.get("body", b"") for m in read)
    if len(body) > MOST_FORM_BYTES:
        return None
    try:
        return dict(parse_qsl(body.decode("ascii"), keep_blank_values=True, encoding="utf-8", errors="strict"))
    except (UnicodeDecodeError, ValueError):
        return None

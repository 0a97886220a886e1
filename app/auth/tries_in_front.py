"""Sign-in tries in line per address, and a known-locked address refused in
front of the whole stack: the one front of every sign-in form, the players'
(`POST /login`, app/web/sign_in_front.py) and the admins' (`POST /admin/login`,
app/admin/front.py), each form saying only how its refusal reads.

Thirty sign-ins sent at once from one address each went through the error
middleware, the budgets, the body limit, FastAPI's routing and the form's
parsing, then opened a transaction on the same lock rows at the same instant
(the lock-out is counted in the database, before the slow password check):
another match's p99 rose ~10x while they ran. Here, ahead of all of it, a
process lets one try per address at a time in; the others wait in line,
costing nothing but their place. What the handler learnt of the address's
lock (the database's answer, `Tries.learn`) is remembered for a moment, and
while it runs each try is refused right here: its small form read and parsed
by hand and answered by the form's own page (its `Answer`), with the
pages' security headers. At most `LINE_MOST` wait per address; one more is
answered at once as a full password pool answers (503: nothing checked), and
counted against the address all the same: the next try of the address that
is reserved in the database counts it as a failure too (`Tries.refused`), so
an address that floods is locked out as one that guesses is.

Whatever a form's `answer` will not judge (a form this does not read: not
urlencoded, over `MOST_FORM_BYTES`, slower than the body's timeout; a wrong
CSRF token; ...) goes in to the handler, which refuses a locked address itself
all the same. So no password is checked here, and none more than the handler
would let through: the front only ever refuses, or lets in one at a time.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import parse_qsl

from starlette.requests import Request
from starlette.responses import Response

TRUST_SECONDS = 10.0  # how long a lock read from the database is taken as still running
MOST_REMEMBERED = 4096  # addresses whose lock is remembered; the oldest is forgotten first
LINE_MOST = 32  # tries of one address waiting in line in front; one more is answered 503 at once
MOST_FORM_BYTES = 4096  # a sign-in form is a name, a password, a token and a path: a few hundred bytes


@dataclass(slots=True)
class Turn:
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0


class Tries:
    """One process's view of the sign-in tries: the line per address in front,
    the turns per address to reserve a try in the database, and the locks the
    database reported, remembered for a moment."""

    def __init__(self) -> None:
        self._line: dict[str, Turn] = {}  # tries let in from the front, one at a time per address
        self._turns: dict[str, Turn] = {}  # reservations, one at a time per address
        self._locked: dict[str, tuple[datetime, datetime]] = {}  # address: (locked until, trusted until)
        self._refused: dict[str, int] = {}  # tries refused in front, not yet counted in the database

    def in_line(self, address: str) -> contextlib.AbstractAsyncContextManager[None]:
        """Hold the address's place in front: its tries in this process go in one after another."""
        return hold(self._line, address)

    def one_at_a_time(self, address: str) -> contextlib.AbstractAsyncContextManager[None]:
        """Hold the address's turn: its tries in this process reserve one after another."""
        return hold(self._turns, address)

    def line_full(self, address: str) -> bool:
        """Are `LINE_MOST` of the address's tries waiting in line already (besides the one inside)?"""
        turn = self._line.get(address)
        return turn is not None and turn.users > LINE_MOST

    def wait(self, address: str, now: datetime) -> int:
        """Seconds the address is known to be locked for (0: ask the database)."""
        known = self._locked.get(address)
        if known is None:
            return 0
        until, trusted = known
        if now >= until or now >= trusted:
            del self._locked[address]
            return 0
        return int((until - now).total_seconds()) + 1

    def learn(self, address: str, locked_until: datetime | None, now: datetime) -> None:
        """What the database said of the address's own lock (None: not locked)."""
        self._locked.pop(address, None)
        if locked_until is None or locked_until <= now:
            return
        if len(self._locked) >= MOST_REMEMBERED:
            self._locked = {a: t for a, t in self._locked.items() if now < t[0] and now < t[1]}
            while len(self._locked) >= MOST_REMEMBERED:
                del self._locked[next(iter(self._locked))]
        self._locked[address] = (locked_until, now + timedelta(seconds=TRUST_SECONDS))

    def refused(self, address: str) -> None:
        """A try of the address was refused unchecked: counted with its next reservation."""
        if address not in self._refused and len(self._refused) >= MOST_REMEMBERED:
            del self._refused[next(iter(self._refused))]
        self._refused[address] = self._refused.get(address, 0) + 1

    def take_refused(self, address: str) -> int:
        """The address's tries refused since its last reservation (now being counted)."""
        return self._refused.pop(address, 0)

    def forget(self, address: str) -> None:
        """The address signed in: no lock of its is remembered."""
        self._locked.pop(address, None)


@contextlib.asynccontextmanager
async def hold(turns: dict[str, Turn], address: str) -> AsyncIterator[None]:
    """The address's turn in `turns`, made when first asked and dropped when no try holds or awaits it."""
    turn = turns.get(address)
    if turn is None:
        turn = turns[address] = Turn()
    turn.users += 1
    try:
        async with turn.lock:
            yield
    finally:
        turn.users -= 1
        if not turn.users:
            del turns[address]


Answer = Callable[[Request, dict[str, str], int], Awaitable[Response | None]]


class SignInsInFront:
    """The one front of every sign-in form: a plain ASGI wrapper in which
    `POST <a form's path>` passes through the address's line in `tries` (keyed
    by `key(client address)`); every other request goes straight on. `forms`
    maps each form's path to its refusal (`Answer`): given the request, the
    form's fields and the seconds the address is locked for (0: no room in
    line), the form's own page, or None to let the handler answer it. An answer
    given here carries `headers` (the pages' security headers)."""

    def __init__(self, app: Any, tries: Tries, key: Callable[[str | None], str], now: Callable[[], datetime],
                 body_timeout: float, forms: Mapping[str, Answer], headers: Mapping[str, str]) -> None:
        self.app, self.tries, self.key, self.now, self.body_timeout = app, tries, key, now, body_timeout
        self.forms, self.headers = dict(forms), dict(headers)

    def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        # A plain function handing back the coroutine to await: no frame of its own.
        if scope["type"] != "http" or scope["method"] != "POST" or scope["path"] not in self.forms:
            return self.app(scope, receive, send)
        return self._try(scope, receive, send)

    async def _try(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        client = scope.get("client")
        key = self.key(client[0] if client else None)
        locked = self.tries.wait(key, self.now())
        if not locked:
            if self.tries.line_full(key):
                self.tries.refused(key)
                await self._refuse(scope, receive, send, 0)
                return
            async with self.tries.in_line(key):
                locked = self.tries.wait(key, self.now())  # the try before may have learnt the lock
                if not locked:
                    await self.app(scope, receive, send)
                    return
        # Out of the line before refusing: the tries behind come out at once.
        await self._refuse(scope, receive, send, locked)

    async def _refuse(self, scope: dict[str, Any], receive: Any, send: Any, locked: int) -> None:
        read = await self._read_form(scope, receive)
        form = _fields(read) if read is not None else None
        answer = self.forms[scope["path"]]
        response = None if form is None else await answer(Request(scope), form, locked)
        if response is None:
            return await self._go_in(scope, receive, send, read or [])
        for header, value in self.headers.items():
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
            async with asyncio.timeout(self.body_timeout):
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
    """The form's fields (the last of a name wins, as in the handlers), or None
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

"""Every request to the match API counted against its budget before its body
is read.

Writes (every POST under /api/v1/matches): the gateway's write budget, per address
and per seat token, counted here for every attempt, well-formed or not. A
malformed, oversized or unauthorised body costs the server as much to refuse as
a good one costs to play, so a client sending junk runs out of budget as fast
as one sending actions; over the budget it is answered 429 with Retry-After
without its body being read. The gateway then knows the request is counted
(`Caller.counted`) and does not count it twice.

Reads (GET and HEAD under /api/v1/matches, and a player's export): a budget per address of their own,
generous (a page never comes near it), counted in this process's memory, or in
Redis when REDIS_URL is set (then the budget holds across processes); a
call of `/states` (up to 100 states) counts as HEAVY reads, and so does an
export's start (each further page of it is charged by user_export.py). Over it: 429 with
Retry-After, before any database read, held RATE_LIMIT_HOLD_SECONDS first as a
refused write is.
"""

from __future__ import annotations

from typing import Any

from app.kernel.errors import RateLimited
from app.kernel.limits import RedisWindow, SlidingWindow
from app.kernel.networks import network_of
from app.matches import Caller, Gateway

from .errors import error_response, service_error_response

PREFIX = "/api/v1/matches"
USERS = "/api/v1/users/"
EXPORT = "/matches/export"  # a player's whole history in one stream: a read of the match API
COUNTED = "magery.counted"  # in the scope: this request's write is counted already
# A /states call answers up to 100 states (some 300 KB of JSON): it counts as
# this many reads (eight such readers slowed every match).
HEAVY = 10


def bearer(scope: dict[str, Any]) -> str | None:
    """The token of `Authorization: Bearer <token>`, as fastapi's HTTPBearer reads it."""
    for name, value in scope["headers"]:
        if name == b"authorization":
            text: str = value.decode("latin-1")
            scheme, _, param = text.partition(" ")
            param = param.strip()
            if not (scheme and param) or scheme.lower() != "bearer":
                return None
            return param
    return None


def _has_body(scope: dict[str, Any]) -> bool:
    for name, value in scope["headers"]:
        if name == b"content-length":
            return value.strip() not in (b"0", b"")
        if name == b"transfer-encoding":
            return True
    return False


class Budgets:
    def __init__(self, app: Any, gateway: Gateway, reads: SlidingWindow | RedisWindow) -> None:
        self.app, self.gateway, self.reads = app, gateway, reads

    def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        # A plain function handing back the coroutine to await: no frame of its own.
        path = scope["path"] if scope["type"] == "http" else ""
        if path.startswith(PREFIX) or (path.startswith(USERS) and path.endswith(EXPORT)):
            method = scope["method"]
            if method == "POST":
                return self._write(scope, receive, send)
            if method in ("GET", "HEAD"):
                client = scope.get("client")
                key = f"addr:{network_of(client[0]) if client else '-'}"
                weight = HEAVY if path.endswith(("/states", EXPORT)) else 1
                if isinstance(self.reads, RedisWindow):  # shared: a round trip near the budget
                    return self._read_shared(key, weight, scope, receive, send)
                try:
                    self.reads.count(key, weight=weight)
                except RateLimited as over:
                    return self._refuse_read(over, scope, receive, send)
        return self.app(scope, receive, send)

    async def _read_shared(self, key: str, weight: int, scope: dict[str, Any], receive: Any, send: Any) -> None:
        assert isinstance(self.reads, RedisWindow)
        try:
            await self.reads.hit(key, weight=weight)
        except RateLimited as over:
            return await self._refuse_read(over, scope, receive, send)
        await self.app(scope, receive, send)

    async def _refuse_read(self, over: RateLimited, scope: dict[str, Any], receive: Any, send: Any) -> None:
        # Held like a refused write (RATE_LIMIT_HOLD_SECONDS): a reader asking as
        # fast as the answers come would otherwise spin on 429s.
        if self.gateway.hold_refused_seconds > 0:
            await self.gateway.pause(min(self.gateway.hold_refused_seconds, over.retry_after))
        await error_response(429, "rate_limited", f"too many reads; try again in {over.retry_after} s",
                             retry_after=over.retry_after)(scope, receive, send)

    async def _write(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        client = scope.get("client")
        try:
            await self.gateway.count_write(Caller(bearer(scope), client[0] if client else None))
        except RateLimited as over:
            response = service_error_response(over)
            if _has_body(scope):
                response.headers["connection"] = "close"  # its body is never read
            return await response(scope, receive, send)
        scope[COUNTED] = True
        await self.app(scope, receive, send)

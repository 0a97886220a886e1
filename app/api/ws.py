"""`/api/v1/matches/{match_id}/ws`: a match, live (the contract's Websocket section).

A raw ASGI endpoint: it hands the hub the server's own `send`, so one encoded
update is shared by every socket of the match. A seat is proved by its token
(`?token=`, or `Authorization: Bearer <token>` on the upgrade, as REST takes it),
or by the account holding it: `Authorization: Bearer mgo_...` on the upgrade,
or a signed-in browser's session cookie from the page's own origin. With
`?legal=true` a seat's states carry its legal actions, and a seat resumed with
`?since=` is told them after its catch-up (legal_lines.py). The
account's credential is checked again at each action it sends, so a closed
account or a revoked token stops at once. It uses only the hub's face
(app/realtime/hub.py); the socket's handle it holds is given back to the hub,
never read. See docs/api.md, "Websocket".
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import time
from dataclasses import dataclass
from http.cookies import CookieError, SimpleCookie
from typing import Any
from urllib.parse import parse_qs, urlsplit

from app.accounts import Accounts
from app.accounts.sessions import COOKIE
from app.accounts.tokens import PREFIX
from app.config import Settings
from app.db.outage import OutageLog, database_unavailable
from app.kernel.errors import ServiceError
from app.kernel.ids import is_client_id, is_match_id
from app.matches import Caller, Gateway
from app.realtime.hub import Hub, Subscriber

from .caller import refused_to_act
from .errors import UNAVAILABLE
from .legal_lines import for_seat
from .query_numbers import version_number
from .ws_chat import KINDS as CHAT_KINDS
from .ws_chat import SocketChat

log = logging.getLogger("magery.realtime")
PATH = "/api/v1/matches/{match_id}/ws"
BUDGET_WINDOW = 10.0  # seconds; `ws_messages_per_10s` messages allowed in each
# An ack's mark of a resend of an action that landed before: its first answer again (REST's header).
REPLAYED: dict[bool, dict[str, bool]] = {False: {}, True: {"replayed": True}}


@dataclass(frozen=True, slots=True)
class AccountKey:
    """The account credential a socket was opened with: an account token, or a
    session cookie's token; checked again before each action."""

    token: str | None
    session: str | None
    account_id: int
    name: str
    scopes: tuple[str, ...]


def _cookie(headers: dict[bytes, bytes]) -> str | None:
    raw = headers.get(b"cookie")
    if not raw:
        return None
    jar: SimpleCookie = SimpleCookie()
    try:
        jar.load(raw.decode("latin-1"))
    except CookieError:
        return None
    found = jar.get(COOKIE)
    return found.value if found is not None else None


def _bearer(headers: dict[bytes, bytes]) -> str | None:
    scheme, _, param = headers.get(b"authorization", b"").decode("latin-1").partition(" ")
    return param.strip() if scheme.lower() == "bearer" and param.strip() else None


def same_origin(headers: dict[bytes, bytes], allowed: list[str]) -> bool:
    """A cookie is taken only from the page's own host or an origin listed by
    name: "*" lets any site watch, never act as the browser's account."""
    origin = headers.get(b"origin")
    if origin is None:
        return True
    text = origin.decode("latin-1").rstrip("/")
    if text in (o.rstrip("/") for o in allowed if o != "*"):
        return True
    host = headers.get(b"host", b"").decode("latin-1")
    return bool(host) and urlsplit(text).netloc == host


def origin_allowed(headers: dict[bytes, bytes], allowed: list[str]) -> bool:
    """No Origin (not a browser), "*", a listed origin, or the page's own host."""
    origin = headers.get(b"origin")
    if origin is None or "*" in allowed:
        return True
    text = origin.decode("latin-1").rstrip("/")
    if text in (o.rstrip("/") for o in allowed):
        return True
    host = headers.get(b"host", b"").decode("latin-1")
    return bool(host) and urlsplit(text).netloc == host


class MatchSocket:
    """One socket's life: check, accept, join the hub, read until it closes.
    An action it carries goes through the gateway like a REST one."""

    def __init__(self, hub: Hub, gateway: Gateway, settings: Settings, outage: OutageLog | None = None,
                 accounts: Accounts | None = None, chat: SocketChat | None = None) -> None:
        self.hub, self.gateway, self.settings = hub, gateway, settings
        self.chat = chat  # the match chat's messages (ws_chat.py); None: no chat
        self.outage = outage if outage is not None else OutageLog()
        self.accounts = accounts  # None: seat tokens only

    async def _account(self, headers: dict[bytes, bytes]) -> AccountKey | None:
        """The account the upgrade proves, or None; ValueError for an account
        token that proves nothing (refused, never taken for a watcher)."""
        accounts = self.accounts
        if accounts is None:
            return None
        token = _bearer(headers)
        if token is not None and token.startswith(PREFIX):
            holder = await accounts.verify_token(token)
            if holder is None:
                raise ValueError("unauthorized: this account token is unknown or revoked, or its account is closed")
            return AccountKey(token, None, holder.account_id, holder.account, holder.scopes)
        if token is not None:
            return None  # the header names no account: it is a seat's token (`_admit`)
        cookie = _cookie(headers)
        if cookie is None or not same_origin(headers, self.settings.allowed_origins):
            return None
        session = await accounts.session(cookie)
        if session is None:
            return None  # signed out or closed: a watcher, as a guest would be
        return AccountKey(None, cookie, session.account_id, session.name, ("play", "read"))

    async def account(self, headers: dict[bytes, bytes]) -> AccountKey | None:
        """The account an upgrade proves (for other sockets: an arena's), as this one reads it."""
        return await self._account(headers)

    async def still(self, key: AccountKey) -> bool:
        """The socket's account credential still holds (not revoked, not signed out, open)."""
        accounts = self.accounts
        if accounts is None:
            return False
        if key.token is not None:
            return await accounts.verify_token(key.token) is not None
        return await accounts.session(key.session) is not None

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        await self.serve(scope, receive, send, scope["path_params"]["match_id"])

    async def serve(self, scope: dict[str, Any], receive: Any, send: Any, match_id: str) -> None:
        # The frame of this coroutine lives as long as the socket: it keeps few locals.
        hub = self.hub
        address = (scope.get("client") or ("-",))[0]
        if not await hub.reserve(address):  # before any database read: a flood costs little
            return await self._crowded(receive, send)
        admitted = None
        try:
            admitted = await self._admit(scope, receive, send, hub, match_id, address)
        finally:
            if admitted is None:  # refused, or failed: its place is free again
                hub.release(address)
        if admitted is None:
            return
        sub, seat, token, key = admitted
        del admitted
        try:
            await hub.note_seat(sub)
            settings = self.settings
            window, used = time.monotonic(), 0
            while True:
                message = await receive()
                if message["type"] == "websocket.disconnect":
                    return
                hub.heard_from(sub)
                now = time.monotonic()
                if now - window >= BUDGET_WINDOW:
                    window, used = now, 0
                used += 1
                if used > settings.ws_messages_per_10s:
                    return await hub.close_socket(sub, 1008, "message budget exceeded")
                text = message.get("text")
                data = text.encode() if text is not None else (message.get("bytes") or b"")
                if len(data) > settings.ws_max_frame_bytes:
                    return await hub.close_socket(
                        sub, 1009, f"frame over {settings.ws_max_frame_bytes} bytes")
                if await self._handle(hub, sub, seat, match_id, token, address, text, key):
                    return await hub.close_socket(sub, 1008, "unauthorized: the account's token was revoked, "
                                                             "its session ended or the account closed")
        except asyncio.CancelledError:
            if not hub.dropped(sub):  # not the hub's doing: let it through
                raise
        finally:
            hub.release(address)
            if self.chat is not None:
                self.chat.leave(match_id, sub)
            await hub.leave(sub)

    async def _crowded(self, receive: Any, send: Any) -> None:
        """One socket more than an address may hold: accepted, so that the reason
        reaches the client, and closed 1008."""
        if (await receive())["type"] != "websocket.connect":
            return
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.close", "code": 1008,
                    "reason": f"too_many_sockets: at most {self.hub.sockets_per_address} "
                              "from one address; close one first"})

    async def _admit(self, scope: dict[str, Any], receive: Any, send: Any, hub: Hub,
                     match_id: str, address: str,
                     ) -> tuple[Subscriber, str | None, str | None, AccountKey | None] | None:
        """Check the Origin and the token, accept, and join the hub; None if refused."""
        if (await receive())["type"] != "websocket.connect":
            return None
        if not origin_allowed(dict(scope["headers"]), self.settings.allowed_origins):
            await send({"type": "websocket.close", "code": 1008})  # answered 403
            return None
        if hub.closed:  # shutting down: come back (to another process)
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.close", "code": 1001, "reason": "server shutting down"})
            return None
        # keep_blank_values: "?token=" is an empty token (refused, 1008), not a watcher.
        query = parse_qs(scope["query_string"].decode("latin-1"), keep_blank_values=True)
        token = query.get("token", [None])[0]
        if token is None:
            # A seat's token in `Authorization: Bearer` is taken as ?token= is, and
            # refused as it is when it proves nothing: never a watcher in disguise.
            bearer = _bearer(dict(scope["headers"]))
            if bearer is not None and not bearer.startswith(PREFIX):
                token = bearer
        legal, updates = query.get("legal", ["false"])[0], query.get("updates", ["full"])[0]
        since: int | None = None
        refusal = None
        key = None
        try:
            if not is_match_id(match_id):
                raise ValueError("not_found: no such match")
            since = version_number(query["since"][0]) if "since" in query else None
            if legal not in ("true", "false"):
                raise ValueError("bad_request: legal is true or false")
            if updates not in ("full", "compact"):
                raise ValueError("bad_request: updates is full or compact")
            if token is None:  # ?token= is a seat's, whatever else comes with it
                key = await self._account(dict(scope["headers"]))
            known = hub.known_version(match_id) if token is None and key is None else None
            if known is not None:
                seat, version = None, known  # watched here already: no database read
            else:
                seat, version = await self.gateway.watch(match_id, token, key.account_id if key else None)
            if legal == "true" and seat is None:
                raise ValueError("bad_request: legal=true needs a seat's token")
        except ValueError as bad:
            refusal = str(bad) if str(bad).startswith(("not_found", "unauthorized", "bad_request")) else \
                "bad_request: since must be a version number"
        except ServiceError as exc:
            refusal = f"{exc.code}: {exc.detail}"
        except Exception as exc:
            if not database_unavailable(exc):
                raise
            self.outage.failed("a websocket opening", exc)
            await send({"type": "websocket.accept"})
            # 1013 (try again later): the client reconnects after a pause.
            await send({"type": "websocket.close", "code": 1013, "reason": "unavailable: retry shortly"})
            return None
        await send({"type": "websocket.accept"})
        if refusal is not None:  # accepted first so that the reason reaches the client
            await send({"type": "websocket.close", "code": 1008, "reason": refusal[:120]})
            return None
        if since is not None and since > version:
            since = None  # a version from the future: start again from a snapshot
        after = None
        if seat is not None:  # its legal actions on its states (?legal=true), and after a resume's catch-up
            send, after = for_seat(send, self.gateway.service.reads, match_id, seat, legal == "true",
                                   since is not None)
        # A watcher keeps its account: it writes in the spectators' chat as itself.
        # `hello` first, always: even a ?since= at the match's version hears the socket is live.
        return (hub.join(match_id, send, seat, since, address, asyncio.current_task(), hello=version,
                         compact=updates == "compact", after=after),
                seat, token, key)

    async def _handle(self, hub: Hub, sub: Subscriber, seat: str | None, match_id: str,
                      token: str | None, address: str, text: str | None, key: AccountKey | None = None) -> bool:
        """Answer one message; True when the socket's account credential no longer holds."""
        try:
            message = json.loads(text) if text is not None else None
        except ValueError:
            message = None
        except RecursionError:  # deeper than the parser's stack: refused like any bad JSON
            await self._error(hub, sub, match_id, None, "bad_request", "the JSON is nested too deeply")
            return False
        if not isinstance(message, dict):
            await self._error(hub, sub, match_id, None, "bad_request", "a message is a JSON object, sent as text")
            return False
        kind, ref = message.get("type"), message.get("id")
        if ref is not None and not is_client_id(ref):
            # Never echo it: it may not even encode (a lone surrogate).
            await self._error(hub, sub, match_id, None, "bad_request",
                              "id is 1-64 printable ASCII characters without spaces")
            return False
        if kind == "ping":
            hub.reply(sub, {"type": "pong"})
        elif kind == "pong":
            pass
        elif kind == "action":
            action, version = message.get("action"), message.get("version")
            if isinstance(version, float) and version.is_integer():
                version = int(version)  # 3.0 is the integer 3, as the REST schema says
            if not isinstance(action, dict) or not isinstance(version, int) or isinstance(version, bool):
                await self._error(hub, sub, match_id, ref, "bad_request",
                                  'an action message is {"type": "action", "action": {...}, '
                                  '"version": n, "id": "..."}')
                return False
            if seat is None:
                await self._error(hub, sub, match_id, ref, "unauthorized",
                                  "this socket watches; connect with ?token= to play")
                return False
            return await self._act(hub, sub, match_id, token, address, key, action, version, ref)
        elif kind in CHAT_KINDS and self.chat is not None:
            return await self.chat.handle(self, sub, match_id, token, address, key, message, ref)
        else:
            await self._error(hub, sub, match_id, ref, "bad_request",
                              f"unknown message type {str(kind)[:40]!r}")
        return False

    async def _act(self, hub: Hub, sub: Subscriber, match_id: str, token: str | None, address: str,
                   key: AccountKey | None, action: dict[str, Any], version: int, ref: Any) -> bool:
        try:
            if key is None:
                caller = Caller(token, address)
            elif not await self.still(key):
                await self._error(hub, sub, match_id, ref, "unauthorized",
                                  "the account's token was revoked, its session ended or the account closed")
                return True
            elif (refused := await refused_to_act(self.accounts, key.session is not None, key.account_id,
                                                  key.scopes)) is not None:
                await self._error(hub, sub, match_id, ref, *refused)
                return False
            else:
                caller = Caller(None, address, account_id=key.account_id, account=key.name)
            acted = await self.gateway.play(match_id, caller, action, version, ref)
        except ServiceError as exc:
            # A write over the limit says when to try again, as REST's Retry-After does; id_taken its used_on.
            extra = {k: v for k, v in (("retry_after", getattr(exc, "retry_after", None)),
                                       ("used_on", exc.extra.get("used_on"))) if isinstance(v, int)}
            await self._error(hub, sub, match_id, ref, exc.code, exc.detail, exc.extra.get("version"), extra or None)
            return False
        except Exception as exc:  # REST would answer 503 or 500: say so, live on
            if database_unavailable(exc):
                self.outage.failed("an action over a websocket", exc)
                await self._error(hub, sub, match_id, ref, "unavailable", UNAVAILABLE)
                return False
            log.exception("action over a websocket failed")
            await self._error(hub, sub, match_id, ref, "internal_error",
                              "the server failed to handle this action; try again")
            return False
        hub.reply(sub, {"type": "ack", "id": ref, "version": acted.version, **REPLAYED[acted.duplicate]})
        return False

    async def _error(self, hub: Hub, sub: Subscriber, match_id: str, ref: Any, code: str,
                     detail: str, version: int | None = None, extra: dict[str, Any] | None = None) -> None:
        if version is None:
            version = hub.known_version(match_id)  # what this socket was last told: no database read
        if version is None:
            with contextlib.suppress(Exception):
                version = int((await self.gateway.service.reads.get(match_id))["version"])
        hub.reply(sub, {"type": "error", "id": ref, "error": code, "detail": detail,
                        "version": version, **(extra or {})})


PATH_RE = re.compile(r"/api/v1/matches/([^/]+)/ws")


class SocketsInFront:
    """Sends this route's sockets straight to the endpoint, past the HTTP
    middleware and the router: a socket lives long, and every frame of the stack
    above it is memory held per socket. bench/ws.py's idle measure (10,000
    sockets) found 21.7 KiB per socket with this bypass and 27.6 KiB
    without it (+27%). The HTTP middleware has nothing to do for them: what a
    socket's action needs (limits, the seat, presence) happens in the gateway."""

    def __init__(self, app: Any, socket: MatchSocket) -> None:
        self.app, self.socket = app, socket

    def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        # A plain function handing back the coroutine to await: no frame of its own.
        if scope["type"] == "websocket":
            found = PATH_RE.fullmatch(scope["path"])
            if found is not None:
                return self.socket.serve(scope, receive, send, found.group(1))
        return self.app(scope, receive, send)

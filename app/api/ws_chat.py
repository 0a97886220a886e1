"""The chat's messages on the match's websocket (docs/api.md, "Websocket", chat).

`{"type": "chat_follow"}` makes the socket follow its room: it is told the room
(`chat_room`), then sent the lines said so far and every new one (`chat`), and
the ids of lines an admin hid (`chat_hidden`), until `{"type": "chat_unfollow"}`
(the player turned the chat off: answered `chat_unfollowed`, and sent no line
from then on). `{"type": "chat", "text": ...,
"id": ...}` says a line, answered `chat_ack` or an `error`, exactly as
POST /chat would. The socket's identity is the one it was opened with: its
seat's token, its account (checked again at each line), or nobody.
"""

from __future__ import annotations

import logging
from typing import Any, Protocol

from app.accounts import Accounts
from app.chat import PHRASES, Chat, Relay
from app.db.outage import OutageLog, database_unavailable
from app.kernel.errors import ServiceError
from app.matches import Caller
from app.realtime.hub import Hub, Subscriber

from .caller import refused_to_act
from .errors import UNAVAILABLE

log = logging.getLogger("magery.realtime")
KINDS = ("chat", "chat_follow", "chat_unfollow")


class Key(Protocol):
    """The account a socket was opened with (ws.py's AccountKey)."""

    @property
    def account_id(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def scopes(self) -> tuple[str, ...]: ...
    @property
    def session(self) -> str | None: ...


class Socket(Protocol):
    """What a line needs of the match socket (ws.py's MatchSocket): no import of
    it here, which imports this module."""

    hub: Hub
    outage: OutageLog
    accounts: Accounts | None

    async def still(self, key: Any) -> bool: ...
    async def _error(self, hub: Hub, sub: Subscriber, match_id: str, ref: Any, code: str,
                     detail: str, version: int | None = None) -> None: ...


class SocketChat:
    def __init__(self, chat: Chat, relay: Relay) -> None:
        self.chat, self.relay = chat, relay

    async def handle(self, socket: Socket, sub: Subscriber, match_id: str, token: str | None,
                     address: str, key: Key | None, message: dict[str, Any], ref: Any) -> bool:
        """Answer one chat message; True when the socket's account credential no longer holds."""
        hub: Hub = socket.hub
        if key is not None and not await socket.still(key):
            await socket._error(hub, sub, match_id, ref, "unauthorized",
                                "the account's token was revoked, its session ended or the account closed")
            return True
        if key is None:
            caller = Caller(token, address)
        else:
            caller = Caller(None, address, account_id=key.account_id, account=key.name)
        if message.get("type") == "chat_unfollow":  # nothing to check: it only stops what was asked
            self.relay.leave(match_id, sub)
            hub.reply(sub, {"type": "chat_unfollowed"})
            return False
        try:
            if message.get("type") == "chat_follow":
                who = await self.chat.writer(match_id, caller)
                hub.reply(sub, {"type": "chat_room", "room": who.room, "guest": who.guest,
                                "phrases": list(PHRASES),
                                "muted_until": await self.chat.muted_until(who.account_id)})
                self.relay.follow(match_id, sub, who.room)
                return False
            if key is not None and (refused := await refused_to_act(
                    socket.accounts, key.session is not None, key.account_id, key.scopes)) is not None:
                await socket._error(hub, sub, match_id, ref, *refused)
                return False
            line = await self.chat.post(match_id, caller, message.get("text"), message.get("room"))
        except ServiceError as exc:
            await socket._error(hub, sub, match_id, ref, exc.code, exc.detail)
            return False
        except Exception as exc:
            if not database_unavailable(exc):
                log.exception("chat over a websocket failed")
                await socket._error(hub, sub, match_id, ref, "internal_error", "the server failed to take this line")
                return False
            socket.outage.failed("a chat line over a websocket", exc)
            await socket._error(hub, sub, match_id, ref, "unavailable", UNAVAILABLE)
            return False
        hub.reply(sub, {"type": "chat_ack", "id": ref, "line": line})
        return False

    def leave(self, match_id: str, sub: Subscriber) -> None:
        self.relay.leave(match_id, sub)

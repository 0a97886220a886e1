"""New and hidden chat lines carried to this process's sockets of a match.

A socket asks to follow its match's chat (`{"type": "chat_follow"}`); from then
on it is sent its room's lines, the ones already said first. One task per
match with followers here reads the match's lines when a nudge
(`chat:<match id>`) wakes it, or every `poll_seconds` should a nudge be lost,
and sends each room what it has not been sent: new lines, and the ids of lines
an admin hid. Nothing but a line's public fields leaves (service.shown).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from app.realtime.nudges import Nudges, Waiter

from .service import Chat, key_of, shown

log = logging.getLogger("magery.chat")

Send = Callable[[Any, dict[str, Any]], None]  # (socket handle, message): the hub's reply


class _Match:
    """One match's followers here, and what each room was sent."""

    __slots__ = ("followers", "sent", "task", "waiter")

    def __init__(self) -> None:
        self.followers: dict[Any, str] = {}  # socket handle → its room
        self.sent: dict[Any, set[int]] = {}  # socket handle → the line ids it was sent
        self.task: asyncio.Task[None] | None = None
        self.waiter: Waiter | None = None


class Relay:
    def __init__(self, chat: Chat, nudges: Nudges, send: Send, poll_seconds: float = 10.0) -> None:
        self.chat, self.nudges, self.send, self.poll_seconds = chat, nudges, send, poll_seconds
        self._matches: dict[str, _Match] = {}

    def follow(self, match_id: str, sub: Any, room: str) -> None:
        """Send `sub` its room's lines from now on (the earlier ones first)."""
        held = self._matches.get(match_id)
        if held is None or held.task is None or held.task.done():
            held = self._matches[match_id] = held or _Match()
            held.task = asyncio.create_task(self._run(match_id, held), name=f"chat-relay-{match_id}")
        held.followers[sub] = room
        held.sent[sub] = set()
        if held.waiter is not None:
            held.waiter.ring()

    def leave(self, match_id: str, sub: Any) -> None:
        held = self._matches.get(match_id)
        if held is not None:
            held.followers.pop(sub, None)
            held.sent.pop(sub, None)
            if not held.followers and held.waiter is not None:
                held.waiter.ring()  # its task ends

    def following(self) -> int:
        """Matches with a follower here (for tests)."""
        return sum(1 for m in self._matches.values() if m.followers)

    async def close(self) -> None:
        for held in list(self._matches.values()):
            if held.task is not None:
                held.task.cancel()
        self._matches.clear()

    async def _run(self, match_id: str, held: _Match) -> None:
        try:
            with self.nudges.listen(key_of(match_id)) as waiter:
                held.waiter = waiter
                while held.followers:
                    try:
                        await self._deliver(match_id, held)
                    except Exception:  # the database away: the next wake or poll tries again
                        log.warning("chat relay of match %s could not read its lines", match_id, exc_info=True)
                    if held.followers:
                        await waiter.wait(self.poll_seconds)
        finally:
            held.waiter = None
            if self._matches.get(match_id) is held and not held.followers:
                del self._matches[match_id]

    async def _deliver(self, match_id: str, held: _Match) -> None:
        rows = await self.chat.lines(match_id)
        for sub, room in list(held.followers.items()):
            sent = held.sent.get(sub)
            if sent is None:
                continue
            mine = [r for r in rows if r.room == room]
            new = [shown(r) for r in mine if r.hidden_at is None and r.id not in sent]
            gone = [r.id for r in mine if r.hidden_at is not None and r.id in sent]
            if new:
                self.send(sub, {"type": "chat", "room": room, "lines": new})
                sent.update(line["id"] for line in new)
            if gone:
                self.send(sub, {"type": "chat_hidden", "room": room, "ids": gone})
                sent.difference_update(gone)

"""New and hidden chat lines carried to this process's sockets of a match.

A socket asks to follow its match's chat (`{"type": "chat_follow"}`); from then
on it is sent its room's lines, the ones already said first. One task per
match with followers here reads the match's lines when a nudge
(`chat:<match id>`) wakes it, or every `poll_seconds` should a nudge be lost,
and sends each room what it has not been sent: new lines, and the ids of lines
an admin hid. Nothing but a line's public fields leaves (service.shown).

A match's stream (app/api/match_stream.py) follows as a reader of lines said
from its opening on (`after`: the newest line then): each is sent as its own
`chatLine` message, and nothing is taken back (a stream's lines are not a
screen: a line hidden before it went out is never sent).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from app.realtime.nudges import Nudges, Waiter

from .service import Chat, chat_line, key_of, shown

log = logging.getLogger("magery.chat")

Send = Callable[[Any, dict[str, Any]], None]  # (socket handle, message): the hub's reply


class _Match:
    """One match's followers here, and what each room was sent."""

    __slots__ = ("after", "followers", "sent", "task", "waiter")

    def __init__(self) -> None:
        self.followers: dict[Any, str] = {}  # socket handle → its room
        self.sent: dict[Any, set[int]] = {}  # socket handle → the line ids it was sent
        self.after: dict[Any, int] = {}  # a stream's handle → the newest line when it opened
        self.task: asyncio.Task[None] | None = None
        self.waiter: Waiter | None = None


class Relay:
    def __init__(self, chat: Chat, nudges: Nudges, send: Send, poll_seconds: float = 10.0) -> None:
        self.chat, self.nudges, self.send, self.poll_seconds = chat, nudges, send, poll_seconds
        self._matches: dict[str, _Match] = {}

    def follow(self, match_id: str, sub: Any, room: str, after: int | None = None) -> None:
        """Send `sub` its room's lines from now on (the earlier ones first); with
        `after`, a stream's: only the lines after that one, each a `chatLine`."""
        held = self._matches.get(match_id)
        if held is None or held.task is None or held.task.done():
            held = self._matches[match_id] = held or _Match()
            held.task = asyncio.create_task(self._run(match_id, held), name=f"chat-relay-{match_id}")
        held.followers[sub] = room
        held.sent[sub] = set()
        if after is not None:
            held.after[sub] = after
        if held.waiter is not None:
            held.waiter.ring()

    def leave(self, match_id: str, sub: Any) -> None:
        held = self._matches.get(match_id)
        if held is not None:
            held.followers.pop(sub, None)
            held.sent.pop(sub, None)
            held.after.pop(sub, None)
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
            after = held.after.get(sub)
            if after is not None:  # a stream's: each new line on its own
                for row in mine:
                    if row.id > after and row.hidden_at is None and row.id not in sent:
                        self.send(sub, chat_line(row))
                        sent.add(row.id)
                continue
            new = [shown(r) for r in mine if r.hidden_at is None and r.id not in sent]
            gone = [r.id for r in mine if r.hidden_at is not None and r.id in sent]
            if new:
                self.send(sub, {"type": "chat", "room": room, "lines": new})
                sent.update(line["id"] for line in new)
            if gone:
                self.send(sub, {"type": "chat_hidden", "room": room, "ids": gone})
                sent.difference_update(gone)

"""The pub/sub bus between server processes: a screen long, two backends.

A process that commits an action delivers the updates to its own sockets at once
(it holds them) and announces `(match id, version)` on the bus; every other process
hears the announcement and fetches the updates it lacks from the database, which
holds the log, the truth. Payloads stay small and carry no secret. Presence
(which seats and how many spectators one process holds for a match) travels the
same way so that every process can add up the whole picture.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True, slots=True)
class Announcement:
    """An action landed: `match_id` is now at `version` (sent by process `origin`)."""

    origin: str
    match_id: str
    version: int

    def encode(self) -> str:
        return f"v|{self.origin}|{self.match_id}|{self.version}"


@dataclass(frozen=True, slots=True)
class Presence:
    """What process `origin` holds of a match: sockets per seat and spectators.

    `hello` asks the other processes holding the match to say what they hold.
    """

    origin: str
    match_id: str
    white: int
    black: int
    spectators: int
    hello: bool = False

    def encode(self) -> str:
        return (f"p|{self.origin}|{self.match_id}|{self.white}|{self.black}"
                f"|{self.spectators}|{int(self.hello)}")


@dataclass(frozen=True, slots=True)
class Nudge:
    """Something about `key` changed: its waiters read the database again (nudges.py)."""

    origin: str
    key: str

    def encode(self) -> str:
        return f"n|{self.origin}|{self.key}"


Message = Announcement | Presence | Nudge


def decode(payload: str) -> Message | None:
    """The message a payload carries, or None for anything malformed."""
    parts = payload.split("|")
    try:
        if parts[0] == "v" and len(parts) == 4:
            return Announcement(parts[1], parts[2], int(parts[3]))
        if parts[0] == "n" and len(parts) == 3:
            return Nudge(parts[1], parts[2])
        if parts[0] == "p" and len(parts) == 7:
            return Presence(parts[1], parts[2], int(parts[3]), int(parts[4]), int(parts[5]),
                            parts[6] == "1")
    except ValueError:
        return None
    return None


class Bus(Protocol):
    """Carries messages between processes; never the only way a socket catches up."""

    async def start(self, on_message: Callable[[Message], None],
                    on_reconnect: Callable[..., None]) -> None:
        """Deliver what other processes send to `on_message`; call `on_reconnect()` after
        a lost link comes back (messages may have been missed: catch up from the DB),
        and `on_reconnect(match_ids)` when it begins to hear these followed matches
        (a bus that carries only what is followed: what came before is in the DB)."""

    def send(self, message: Message) -> None:
        """Queue `message` for the other processes; never blocks, never raises."""

    def follow(self, match_id: str) -> None:
        """This process wants the match's announcements and presence (a room of
        sockets, a page waiting on it) until as many `unfollow`s. A bus that
        carries every match to every process (memory, PostgreSQL) ignores it."""

    def unfollow(self, match_id: str) -> None: ...

    async def close(self) -> None: ...


class MemoryBus:
    """One process. Buses made on the same `channel` hear each other, which lets a
    test run two "processes" in one; a lone bus (the default, SQLite) hears nothing."""

    def __init__(self, channel: list[Callable[[Message], None]] | None = None) -> None:
        self._channel = channel if channel is not None else []
        # No other bus can ever join a channel made here: every commit to the
        # database is this process's own, so what it holds is never behind.
        self.alone = channel is None
        self._mine: Callable[[Message], None] | None = None

    async def start(self, on_message: Callable[[Message], None],
                    on_reconnect: Callable[[], None]) -> None:
        self._mine = on_message
        self._channel.append(on_message)

    def follow(self, match_id: str) -> None:
        """Every bus on the channel hears every match."""

    def unfollow(self, match_id: str) -> None:
        """Every bus on the channel hears every match."""

    def send(self, message: Message) -> None:
        if self._mine is not None and self._mine not in self._channel:
            return  # closed: like the PostgreSQL bus, it carries nothing more
        for listener in list(self._channel):
            if listener is not self._mine:
                listener(message)

    async def close(self) -> None:
        if self._mine in self._channel:
            self._channel.remove(self._mine)

"""The per-process hub: which sockets watch which match, behind a small face.

The face is all that the socket endpoint (app/api/ws.py) and the metrics
(app/ops/metrics.py) use; tests/realtime/test_hub_face.py holds them to it:

- life: `start()`, `close_sockets()`, `close()`, `closed`;
- commits: `publish(match_id, updates)` (the match service's publisher);
- other news of a match: `tell(match_id, message)`, `watched(match_id)`;
- sockets: `reserve(address)` / `release(address)` (the cap per address,
  `sockets_per_address`), `join(...)` (a handle back), `note_seat(handle)`,
  `heard_from(handle)`, `reply(handle, message)`, `close_socket(handle, ...)`,
  `dropped(handle)`, `leave(handle)`;
- what it knows: `known_version(match_id)`, `vouched(match_id)`, `holds_seat(match_id, colour)`,
  `counts()`.

A handle (a `Subscriber`) is only given back to the hub, never read. Behind
the face: the send path of one match's sockets (room.py), who is at a match and
what the database is told of it (presence.py), the heartbeat (heartbeat.py)
and the open-files watch (open_files.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from app.db.outage import OutageLog
from app.kernel.moments import now_stamp
from app.rules import COLOURS

from .bus import Announcement, Bus, MemoryBus, Message, Nudge
from .frames import frame
from .heartbeat import Heartbeat
from .nudges import Nudges
from .open_files import OpenFiles, raise_soft_limit
from .per_address import PerAddress
from .presence import SeatPresence
from .room import CATCH_UP, RESYNC, After, Later, Room, Send, Subscriber
from .service import MatchSource

__all__ = ["Hub", "MatchSource", "SocketCounts", "Subscriber"]

CLOSE_WAIT_SECONDS = 5.0  # how long a socket closed for cause waits for its close frame to leave


# The nudge key a commit of a match rings on every process, no extra bus message:
# the page channels of its players listen to it (app/people/channel.py).
MATCH_CHANGED = "person:m:"


class SocketCounts(NamedTuple):
    """This process's open sockets: of seats, of spectators; and the matches they watch."""

    seats: int
    spectators: int
    matches: int


class Hub:
    """Implements the match service's publisher: `await hub.publish(match_id, updates)`."""

    def __init__(self, source: MatchSource, bus: Bus | None = None, *, queue_limit: int = 256,
                 ping_seconds: float = 10.0, dead_after_seconds: float = 30.0,
                 presence_delay: float = 0.05, sockets_per_address: int = 0,
                 open_files: OpenFiles | None = None, outage: OutageLog | None = None,
                 by_address: PerAddress | None = None) -> None:
        self.source = source
        # Told of every failure to reach the database here (the rooms' and presence's too).
        self.outage = outage if outage is not None else OutageLog()
        self.bus: Bus = bus if bus is not None else MemoryBus()
        self.origin = uuid.uuid4().hex[:12]
        # Wake-ups by key for the wings that keep a person waiting (pools, challenges, chat).
        self.nudges = Nudges(self.origin, self.bus.send, watching=self._watching)
        self.queue_limit = queue_limit
        self.ping_seconds = ping_seconds
        self.dead_after = dead_after_seconds
        self.presence_delay = presence_delay
        self.rooms: dict[str, Room] = {}
        # Sockets open (or opening) per client address, capped (0: no cap): in
        # this process, or over every process (`by_address`, held_in_redis.py).
        self.sockets_per_address = sockets_per_address
        self.by_address = by_address if by_address is not None else PerAddress(sockets_per_address)
        self.open_files = open_files if open_files is not None else OpenFiles()
        self.seat_presence = SeatPresence(source, self.outage)
        self._heartbeat: asyncio.Task[None] | None = None
        self.closed = False  # sockets closed (and new ones refused): shutting down
        self._bus_closed = False

    async def start(self) -> None:
        raise_soft_limit()
        await self.bus.start(self._on_bus_message, self._on_bus_back)
        self._heartbeat = asyncio.create_task(Heartbeat(self, frame({"type": "ping"})).run(), name="hub-heartbeat")

    async def close_sockets(self, code: int = 1001, reason: str = "server shutting down",
                            timeout: float = 2.0) -> None:
        """Close every socket with `code` (1001: clients reconnect elsewhere) and
        refuse new ones; the bus stays open, so what requests still in flight
        commit is still announced to the other processes."""
        if self.closed:
            return
        self.closed = True
        self.nudges.everyone()  # the long-held waits (a page's channel) see `closed` and end
        if self._heartbeat is not None:
            self._heartbeat.cancel()
        writers = []
        for room in list(self.rooms.values()):
            if room.presence_timer is not None:
                room.presence_timer.cancel()
            for sub in list(room.subscribers):
                sub.close(code, reason)
                if sub.writer is not None:
                    writers.append(sub.writer)
        if writers:
            await asyncio.wait(writers, timeout=timeout)

    async def close(self, code: int = 1001, reason: str = "server shutting down",
                    timeout: float = 2.0) -> None:
        """Close every socket (if not yet done), then the bus."""
        await self.close_sockets(code, reason, timeout)
        if not self._bus_closed:
            self._bus_closed = True
            await self.bus.close()

    # -- the publisher the match service calls after each commit ------------------

    def hears_words(self, match_id: str) -> bool:
        """Only a room's sockets read an update's words (the bus carries a version)."""
        return match_id in self.rooms

    async def publish(self, match_id: str, updates: Sequence[Mapping[str, Any]]) -> None:
        if not updates or updates[-1]["type"] != "update":  # e.g. "created": nothing to show yet
            return
        room = self.rooms.get(match_id)
        if room is not None:
            room.broadcast(updates)
        self.nudges.here(MATCH_CHANGED + match_id)  # its players' page channels (app/challenges)
        self.bus.send(Announcement(self.origin, match_id, updates[-1]["version"]))

    def tell(self, match_id: str, message: dict[str, Any]) -> int:
        """Send `message` to every socket and stream of the match on this process
        (news of the match that is not one of its versions: its analysis);
        answers how many."""
        room = self.rooms.get(match_id)
        if room is None:
            return 0
        told = frame(message)
        subscribers = list(room.subscribers)
        for sub in subscribers:
            sub.offer(None, told)
        return len(subscribers)

    def watched(self, match_id: str) -> bool:
        """Whether a socket or stream here watches the match."""
        room = self.rooms.get(match_id)
        return room is not None and bool(room.subscribers)

    # -- sockets ---------------------------------------------------------------

    async def reserve(self, address: str) -> bool:
        """Count one more socket of `address`, or answer False when it holds its cap."""
        if not await self.by_address.claim(address):
            return False
        self.open_files.check()
        return True

    def release(self, address: str) -> None:
        self.by_address.give_back(address)

    def join(self, match_id: str, send: Send, seat: str | None, since: int | None,
             address: str | None = None, receiver: asyncio.Task[Any] | None = None,
             hello: int | None = None, compact: bool = False, after: After | None = None) -> Subscriber:
        """Register a socket; it is sent a snapshot (or, with `since`, what it missed)
        before anything new. Registering before reading the database means no update
        can fall between the two. `address`: the client's, for spectators (counted
        by distinct address); None counts the socket as a watcher
        of its own. `receiver`: the socket's receive loop, which the heartbeat ends
        when the socket's close frame never leaves (a peer that stopped reading).
        `hello`: the match's version at opening; a `hello` message then goes
        first, whatever follows (`greeting`). `compact`: the socket takes `delta`
        messages where they can be trusted (room.py, changes.py). `after`: with
        `since`, called with the version the socket holds once what it missed went
        out (nothing, updates or a snapshot); the message it answers follows."""
        room = self.rooms.get(match_id)
        if room is None:
            room = self.rooms[match_id] = Room(self, match_id)
            self.bus.follow(match_id)  # a bus in lanes hears the match from now on
        sub = Subscriber(room, send, seat, address, receiver, compact)
        room.add(sub)
        if hello is not None:
            sub.offer(None, frame(greeting(room, hello, seat)))
        if since is None or since < 0:
            sub.offer(None, RESYNC)
        else:
            sub.sent = since
            sub.offer(None, CATCH_UP)
            if after is not None:
                sub.offer(None, Later(after))
        return sub

    async def note_seat(self, sub: Subscriber) -> None:
        """The socket's seat is held here: when it is the seat's first socket in this
        process, the database hears so before the socket reads anything (REST
        shows the seat connected). A spectator's socket: nothing."""
        room, seat = sub.room, sub.seat
        if seat is not None and room.headcount.seats[seat] == 1:
            await self.seat_presence.say(room, seat)

    def heard_from(self, sub: Subscriber) -> None:
        """The client said something: it is alive (no ping needed yet)."""
        sub.last_heard = time.monotonic()

    def reply(self, sub: Subscriber, message: dict[str, Any]) -> None:
        """Send `message` to this socket alone, after what is queued for it."""
        sub.offer(None, frame(message))

    async def close_socket(self, sub: Subscriber, code: int, reason: str) -> None:
        """Close this socket with `code` after what is queued for it, and wait (a
        while) for the close frame to be written."""
        sub.close(code, reason)
        if sub.writer is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(sub.writer), CLOSE_WAIT_SECONDS)

    def dropped(self, sub: Subscriber) -> bool:
        """The hub ended this socket's receive loop (its close frame never left): a
        cancellation that is the hub's doing, not the server's."""
        return bool(sub.closing) and sub.receiver is None

    async def leave(self, sub: Subscriber) -> None:
        """The socket is gone; when it was its seat's last one here, the database
        hears so (unless another process holds the seat: that one says)."""
        sub.closing = sub.closing or time.monotonic()
        sub.queue = None
        room = sub.room
        if not room.remove(sub):
            return
        if not room.subscribers:
            # Keep the room until its presence has gone out on the bus.
            loop = asyncio.get_running_loop()
            loop.call_later(self.presence_delay + 0.01, self._drop_if_empty, room)
        seat = sub.seat
        if seat is not None and room.headcount.seats[seat] == 0:
            await self.seat_presence.say(room, seat)

    def _drop_if_empty(self, room: Room) -> None:
        if not room.subscribers and self.rooms.get(room.match_id) is room:
            if room.presence_timer is not None:
                room.presence_timer.cancel()
                room.flush_presence()
            del self.rooms[room.match_id]
            self.bus.unfollow(room.match_id)

    # -- what it knows -----------------------------------------------------------

    def known_version(self, match_id: str) -> int | None:
        """The match's newest version as this process holds it (what its sockets were
        last told), or None when it holds none: then ask the database."""
        room = self.rooms.get(match_id)
        if room is None or room.state is None:
            return None
        return room.latest

    def vouched(self, match_id: str) -> int | None:
        """The match's newest version when this process may answer for it from what
        it holds: its sockets' room holds that version's state, read or committed
        while the bus carried the match here, and the bus announced nothing newer
        (nor is a catch-up under way). None: ask the database. The wiring asks it only
        in a process whose bus no other process can join (app/wiring.py): there every
        commit is this process's own, so the room is never behind the database."""
        room = self.rooms.get(match_id)
        if room is None or room.state is None or room.filling is not None or not room.subscribers:
            return None
        latest = room.latest
        if room.newest_elsewhere > latest or (room.version is not None and room.version > latest):
            return None
        return latest

    def holds_seat(self, match_id: str, colour: str) -> bool:
        """Whether a socket of this seat is open here: the heartbeat then writes the
        seat seen, every `ping_seconds`, with every other seat it holds (one statement)."""
        room = self.rooms.get(match_id)
        return room is not None and room.headcount.seats.get(colour, 0) > 0

    def counts(self) -> SocketCounts:
        seats = spectators = matches = 0
        for room in list(self.rooms.values()):
            held_seats, held_spectators = room.headcount.sockets()
            seats, spectators = seats + held_seats, spectators + held_spectators
            matches += bool(room.subscribers)
        return SocketCounts(seats, spectators, matches)

    # -- the bus -----------------------------------------------------------------

    def _on_bus_message(self, message: Message) -> None:
        if message.origin == self.origin:
            return
        if isinstance(message, Nudge):
            self.nudges.heard(message)
            return
        if isinstance(message, Announcement):
            self.nudges.here(MATCH_CHANGED + message.match_id)
        room = self.rooms.get(message.match_id)
        if room is None:
            return
        if isinstance(message, Announcement):
            room.committed_elsewhere(message.version)
            return
        room.other_said(message.origin, (message.white, message.black, message.spectators), message.hello)
        if message.hello:  # write the seats held here again, after whatever the asker wrote
            self.seat_presence.say_soon(room, room.headcount.held())

    def _watching(self, key: str, watched: bool) -> None:
        """A page waits on a match's commits here (its person channel): a bus in
        lanes must carry that match to this process even with no socket of it."""
        if key.startswith(MATCH_CHANGED):
            match_id = key[len(MATCH_CHANGED):]
            (self.bus.follow if watched else self.bus.unfollow)(match_id)

    def _on_bus_back(self, match_ids: list[str] | None = None) -> None:
        """Announcements may have been missed (of `match_ids`, or of any match):
        bring those rooms up to date."""
        if match_ids is not None:  # a lane newly heard: its matches alone
            for match_id in match_ids:
                self.nudges.here(MATCH_CHANGED + match_id)
            rooms = [self.rooms[m] for m in match_ids if m in self.rooms]
        else:
            self.nudges.everyone()  # and every waiter reads its truth again
            rooms = list(self.rooms.values())
        for room in rooms:
            room.state = None  # it may be behind: the next snapshot comes from the database
            room.bus_returned()
            for sub in room.subscribers:
                sub.offer(None, CATCH_UP)


def greeting(room: Room, version: int, seat: str | None) -> dict[str, Any]:
    """A socket's first message, sent even when nothing else is due (a `?since=`
    at the match's version): the socket is live, at `version`, as `seat`, and
    who is here as this process knows it now (a `presence` follows a change)."""
    white, black, spectators = room.headcount.totals()
    players = (room.state or {}).get("players") or {}
    here = {colour: connected or bool((players.get(colour) or {}).get("bot"))
            for colour, connected in zip(COLOURS, (white, black), strict=True)}
    return {"type": "hello", "version": version, "seat": seat, "connected": here,
            "spectators": spectators, "server_time": now_stamp()}

"""The per-process hub: which sockets watch which match, and what each was sent.

A broadcast hands each socket the message at once when the socket can take it
(nothing queued, the transport writable: no task, no copy). Otherwise the socket
gets its own bounded queue and its own writer task until it has caught up, so a
slow reader only ever delays itself. A socket is handed
updates in version order with no gap and no duplicate: it remembers the last
version it was sent, skips what it already has and fills any hole from the
database (the log is the truth), or gets a fresh snapshot when the hole is too
old or its queue overflowed. A broadcast encodes its JSON once for the room.

Over 400 lines because Subscriber, Room and Hub are one send path, tuned
together against bench/ws.py (memory per socket, CPU per recipient); each
reaches into the others' state on that path, so apart they would import each
other in a cycle. What the database is told of the seats held here lives in
presence.py (reading a room through a protocol), the open-files watch in
open_files.py, and the heartbeat (pings, dead sockets, presence said again and
judged for silent processes) in heartbeat.py.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
import uuid
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from app.db.outage import database_unavailable, outage
from app.rules import COLOURS

from .bus import Announcement, Bus, MemoryBus, Message, Presence
from .heartbeat import Heartbeat
from .open_files import OpenFiles, raise_soft_limit
from .presence import SeatPresence

log = logging.getLogger("magery.realtime")

Send = Callable[[dict[str, Any]], Awaitable[None]]


class MatchSource(Protocol):
    """What the hub reads from the match service (the database behind it)."""

    async def snapshot(self, match_id: str) -> dict[str, Any] | None:
        """The public state now (it carries its `version`), or None: no such match."""

    async def updates_since(self, match_id: str, version: int) -> list[dict[str, Any]] | None:
        """The contract's update messages after `version`, in order; None when the
        log cannot say (too old, or no such match)."""

    async def seat_presence(self, match_id: str, colour: str, connected: bool) -> None:
        """A seat's first socket in this process opened, or its last one closed."""

    async def touch(self, seats: list[tuple[str, str]]) -> None:
        """These seats (match id, colour) hold a socket here: connected, seen now
        (one statement for them all)."""

    async def seats_here(self, match_ids: list[str]) -> dict[str, dict[str, bool]]:
        """Which seats of these matches are here, by the rule REST shows:
        {match id: {colour: bool}} (a match or seat left out is not here)."""


def dumps(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def frame(message: dict[str, Any]) -> dict[str, Any]:
    """The ASGI send event for `message`: encoded once, shareable by every socket."""
    return {"type": "websocket.send", "text": dumps(message)}


LIVE = ("players", "spectators", "clock")  # what a snapshot says as of the moment it is sent
RESYNC = object()  # queue marker: send a fresh snapshot
CATCH_UP = object()  # queue marker: send what the log holds after the last version sent


class _Resume:
    """Awaits the rest of a coroutine that was started by hand and suspended on `future`."""

    __slots__ = ("coro", "future")

    def __init__(self, coro: Any, future: Any) -> None:
        self.coro, self.future = coro, future

    def __await__(self) -> Any:
        waiting = self.future
        while True:
            try:
                yield waiting
            except BaseException as exc:
                try:
                    waiting = self.coro.throw(exc)
                except StopIteration as done:
                    return done.value
            else:
                try:
                    waiting = self.coro.send(None)
                except StopIteration as done:
                    return done.value


class Subscriber:
    """One socket of a match, as the hub sees it."""

    __slots__ = ("hub", "room", "send", "seat", "watcher", "queue", "sent", "writer", "heard",
                 "pinged", "closing", "task")

    def __init__(self, hub: Hub, room: Room, send: Send, seat: str | None, watcher: Any = None) -> None:
        self.hub, self.room, self.send, self.seat = hub, room, send, seat
        # Who watches (a spectator's address): the room counts distinct watchers.
        self.watcher = watcher if watcher is not None else self
        self.queue: deque[Any] | None = None  # made when something has to wait
        self.sent = -1  # the last version this socket was sent
        self.writer: asyncio.Task[None] | None = None
        self.heard = self.pinged = time.monotonic()
        self.closing = 0.0  # when the socket was told to close (0: open)
        self.task: asyncio.Task[Any] | None = None  # the socket's receive loop

    def offer(self, version: int | None, event: Any) -> None:
        """Send an update (with its version) or any other event (version None) after
        what this socket already waits to send."""
        if self.closing:
            return
        if self.writer is None and not self.queue and isinstance(event, dict):
            # Nothing waits: send now, in the broadcaster's stride. A task (the writer)
            # is only made when the socket cannot take the message at once.
            if version is not None:
                if version <= self.sent:
                    return
                if version != self.sent + 1:
                    self._enqueue(version, event)
                    return
                self.sent = version
            self._send_now(event)
            return
        self._enqueue(version, event)

    def _enqueue(self, version: int | None, event: Any) -> None:
        queue = self.queue
        if queue is None:
            queue = self.queue = deque()
        elif len(queue) >= self.hub.queue_limit:
            # Too far behind to catch up message by message: start again from a snapshot.
            queue.clear()
            queue.append((None, RESYNC))
        queue.append((version, event))
        if self.writer is None:
            self.writer = asyncio.get_running_loop().create_task(self._write(None))

    def _send_now(self, event: dict[str, Any]) -> None:
        coro: Any = self.send(event)
        if not asyncio.iscoroutine(coro):  # some other awaitable: the writer awaits it
            self.writer = asyncio.get_running_loop().create_task(self._write(coro))
            return
        try:  # run it to its first suspension, if any
            waiting = coro.send(None)
        except StopIteration:
            return
        except Exception as exc:
            self._gone(exc)
            return
        self.writer = asyncio.get_running_loop().create_task(self._write(_Resume(coro, waiting)))

    def _gone(self, exc: BaseException) -> None:
        log.debug("socket writer stopped: %r", exc)
        self.closing = self.closing or time.monotonic()
        self.queue = None

    def close(self, code: int, reason: str = "") -> None:
        """Send nothing more but a close frame."""
        if self.closing:
            return
        self.queue = None
        self.offer(None, {"type": "websocket.close", "code": code, "reason": reason})
        self.closing = time.monotonic()

    async def _write(self, started: Any) -> None:
        try:
            if started is not None:  # the rest of a send that could not finish at once
                await started
            while self.queue:
                version, event = self.queue.popleft()
                if event is RESYNC:
                    await self._snapshot()
                elif event is CATCH_UP:
                    await self._catch_up(None)
                elif version is None:
                    await self.send(event)
                elif version > self.sent:
                    if version > self.sent + 1:
                        await self._catch_up(version - 1)
                    if version == self.sent + 1:
                        await self.send(event)
                        self.sent = version
        except Exception as exc:  # the client is gone: its receive loop ends it all
            self._gone(exc)
        finally:
            self.writer = None

    async def _snapshot(self) -> None:
        room = self.room
        if room.state is None:
            state = await self.hub.source.snapshot(room.match_id)
            if state is None:
                return
            room.remember(state)
        assert room.state is not None
        version = room.state["version"]
        await self.send(room.snapshot())
        self.sent = version

    async def _catch_up(self, upto: int | None) -> None:
        """Send the log's updates after `self.sent` (through `upto` at least), or a snapshot."""
        updates = await self.hub.source.updates_since(self.room.match_id, self.sent)
        if updates is None or (upto is not None and (not updates or updates[-1]["version"] < upto)):
            await self._snapshot()
            return
        for update in updates:
            if update["version"] == self.sent + 1:
                self.room.remember(update["match"])
                await self.send(frame(self.room.wire(update)))
                self.sent = update["version"]


class Room:
    """The sockets of one match in this process, and the presence of all processes."""

    def __init__(self, hub: Hub, match_id: str) -> None:
        self.hub, self.match_id = hub, match_id
        self.subscribers: set[Subscriber] = set()
        self.version: int | None = None  # the last version broadcast to this room
        self.target = 0  # the last version announced by another process
        self.filling: asyncio.Task[None] | None = None
        self.state: dict[str, Any] | None = None  # the newest public state seen here
        self.state_at = 0.0
        self._snapshot_head: str | None = None
        self.local = {"white": 0, "black": 0, "spectators": 0}  # spectators: distinct watchers
        self.watchers: dict[Any, int] = {}  # a spectator's address: its sockets here
        self.remote: dict[str, tuple[int, int, int]] = {}
        self.remote_heard: dict[str, float] = {}  # when each other process last said its counts
        self.shown: tuple[bool, bool, int] | None = None  # the presence last broadcast
        self.announced: tuple[int, int, int] | None = None  # the counts last sent on the bus
        self.presence_timer: asyncio.TimerHandle | None = None
        self.hello = True

    # -- presence ---------------------------------------------------------------

    def set_remote(self, origin: str, white: int, black: int, spectators: int) -> bool:
        """What another process holds now; answers whether it changed."""
        counts = (white, black, spectators)
        if room_counts := self.remote.get(origin):
            if room_counts == counts:
                return False
        elif not any(counts):
            return False
        if any(counts):
            self.remote[origin] = counts
        else:
            self.remote.pop(origin, None)
            self.remote_heard.pop(origin, None)
        return True

    def seat_elsewhere(self, colour: str) -> bool:
        """Another process holds a socket of this seat."""
        index = COLOURS.index(colour)
        return any(counts[index] for counts in self.remote.values())

    def counts(self) -> tuple[bool, bool, int]:
        white, black, spectators = self.local["white"], self.local["black"], self.local["spectators"]
        for w, b, s in self.remote.values():
            white, black, spectators = white + w, black + b, spectators + s
        return white > 0, black > 0, spectators

    def players_view(self, counts: tuple[bool, bool, int],
                     players: Any = None) -> dict[str, Any]:
        if not isinstance(players, dict):
            players = (self.state or {}).get("players") or {}
        view: dict[str, Any] = {}
        for colour, connected in zip(COLOURS, counts[:2], strict=True):
            player = players.get(colour)
            if isinstance(player, dict):  # a bot is always there
                view[colour] = {**player, "connected": connected or bool(player.get("bot"))}
            else:
                view[colour] = player
        return view

    def patch(self, state: dict[str, Any]) -> dict[str, Any]:
        """`state` with this moment's presence: who is connected, how many watch."""
        counts = self.counts()
        return {**state, "players": self.players_view(counts, state.get("players")),
                "spectators": counts[2]}

    def wire(self, update: dict[str, Any]) -> dict[str, Any]:
        return {**update, "match": self.patch(update["match"])}

    def remember(self, state: dict[str, Any]) -> None:
        """Keep the newest state seen: new sockets start from it without a database
        read (whatever lands after it reaches them as updates, or fills a gap)."""
        if self.state is None or state["version"] >= self.state["version"]:
            self.state, self.state_at, self._snapshot_head = state, time.time(), None

    @property
    def latest(self) -> int:
        return int(self.state["version"]) if self.state is not None else 0

    def snapshot(self) -> dict[str, Any]:
        """The snapshot event of the newest state. The bulk of its JSON is encoded once
        per version; only what lives (presence, the running clock) is added per socket."""
        state = self.state
        assert state is not None
        if self._snapshot_head is None:
            rest = dumps({k: v for k, v in state.items() if k not in LIVE})
            self._snapshot_head = '{"type":"snapshot","match":' + rest[:-1] + ("," if len(rest) > 2 else "")
        counts = self.counts()
        live: dict[str, Any] = {"players": self.players_view(counts, state.get("players")),
                                "spectators": counts[2]}
        clock = state.get("clock")
        if isinstance(clock, dict) and clock.get("running") in COLOURS and state.get("status") == "active":
            running = clock["running"]
            spent = int((time.time() - self.state_at) * 1000)
            clock = {**clock, running: max(0, clock[running] - spent)}
        elif isinstance(clock, dict) and isinstance(clock.get("setup"), int) and state.get("status") == "active":
            spent = int((time.time() - self.state_at) * 1000)  # the setup time runs instead of a clock
            clock = {**clock, "setup": max(0, clock["setup"] - spent)}
        live["clock"] = clock
        return {"type": "websocket.send", "text": self._snapshot_head + dumps(live)[1:] + "}"}

    def presence_changed(self, seats: bool = False) -> None:
        """Say so soon: at once-ish for a seat, more lazily the bigger the audience
        (a spectator count is not worth a broadcast per arrival to 10,000 sockets)."""
        delay = self.hub.presence_delay
        if not seats:
            delay = min(5.0, delay * max(1.0, len(self.subscribers) / 20))
        loop = asyncio.get_running_loop()
        due = loop.time() + delay
        if self.presence_timer is not None:
            if self.presence_timer.when() <= due:
                return
            self.presence_timer.cancel()
        self.presence_timer = loop.call_at(due, self.flush_presence)

    def flush_presence(self) -> None:
        self.presence_timer = None
        mine = (self.local["white"], self.local["black"], self.local["spectators"])
        if mine != self.announced or self.hello:
            self.hub.bus.send(Presence(self.hub.origin, self.match_id, *mine, hello=self.hello))
            self.announced, self.hello = mine, False
        counts = self.counts()
        # Not before the match's players are known here: a presence event names
        # them, and a socket's snapshot carries the presence of its moment anyway.
        if counts != self.shown and self.subscribers and self.state is not None:
            self.shown = counts
            event = frame({"type": "presence", "players": self.players_view(counts),
                           "spectators": counts[2], "version": self.latest})
            for sub in self.subscribers:
                sub.offer(None, event)

    # -- updates ----------------------------------------------------------------

    def broadcast(self, updates: list[dict[str, Any]]) -> None:
        for update in updates:
            version = update["version"]
            if self.version is not None and version <= self.version:
                continue
            self.version = version
            self.remember(update["match"])
            event = frame(self.wire(update))
            for sub in self.subscribers:
                sub.offer(version, event)

    def announced_at(self, version: int) -> None:
        """Another process committed `version`: fetch what this room lacks."""
        self.target = max(self.target, version)
        if (self.version is None or self.version < self.target) and self.filling is None:
            self.filling = asyncio.get_running_loop().create_task(self._fill())

    async def _fill(self) -> None:
        try:
            while self.subscribers and (self.version is None or self.version < self.target):
                since = self.version if self.version is not None else self.target - 1
                updates = await self.hub.source.updates_since(self.match_id, since)
                if updates is None:  # too far behind for the log: everyone starts afresh
                    self.state, self.version = None, self.target
                    for sub in list(self.subscribers):
                        sub.offer(None, RESYNC)
                    break
                if not updates:
                    break
                self.broadcast(updates)
        except Exception as exc:
            self.state = None  # behind, and unsure by how much
            if database_unavailable(exc):
                outage.failed("realtime catch-up", exc)
            else:
                log.exception("realtime: catching up match %s failed", self.match_id)
        finally:
            self.filling = None


class Hub:
    """Implements the match service's publisher: `await hub.publish(match_id, updates)`."""

    def __init__(self, source: MatchSource, bus: Bus | None = None, *, queue_limit: int = 256,
                 ping_seconds: float = 10.0, dead_after_seconds: float = 30.0,
                 presence_delay: float = 0.05, sockets_per_address: int = 0,
                 open_files: OpenFiles | None = None) -> None:
        self.source = source
        self.bus: Bus = bus if bus is not None else MemoryBus()
        self.origin = uuid.uuid4().hex[:12]
        self.queue_limit = queue_limit
        self.ping_seconds = ping_seconds
        self.dead_after = dead_after_seconds
        self.presence_delay = presence_delay
        self.rooms: dict[str, Room] = {}
        # Sockets open (or opening) per client address, capped (0: no cap).
        self.sockets_per_address = sockets_per_address
        self.by_address: dict[str, int] = {}
        self.open_files = open_files if open_files is not None else OpenFiles()
        self.presence = SeatPresence(source, self.ask_presence)
        self._heartbeat: asyncio.Task[None] | None = None
        self.closed = False  # sockets closed (and new ones refused): shutting down
        self._bus_closed = False

    async def start(self) -> None:
        raise_soft_limit()
        await self.bus.start(self._heard, self._reconnected)
        self._heartbeat = asyncio.create_task(Heartbeat(self, frame({"type": "ping"})).run(), name="hub-heartbeat")

    async def close_sockets(self, code: int = 1001, reason: str = "server shutting down",
                            timeout: float = 2.0) -> None:
        """Close every socket with `code` (1001: clients reconnect elsewhere) and
        refuse new ones; the bus stays open, so what requests still in flight
        commit is still announced to the other processes."""
        if self.closed:
            return
        self.closed = True
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

    async def publish(self, match_id: str, updates: list[dict[str, Any]]) -> None:
        if not updates or updates[-1]["type"] != "update":  # e.g. "created": nothing to show yet
            return
        room = self.rooms.get(match_id)
        if room is not None:
            room.broadcast(updates)
        self.bus.send(Announcement(self.origin, match_id, updates[-1]["version"]))

    # -- sockets ---------------------------------------------------------------

    def join(self, match_id: str, send: Send, seat: str | None, since: int | None,
             address: str | None = None) -> Subscriber:
        """Register a socket; it is sent a snapshot (or, with `since`, what it missed)
        before anything new. Registering before reading the database means no update
        can fall between the two. `address`: the client's, for spectators (counted
        by distinct address); None counts the socket as a watcher of its own."""
        room = self.rooms.get(match_id)
        if room is None:
            room = self.rooms[match_id] = Room(self, match_id)
        sub = Subscriber(self, room, send, seat, address)
        room.subscribers.add(sub)
        if seat is not None:
            room.local[seat] += 1
            room.presence_changed(seats=True)
        else:  # a spectator counts once however many sockets it opens (issue 17, item 6)
            watchers = room.watchers
            watchers[sub.watcher] = watchers.get(sub.watcher, 0) + 1
            if watchers[sub.watcher] == 1:
                room.local["spectators"] = len(watchers)
                room.presence_changed()
        if since is None or since < 0:
            sub.offer(None, RESYNC)
        else:
            sub.sent = since
            sub.offer(None, CATCH_UP)
        return sub

    def leave(self, sub: Subscriber) -> None:
        sub.closing = sub.closing or time.monotonic()
        sub.queue = None
        room = sub.room
        if sub not in room.subscribers:
            return
        room.subscribers.discard(sub)
        if sub.seat is not None:
            room.local[sub.seat] -= 1
            room.presence_changed(seats=True)
        else:
            watchers = room.watchers
            left = watchers.get(sub.watcher, 1) - 1
            if left > 0:
                watchers[sub.watcher] = left
            else:
                watchers.pop(sub.watcher, None)
                room.local["spectators"] = len(watchers)
                room.presence_changed()
        if not room.subscribers:
            # Keep the room until its presence has gone out on the bus.
            loop = asyncio.get_running_loop()
            loop.call_later(self.presence_delay + 0.01, self._drop_if_empty, room)

    def _drop_if_empty(self, room: Room) -> None:
        if not room.subscribers and self.rooms.get(room.match_id) is room:
            if room.presence_timer is not None:
                room.presence_timer.cancel()
                room.flush_presence()
            del self.rooms[room.match_id]

    def ask_presence(self, room: Room) -> None:
        """Ask every other process holding `room`'s match to say what it holds, on
        the bus and, for its seats, in the database again (presence.py)."""
        local = room.local
        self.bus.send(Presence(self.origin, room.match_id, local["white"], local["black"],
                               local["spectators"], hello=True))

    def reserve(self, address: str) -> bool:
        """Count one more socket of `address`, or answer False when it holds its cap."""
        held = self.by_address.get(address, 0)
        if self.sockets_per_address and held >= self.sockets_per_address:
            return False
        self.by_address[address] = held + 1
        self.open_files.check()
        return True

    def release(self, address: str) -> None:
        held = self.by_address.get(address, 0) - 1
        if held > 0:
            self.by_address[address] = held
        else:
            self.by_address.pop(address, None)

    def reply(self, sub: Subscriber, message: dict[str, Any]) -> None:
        """Send `message` to this socket alone, after what is queued for it."""
        sub.offer(None, frame(message))

    # -- the bus -----------------------------------------------------------------

    def _heard(self, message: Message) -> None:
        if message.origin == self.origin:
            return
        room = self.rooms.get(message.match_id)
        if room is None:
            return
        if isinstance(message, Announcement):
            room.announced_at(message.version)
            return
        counts = (message.white, message.black, message.spectators)
        before = room.remote.get(message.origin, (0, 0, 0))
        if any(counts):
            room.remote[message.origin] = counts
            room.remote_heard[message.origin] = time.monotonic()
        else:
            room.remote.pop(message.origin, None)
            room.remote_heard.pop(message.origin, None)
        if message.hello:
            room.announced = None  # say what this process holds
            self.presence.say_soon(room, self.presence.held(room))  # and write its seats again
        room.presence_changed(seats=message.hello or counts[:2] != before[:2])

    def _reconnected(self) -> None:
        """Announcements may have been missed: bring every room up to date."""
        for room in self.rooms.values():
            room.state = None  # it may be behind: the next snapshot comes from the database
            room.remote.clear()
            room.remote_heard.clear()
            room.hello = True
            room.presence_changed(seats=True)
            for sub in room.subscribers:
                sub.offer(None, CATCH_UP)

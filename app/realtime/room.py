"""One match's sockets in this process, and the send path that feeds them.

A broadcast hands each socket the message at once when the socket can take it
(nothing queued, the transport writable: no task, no copy). Otherwise the socket
gets its own bounded queue and its own writer task until it has caught up, so a
slow reader only ever delays itself. A socket is handed updates in version
order with no gap and no duplicate: it remembers the last version it was sent,
skips what it already has and fills any hole from the database (the log is the
truth), or gets a fresh snapshot when the hole is too old or its queue
overflowed. A broadcast encodes its JSON once for the room; when a socket of
the room asked for compact updates, the version's delta is made and encoded
once more, for all of them (changes.py). A catch-up from the log, a snapshot
and every FULL_EVERY-th version go out in the full form to every socket.

Over 400 lines because `Subscriber` and `Room` are one path, tuned together against
bench/ws.py (memory per socket, CPU per recipient), and read each other's state on it. They are the hub's insides:
app/api/ws.py holds a Subscriber only as a handle to give back to the hub, never reading it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Protocol

from app.db.outage import OutageLog, database_unavailable
from app.kernel.moments import now_stamp
from app.rules import COLOURS

from .bus import Bus, Presence
from .changes import delta
from .frames import StateFrame, dumps, frame, state_frame
from .presence import NOBODY, Headcount
from .service import MatchSource

log = logging.getLogger("magery.realtime")

Send = Callable[[dict[str, Any]], Awaitable[None]]


class Host(Protocol):
    """What a room and its sockets read of the hub (hub.py)."""

    source: MatchSource
    bus: Bus
    origin: str
    queue_limit: int
    presence_delay: float
    outage: OutageLog


LIVE = ("players", "spectators", "clock", "server_time")  # what a snapshot says as of the moment it is sent
# A compact socket is sent the full update of every FULL_EVERY-th version even when a delta
# would do: whatever a client got wrong applying deltas lasts at most this many versions.
# At ~3.1 KB a full state, it adds ~60 B a move on average and leaves the median alone.
FULL_EVERY = 50
RESYNC = object()  # queue marker: send a fresh snapshot
CATCH_UP = object()  # queue marker: send what the log holds after the last version sent
# What a socket may be told once its catch-up went out, made for the version it then holds
# (a resumed seat's legal actions: app/api/legal_lines.py); None: nothing.
After = Callable[[int], Awaitable[dict[str, Any] | None]]


class Later:
    """Queue marker: send what `make` answers for the version last sent, if anything."""

    __slots__ = ("make",)

    def __init__(self, make: After) -> None:
        self.make = make


class _Resume:
    """Awaits the rest of a coroutine that was started by hand and suspended on `future`.

    A shortcut kept for its measure: sending at once by hand, a task only when the
    send suspends, against a task per recipient (on the send, or on a writer) cost
    22-24 us per recipient instead of 18 in bench/ws.py (three runs each,
    interleaved on a loaded machine), some 25-30% more."""

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

    __slots__ = ("room", "send", "seat", "watcher", "queue", "sent", "writer", "last_heard",
                 "last_pinged", "closing", "receiver", "compact")

    def __init__(self, room: Room, send: Send, seat: str | None, watcher: Any = None,
                 receiver: asyncio.Task[Any] | None = None, compact: bool = False) -> None:
        self.room, self.send, self.seat = room, send, seat
        self.compact = compact  # sent `delta` messages where they can be trusted (changes.py)
        # Who watches (a spectator's address): the room counts distinct watchers.
        self.watcher = watcher if watcher is not None else self
        self.queue: deque[Any] | None = None  # made when something has to wait
        self.sent = -1  # the last version this socket was sent
        self.writer: asyncio.Task[None] | None = None
        self.last_heard = self.last_pinged = time.monotonic()  # the client's last word; our last ping
        self.closing = 0.0  # when the socket was told to close (0: open)
        # The socket's receive loop: the heartbeat ends it (and sets None) when a close frame never leaves.
        self.receiver = receiver

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
        elif len(queue) >= self.room.hub.queue_limit:
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
                elif isinstance(event, Later):
                    told = await event.make(self.sent)
                    if told is not None:
                        await self.send(frame(told))
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
            state = await room.hub.source.snapshot(room.match_id)
            if state is None:
                return
            room.remember(state)
        assert room.state is not None
        version = room.state["version"]
        await self.send(room.snapshot())
        self.sent = version

    async def _catch_up(self, upto: int | None) -> None:
        """Send the log's updates after `self.sent` (through `upto` at least), or a snapshot."""
        room = self.room
        updates = await room.hub.source.updates_since(room.match_id, self.sent)
        if updates is None or (upto is not None and (not updates or updates[-1]["version"] < upto)):
            await self._snapshot()
            return
        for update in updates:
            if update["version"] == self.sent + 1:
                room.remember(update["match"])
                await self.send(state_frame(room.wire(update), update["match"]))
                self.sent = update["version"]


class Room:
    """The sockets of one match in this process, and the presence of all processes."""

    def __init__(self, hub: Host, match_id: str) -> None:
        self.hub, self.match_id = hub, match_id
        self.subscribers: set[Subscriber] = set()
        self.version: int | None = None  # the last version broadcast to this room
        self.newest_elsewhere = 0  # the newest version another process announced
        self.filling: asyncio.Task[None] | None = None
        self.state: Mapping[str, Any] | None = None  # the newest public state seen here
        self.state_at = 0.0
        self._snapshot_head: str | None = None
        self.headcount = Headcount()
        self.shown: tuple[bool, bool, int] | None = None  # the presence last broadcast to the sockets
        self.said: tuple[int, int, int] | None = None  # what this process holds, as last said on the bus
        self.presence_timer: asyncio.TimerHandle | None = None
        self.hello = True  # the next word on the bus asks the others to say what they hold
        self.compact = 0  # sockets here that asked for compact updates: only then is a delta made

    # -- who is here ------------------------------------------------------------

    def add(self, sub: Subscriber) -> None:
        self.subscribers.add(sub)
        self.compact += sub.compact
        if self.headcount.add(sub.seat, sub.watcher):
            self.presence_changed(seats=sub.seat is not None)

    def remove(self, sub: Subscriber) -> bool:
        """Take the socket out; answers whether it was in."""
        if sub not in self.subscribers:
            return False
        self.subscribers.discard(sub)
        self.compact -= sub.compact
        if self.headcount.remove(sub.seat, sub.watcher):
            self.presence_changed(seats=sub.seat is not None)
        return True

    def other_said(self, origin: str, counts: tuple[int, int, int], hello: bool) -> None:
        """Process `origin` said on the bus what it holds of this match."""
        headcount = self.headcount
        before = headcount.others.get(origin, NOBODY)
        headcount.other_said(origin, counts, heard_at=time.monotonic())
        if hello:
            self.said = None  # say what this process holds, even if unchanged
        self.presence_changed(seats=hello or counts[:2] != before[:2])

    def bus_returned(self) -> None:
        """The bus was away: forget what the others said and ask them again."""
        self.headcount.forget_others()
        self.hello = True
        self.presence_changed(seats=True)

    def ask_others(self) -> None:
        """Ask every other process holding this match to say what it holds, on the
        bus and, for its seats, in the database again (presence.py)."""
        self.hub.bus.send(Presence(self.hub.origin, self.match_id, *self.headcount.mine(), hello=True))

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
        mine = self.headcount.mine()
        if mine != self.said or self.hello:
            self.hub.bus.send(Presence(self.hub.origin, self.match_id, *mine, hello=self.hello))
            self.said, self.hello = mine, False
        counts = self.headcount.totals()
        # Not before the match's players are known here: a presence event names
        # them, and a socket's snapshot carries the presence of its moment anyway.
        if counts != self.shown and self.subscribers and self.state is not None:
            self.shown = counts
            event = frame({"type": "presence", "players": self.players_view(counts),
                           "spectators": counts[2], "version": self.latest})
            for sub in self.subscribers:
                sub.offer(None, event)

    # -- what is sent -----------------------------------------------------------

    def patch(self, state: Mapping[str, Any]) -> dict[str, Any]:
        """`state` with this moment's presence: who is connected, how many watch."""
        counts = self.headcount.totals()
        return {**state, "players": self.players_view(counts, state.get("players")),
                "spectators": counts[2]}

    def wire(self, update: Mapping[str, Any]) -> dict[str, Any]:
        return {**update, "match": self.patch(update["match"])}

    def remember(self, state: Mapping[str, Any]) -> None:
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
        counts = self.headcount.totals()
        live: dict[str, Any] = {"players": self.players_view(counts, state.get("players")),
                                "spectators": counts[2], "server_time": state.get("finished_at") or now_stamp()}
        clock = state.get("clock")
        if isinstance(clock, dict) and clock.get("running") in COLOURS and state.get("status") == "active":
            running = clock["running"]
            spent = int((time.time() - self.state_at) * 1000)
            clock = {**clock, running: max(0, clock[running] - spent)}
        elif isinstance(clock, dict) and isinstance(clock.get("setup"), int) and state.get("status") == "active":
            spent = int((time.time() - self.state_at) * 1000)  # the setup time runs instead of a clock
            clock = {**clock, "setup": max(0, clock["setup"] - spent)}
        live["clock"] = clock
        return StateFrame(self._snapshot_head + dumps(live)[1:] + "}", state)

    # -- updates ----------------------------------------------------------------

    def broadcast(self, updates: Sequence[Mapping[str, Any]]) -> None:
        for update in updates:
            version = update["version"]
            if self.version is not None and version <= self.version:
                continue
            self.version = version
            before = self.state
            self.remember(update["match"])
            wired = self.wire(update)
            event = state_frame(wired, update["match"])
            if not self.compact:
                for sub in self.subscribers:
                    sub.offer(version, event)
                continue
            # One delta for the room, against the committed state of the version before,
            # when this process holds it; otherwise (a fill from the database after the bus
            # was away, a state another socket's catch-up moved past) the full form for all.
            small = event
            if before is not None and before["version"] == version - 1 and version % FULL_EVERY:
                small = state_frame(delta(update, before, wired["match"]), update["match"])
            for sub in self.subscribers:
                sub.offer(version, small if sub.compact else event)

    def committed_elsewhere(self, version: int) -> None:
        """Another process committed `version`: fetch what this room lacks."""
        self.newest_elsewhere = max(self.newest_elsewhere, version)
        if (self.version is None or self.version < self.newest_elsewhere) and self.filling is None:
            self.filling = asyncio.get_running_loop().create_task(self._fill())

    async def _fill(self) -> None:
        try:
            while self.subscribers and (self.version is None or self.version < self.newest_elsewhere):
                since = self.version if self.version is not None else self.newest_elsewhere - 1
                updates = await self.hub.source.updates_since(self.match_id, since)
                if updates is None:  # too far behind for the log: everyone starts afresh
                    self.state, self.version = None, self.newest_elsewhere
                    for sub in list(self.subscribers):
                        sub.offer(None, RESYNC)
                    break
                if not updates:
                    break
                self.broadcast(updates)
        except Exception as exc:
            self.state = None  # behind, and unsure by how much
            if database_unavailable(exc):
                self.hub.outage.failed("realtime catch-up", exc)
            else:
                log.exception("realtime: catching up match %s failed", self.match_id)
        finally:
            self.filling = None

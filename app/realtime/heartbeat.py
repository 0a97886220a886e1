"""The hub's heartbeat, every tick whatever the last one met: pings to quiet
sockets, closing the dead ones (1011), this process's presence said again on
the bus, the seats it holds touched in the database in one statement, and the
seats of a process gone silent judged by the database's presence rule.

It reads the hub's rooms and sockets and changes them only through their own
methods; it lives apart so that the hub module keeps to the send path.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any, Protocol

from .bus import Bus, Presence
from .presence import NOBODY

log = logging.getLogger("magery.realtime")


class Beaten(Protocol):
    """What the heartbeat reads of the hub (app/realtime/hub.py): its rooms and
    their sockets (room.py), the bus, its timings and where presence is written."""

    rooms: dict[str, Any]
    bus: Bus
    origin: str
    ping_seconds: float
    dead_after: float
    open_files: Any
    seat_presence: Any
    source: Any


class Heartbeat:
    def __init__(self, hub: Beaten, ping: dict[str, Any]) -> None:
        self.hub = hub
        self.ping = ping  # the ping's send event, encoded once

    def _refresh_presence(self, now: float) -> None:
        """Say again what this process holds, and forget the spectators of another
        process that has not said so for three rounds: a process that died said
        no goodbye, and they would otherwise count for ever. Its seats are the
        database's to judge (`_judge_silent_seats`); only when nothing has been
        heard for far longer (the database away too) are they forgotten as well."""
        forget_after = max(3 * self.hub.ping_seconds, 2 * self.hub.dead_after)
        for room in self.hub.rooms.values():
            if not room.subscribers:
                continue
            headcount = room.headcount
            self.hub.bus.send(Presence(self.hub.origin, room.match_id, *headcount.mine()))
            changed = False
            for origin, heard_at in list(headcount.heard_at.items()):
                white, black, spectators = headcount.others.get(origin, NOBODY)
                if now - heard_at > forget_after:
                    white = black = spectators = 0
                elif now - heard_at > 3 * self.hub.ping_seconds:
                    spectators = 0
                else:
                    continue
                changed = headcount.other_said(origin, (white, black, spectators)) or changed
            if changed:
                room.presence_changed(seats=True)

    def _silent(self, room: Any, now: float) -> list[str]:
        """The other processes that hold a seat of `room` and missed a refresh."""
        late = 1.5 * self.hub.ping_seconds
        headcount = room.headcount
        return [origin for origin, (white, black, _) in headcount.others.items()
                if (white or black) and now - headcount.heard_at.get(origin, now) > late]

    async def _judge_silent_seats(self, now: float) -> None:
        """A seat held only by a process gone silent is here while the database's
        presence rule says so, the rule GET /matches/{id} shows: sockets and REST
        tell the same truth about a process that died."""
        asked = [room for room in self.hub.rooms.values() if room.subscribers and self._silent(room, now)]
        if not asked:
            return
        try:
            here = await self.hub.source.seats_here([room.match_id for room in asked])
        except Exception:  # the database is away: keep what the bus said until it is back
            return
        for room in asked:
            seated = here.get(room.match_id, {})
            changed = False
            for origin in self._silent(room, now):
                white, black, spectators = room.headcount.others[origin]
                changed = room.headcount.other_said(origin, (white if seated.get("white") else 0,
                                                             black if seated.get("black") else 0,
                                                             spectators)) or changed
            if changed:
                room.presence_changed(seats=True)

    async def run(self) -> None:
        """Pings, dead sockets, presence: every tick, whatever one tick met. A beat
        that fails is logged and the next one goes on (one exception must not stop
        the pings and the presence of every socket of the process)."""
        tick = max(0.05, min(self.hub.ping_seconds, self.hub.dead_after) / 5)
        clock = {"touched": time.monotonic(), "refreshed": time.monotonic()}
        while True:
            await asyncio.sleep(tick)
            try:
                await self.beat(tick, clock)
            except Exception:
                log.exception("realtime heartbeat: a beat failed; the next one goes on")

    async def beat(self, tick: float, clock: dict[str, float]) -> None:
        now = time.monotonic()
        if now - clock["refreshed"] >= self.hub.ping_seconds:
            clock["refreshed"] = now
            self._refresh_presence(now)
        self.hub.open_files.check()
        seats: set[tuple[str, str]] = set()
        for room in list(self.hub.rooms.values()):
            for sub in list(room.subscribers):
                if sub.closing:
                    if now - sub.closing > 5 and sub.receiver is not None:
                        # The close frame never left (a peer that stopped reading):
                        # end the socket's tasks; the server drops the connection.
                        # No receiver left marks the socket dropped (Hub.dropped).
                        if sub.writer is not None:
                            sub.writer.cancel()
                        sub.receiver.cancel()
                        sub.receiver = None
                    continue
                if now - sub.last_heard > self.hub.dead_after - tick:
                    sub.close(1011, "no answer to ping")
                    continue
                if (now - sub.last_heard >= self.hub.ping_seconds
                        and now - sub.last_pinged >= self.hub.ping_seconds):
                    sub.last_pinged = now
                    sub.offer(None, self.ping)
                if sub.seat is not None:
                    seats.add((room.match_id, sub.seat))
        if seats and now - clock["touched"] >= self.hub.ping_seconds:
            clock["touched"] = now
            await self.hub.seat_presence.touch(sorted(seats))
        await self._judge_silent_seats(now)

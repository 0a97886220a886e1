"""Which seats this process holds a socket of, said to the database (issue 17, item 14).

The rule REST shows (app/matches/record.py `seat_here`) is the database's: a
seat is here while its `connected` is true and its `last_seen` is recent. Each
process writes only its own word on the seats it holds a socket of, and says it
again, so no order of writes between processes can leave the truth behind:

- a seat's first socket here writes it present; its last one gone writes it
  absent, unless another process is known to hold it. The writes of one seat go
  out one at a time here, each saying what this process holds when it leaves
  (an open and a close racing cannot land the wrong way round);
- an absent written here may still land after another process's present (a
  client reconnecting onto another process before the two heard of each
  other), so after it this process asks on the bus (`hello`) and every process
  holding the seat writes it present again, after it;
- the heartbeat writes every seat held here present, in one statement.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any, Protocol

from app.db.outage import database_unavailable, outage
from app.matches.memory import Locks
from app.rules import COLOURS

log = logging.getLogger("magery.realtime")


class PresenceStore(Protocol):
    async def seat_presence(self, match_id: str, colour: str, connected: bool) -> None: ...

    async def touch(self, seats: list[tuple[str, str]]) -> None: ...


class Room(Protocol):
    """What this module reads of a hub's room (hub.py)."""

    match_id: str
    local: dict[str, int]

    def seat_elsewhere(self, colour: str) -> bool: ...


class SeatPresence:
    def __init__(self, source: PresenceStore, ask: Callable[[Any], None]) -> None:
        """`ask(room)`: ask the other processes holding the room's match to say
        what they hold again (on the bus)."""
        self.source, self.ask = source, ask
        self._writing = Locks()  # one write of a seat at a time
        self._tasks: set[asyncio.Task[None]] = set()

    async def say(self, room: Room, colour: str) -> None:
        """Write what this process holds of `room`'s seat now (nothing when it holds
        none and another process does: that one says so)."""
        async with self._writing.hold(f"{room.match_id}|{colour}"):
            held = room.local[colour] > 0
            if not held and room.seat_elsewhere(colour):
                return
            await self._write(room.match_id, colour, held)
            if not held:  # it may have landed after another process's present: ask
                self.ask(room)

    def say_soon(self, room: Room, colours: list[str]) -> None:
        """`say` the seats, in tasks of their own (from a bus callback)."""
        for colour in colours:
            task = asyncio.get_running_loop().create_task(self.say(room, colour))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    def held(self, room: Room) -> list[str]:
        return [colour for colour in COLOURS if room.local[colour] > 0]

    async def _write(self, match_id: str, colour: str, held: bool) -> None:
        try:
            await self.source.seat_presence(match_id, colour, held)
        except Exception as exc:  # said again at the next heartbeat
            if database_unavailable(exc):
                outage.failed("noting a seat's presence", exc)
            else:
                log.exception("noting seat %s of match %s %s failed", colour, match_id,
                              "present" if held else "absent")

    async def touch(self, seats: list[tuple[str, str]]) -> None:
        """Every seat held here, present now: one statement."""
        if not seats:
            return
        try:
            await self.source.touch(seats)
        except Exception as exc:
            if database_unavailable(exc):
                outage.failed("the heartbeat noting seats present", exc)
            else:
                log.exception("the heartbeat noting %d seats present failed", len(seats))

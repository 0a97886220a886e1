"""Who is at a match: counted here, and said to the database.

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

The count the sockets are shown lives here too: a room's `Headcount`, what
this process holds of the match and what every other process said it holds.
Those counts are written in one place, `Headcount.other_said`, whether the bus
brought them or the heartbeat judged them.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Protocol

from app.db.outage import OutageLog, database_unavailable
from app.matches.cache import Locks
from app.rules import COLOURS

log = logging.getLogger("magery.realtime")


class PresenceStore(Protocol):
    async def seat_presence(self, match_id: str, colour: str, connected: bool) -> None: ...

    async def touch(self, seats: list[tuple[str, str]]) -> None: ...


NOBODY = (0, 0, 0)


class Headcount:
    """Who is at one match: the sockets this process holds (per seat; spectators
    by distinct watcher) and what each other process last said
    it holds, with when it said so (the heartbeat forgets who falls silent)."""

    def __init__(self) -> None:
        self.seats = {"white": 0, "black": 0}  # sockets of each seat here
        self.watchers: dict[Any, int] = {}  # a spectator's address: its sockets here
        self.others: dict[str, tuple[int, int, int]] = {}  # another process: (white, black, spectators)
        self.heard_at: dict[str, float] = {}  # when each other process last said its counts

    def mine(self) -> tuple[int, int, int]:
        """What this process holds, as said on the bus: (white, black, spectators)."""
        return self.seats["white"], self.seats["black"], len(self.watchers)

    def held(self) -> list[str]:
        """The seats this process holds a socket of."""
        return [colour for colour in COLOURS if self.seats[colour] > 0]

    def sockets(self) -> tuple[int, int]:
        """Sockets here: (of seats, of spectators), every socket counted."""
        return self.seats["white"] + self.seats["black"], sum(self.watchers.values())

    def add(self, seat: str | None, watcher: Any) -> bool:
        """One socket more, of `seat` or (None) of the spectator `watcher`; answers
        whether what this process holds changed for the others (a spectator's
        second socket does not)."""
        if seat is not None:
            self.seats[seat] += 1
            return True
        held = self.watchers.get(watcher, 0)
        self.watchers[watcher] = held + 1
        return held == 0

    def remove(self, seat: str | None, watcher: Any) -> bool:
        """One socket fewer (as `add`)."""
        if seat is not None:
            self.seats[seat] -= 1
            return True
        left = self.watchers.get(watcher, 1) - 1
        if left > 0:
            self.watchers[watcher] = left
            return False
        self.watchers.pop(watcher, None)
        return True

    def other_said(self, origin: str, counts: tuple[int, int, int], heard_at: float | None = None) -> bool:
        """The one writer of another process's counts: `heard_at` when that process
        said them on the bus, None when the heartbeat judged them (nothing was
        heard, so its silence still counts). Answers whether they changed."""
        before = self.others.get(origin, NOBODY)
        if any(counts):
            self.others[origin] = counts
            if heard_at is not None:
                self.heard_at[origin] = heard_at
        else:  # it holds nothing: forgotten
            self.others.pop(origin, None)
            self.heard_at.pop(origin, None)
        return counts != before

    def forget_others(self) -> None:
        """The bus came back: what the others hold is asked again from scratch."""
        self.others.clear()
        self.heard_at.clear()

    def seat_elsewhere(self, colour: str) -> bool:
        """Another process holds a socket of this seat."""
        index = COLOURS.index(colour)
        return any(counts[index] for counts in self.others.values())

    def totals(self) -> tuple[bool, bool, int]:
        """Every process together: (white here, black here, spectators)."""
        white, black, spectators = self.mine()
        for w, b, s in self.others.values():
            white, black, spectators = white + w, black + b, spectators + s
        return white > 0, black > 0, spectators


class Room(Protocol):
    """What this module reads of a hub's room (room.py)."""

    match_id: str
    headcount: Headcount

    def ask_others(self) -> None:
        """Ask the other processes holding the match to say what they hold (on the bus)."""


class SeatPresence:
    """Writes what this process holds of a seat to the database, one write of a
    seat at a time."""

    def __init__(self, source: PresenceStore, outage: OutageLog) -> None:
        self.source, self.outage = source, outage
        self._writing = Locks()  # one write of a seat at a time
        self._tasks: set[asyncio.Task[None]] = set()

    async def say(self, room: Room, colour: str) -> None:
        """Write what this process holds of `room`'s seat now (nothing when it holds
        none and another process does: that one says so)."""
        async with self._writing.hold(f"{room.match_id}|{colour}"):
            held = room.headcount.seats[colour] > 0
            if not held and room.headcount.seat_elsewhere(colour):
                return
            await self._write(room.match_id, colour, held)
            if not held:  # it may have landed after another process's present: ask
                room.ask_others()

    def say_soon(self, room: Room, colours: list[str]) -> None:
        """`say` the seats, in tasks of their own (from a bus callback)."""
        for colour in colours:
            task = asyncio.get_running_loop().create_task(self.say(room, colour))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _write(self, match_id: str, colour: str, held: bool) -> None:
        try:
            await self.source.seat_presence(match_id, colour, held)
        except Exception as exc:  # said again at the next heartbeat
            if database_unavailable(exc):
                self.outage.failed("noting a seat's presence", exc)
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
                self.outage.failed("the heartbeat noting seats present", exc)
            else:
                log.exception("the heartbeat noting %d seats present failed", len(seats))

"""Sign-in tries as one process sees them: one reservation at a time per
address, and an address's lock remembered for a moment.

The database decides (app/admin/throttle.py): a try is counted there before
its password is checked, and the lock it earns holds on every process. But 30
tries sent at once from one address each opened a transaction on the same
rows at the same instant, waiting on one another's row locks, each holding a
pooled connection, all on the event loop every match shares: another match's
p99 rose ~10x while they ran (issue 17, item 3). Here a process lets one try
per address at a time reserve, so it reserves at most until the lock falls,
and once the database has said the address is locked, the process answers
that address's next tries from memory (no reservation; the audit entry is
still written, in a batch) until the lock ends or `TRUST_SECONDS` pass, after
which it asks the database again (a success elsewhere may have cleared it).

In front of the whole stack (app/admin/front.py), the same process lets one
try per address at a time in at all (`in_line`): the others wait in line,
at most `LINE_MOST` of them, until the one inside is answered, so that once
the lock is known they are refused there, before any middleware, routing or
form parsing.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy.ext.asyncio import AsyncEngine

from .audit import Batch

TRUST_SECONDS = 10.0  # how long a lock read from the database is taken as still running
MOST_REMEMBERED = 4096  # addresses whose lock is remembered; the oldest is forgotten first
LINE_MOST = 32  # tries of one address waiting in line in front; one more is answered 503 at once


@dataclass(slots=True)
class _Turn:
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0


class SignIns:
    """This process's sign-in tries: turns per address, remembered locks, and
    the failures' audit entries (`failures`, written in batches)."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.failures = Batch(engine)
        self._turns: dict[str, _Turn] = {}  # reservations, one at a time per address
        self._line: dict[str, _Turn] = {}  # tries let in from the front, one at a time per address
        self._locked: dict[str, tuple[datetime, datetime]] = {}  # address: (locked until, trusted until)

    def one_at_a_time(self, address: str) -> contextlib.AbstractAsyncContextManager[None]:
        """Hold the address's turn: its tries in this process reserve one after another."""
        return _hold(self._turns, address)

    def in_line(self, address: str) -> contextlib.AbstractAsyncContextManager[None]:
        """Hold the address's place in front: its tries in this process go in one after another."""
        return _hold(self._line, address)

    def line_full(self, address: str) -> bool:
        """Are `LINE_MOST` of the address's tries waiting in line already (besides the one inside)?"""
        turn = self._line.get(address)
        return turn is not None and turn.users > LINE_MOST

    def wait(self, address: str, now: datetime) -> int:
        """Seconds the address is known to be locked for (0: ask the database)."""
        known = self._locked.get(address)
        if known is None:
            return 0
        until, trusted = known
        if now >= until or now >= trusted:
            del self._locked[address]
            return 0
        return int((until - now).total_seconds()) + 1

    def learn(self, address: str, locked_until: datetime | None, now: datetime) -> None:
        """What a reservation said of the address's lock."""
        self._locked.pop(address, None)
        if locked_until is None or locked_until <= now:
            return
        if len(self._locked) >= MOST_REMEMBERED:
            self._locked = {a: t for a, t in self._locked.items() if now < t[0] and now < t[1]}
            while len(self._locked) >= MOST_REMEMBERED:
                del self._locked[next(iter(self._locked))]
        self._locked[address] = (locked_until, now + timedelta(seconds=TRUST_SECONDS))

    def forget(self, address: str) -> None:
        """The address signed in: no lock of its is remembered."""
        self._locked.pop(address, None)


@contextlib.asynccontextmanager
async def _hold(turns: dict[str, _Turn], address: str) -> AsyncIterator[None]:
    """The address's turn in `turns`, made when first asked and dropped when no try holds or awaits it."""
    turn = turns.get(address)
    if turn is None:
        turn = turns[address] = _Turn()
    turn.users += 1
    try:
        async with turn.lock:
            yield
    finally:
        turn.users -= 1
        if not turn.users:
            del turns[address]

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
form parsing. The line and the remembered locks are app/auth/tries_in_front.py's,
shared with the players' sign-in; the reservations' turns and the audit's
batches are the admins' own.
"""

from __future__ import annotations

import contextlib

from sqlalchemy.ext.asyncio import AsyncEngine

from app.auth.tries_in_front import LINE_MOST, MOST_REMEMBERED, TRUST_SECONDS, Tries, Turn, hold

from .audit import Batch


class SignIns(Tries):
    """This process's admin sign-in tries: the line and remembered locks of
    `Tries`, turns per address to reserve, and the failures' audit entries
    (`failures`, written in batches)."""

    def __init__(self, engine: AsyncEngine) -> None:
        super().__init__()
        self.failures = Batch(engine)
        self._turns: dict[str, Turn] = {}  # reservations, one at a time per address

    def one_at_a_time(self, address: str) -> contextlib.AbstractAsyncContextManager[None]:
        """Hold the address's turn: its tries in this process reserve one after another."""
        return hold(self._turns, address)


__all__ = ["LINE_MOST", "MOST_REMEMBERED", "TRUST_SECONDS", "SignIns"]

"""A closed account leaves its matches: each running one ends as if its seat
resigned (aborted instead while it may still be: nobody joined, or the setups
are not done), and every process forgets its cached records of the account's
matches, whose seat tokens the closing revoked (app/accounts/service.py)
without moving their version.

The ending is the server's doing on the seat's behalf: logged with the seat's
colour, `automatic`, and `"account_closed": true` in the action. It moves no
rating: a closed account's rating never moves again (app/accounts/rated.py).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable

from sqlalchemy import select

from app.db.models import matches, seats
from app.kernel.errors import ServiceError

from .finisher import Finisher
from .keeper import MatchKeeper

RUNNING = ("waiting", "active")


class Leaving:
    def __init__(self, keeper: MatchKeeper, finisher: Finisher) -> None:
        self.keeper, self.finisher = keeper, finisher
        # Told each closed account once this process forgot its records: the other
        # processes must forget theirs (app/realtime/service.py, share_closings).
        self._told: list[Callable[[int], None]] = []

    def on_left(self, heard: Callable[[int], None]) -> None:
        self._told.append(heard)

    async def account_closed(self, account_id: int) -> int:
        """End the closed account's running matches; answers how many ended."""
        keeper = self.keeper
        self.forget(account_id)
        for heard in self._told:
            heard(account_id)
        async with keeper.engine.connect() as conn:
            running = (await conn.execute(
                select(seats.c.match_id, seats.c.colour).join(matches, matches.c.id == seats.c.match_id)
                .where(seats.c.account_id == account_id, seats.c.bot.is_(None), matches.c.status.in_(RUNNING))
                .order_by(seats.c.match_id))).all()
        ended = 0
        for match_id, colour in running:
            with contextlib.suppress(ServiceError):  # it ended meanwhile
                if await self.finisher.leave(match_id, colour):
                    ended += 1
        return ended

    def forget(self, account_id: int | None) -> None:
        """Drop the cached records holding a seat of `account_id` (None: every record)."""
        self.keeper.cache.drop_where(
            None if account_id is None
            else lambda rec: any(seat.account_id == account_id for seat in rec.seats.values()))

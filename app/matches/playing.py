"""Who plays a real-time game now: an account seated in a running match whose
clock is real-time. A player plays one such game at a time, wherever it was
made (an arena, a pool); a correspondence match, a move a day, does not count
(a player may keep many going beside a real-time game, as on lichess).

Whoever makes a game for two waiting players holds both accounts in the
transaction that inserts the match, then asks `busy`: on PostgreSQL under a
transaction-scoped advisory lock per account (after the maker's own locks,
in the order of the accounts, so two makers never wait on each other in a
circle), on SQLite under the write lock its insert holds already. So of two
makers racing for one account on any process, the second to get the lock
reads the first's committed match and gives up.

A guest is no account: a guest's seat in a seek's match and a guest's place in
a pool cannot be told to be one person, so guests are not held here.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any

from sqlalchemy import and_, exists, select
from sqlalchemy.ext.asyncio import AsyncConnection

from app.db.advisory import lock_in_order
from app.db.models import matches, seats

CORRESPONDENCE = "correspondence"


def _live() -> Any:
    """A running match whose clock is not a correspondence one."""
    return and_(matches.c.status == "active",
                matches.c.options[("time_control", "type")].as_string() != CORRESPONDENCE)


def free(account: Any) -> Any:
    """A clause for a query's rows: `account` (a column) plays no real-time game now."""
    return ~exists(select(seats.c.match_id).select_from(seats.join(matches, matches.c.id == seats.c.match_id))
                   .where(seats.c.account_id == account, _live()))


async def hold(conn: AsyncConnection, accounts: Iterable[int | None]) -> None:
    """The accounts held until the transaction ends (see the module's words)."""
    await lock_in_order(conn, [f"playing:{account}" for account in sorted({a for a in accounts if a is not None})])


async def busy(conn: AsyncConnection, accounts: Iterable[int | None], making: str) -> set[int]:
    """Which of the accounts play a real-time game now other than `making`, the
    match this transaction inserts. Ask it after `hold`."""
    return await busy_beside(conn, accounts, [making])


async def busy_beside(conn: AsyncConnection, accounts: Iterable[int | None], making: Collection[str]) -> set[int]:
    """Which of the accounts play a real-time game now other than those in
    `making`, the matches this transaction inserts. Ask it after `hold`."""
    wanted = sorted({a for a in accounts if a is not None})
    if not wanted:
        return set()
    rows = await conn.execute(select(seats.c.account_id).select_from(
        seats.join(matches, matches.c.id == seats.c.match_id)).where(
        seats.c.account_id.in_(wanted), matches.c.id.not_in(sorted(making)), _live()))
    return {int(a) for a in rows.scalars()}

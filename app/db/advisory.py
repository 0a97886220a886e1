"""Transaction-scoped advisory locks on PostgreSQL, many in one statement.

The keys are locked one after another in the order given (the inner query's
ORDER BY keeps the planner from reordering them), so callers that agree on an
order never wait on each other in a circle; one statement instead of one per
key matters when a round of pairing holds hundreds of players. Elsewhere
(SQLite) nothing: there the write lock is the lock.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection

_IN_ORDER = text(
    "SELECT count(pg_advisory_xact_lock(hashtext(k))) FROM "
    "(SELECT k FROM unnest(CAST(:keys AS text[])) WITH ORDINALITY AS given(k, n) ORDER BY n) AS ordered")


async def lock_in_order(conn: AsyncConnection, keys: Sequence[str]) -> None:
    """Each of `keys` locked till the transaction ends, in the order given."""
    if conn.dialect.name != "postgresql" or not keys:
        return
    if len(keys) == 1:  # the plain statement every single lock used before
        await conn.execute(text("SELECT pg_advisory_xact_lock(hashtext(:key))"), {"key": keys[0]})
        return
    await conn.execute(_IN_ORDER, {"keys": list(keys)})

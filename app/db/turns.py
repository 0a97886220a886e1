"""One at a time per key: a count and the write it allows, made atomic.

A check such as "fewer than five challenges waiting" followed by an insert lets
two requests of one caller, sent at once, both count the same rows and both
insert. `one_at_a_time(conn, key)`, called first in the transaction, makes the
transactions of one key run one after the other until they commit:

- PostgreSQL: a transaction-scoped advisory lock on the key (only callers of
  the same key wait on each other);
- SQLite: a write that changes nothing, which takes the database's single
  write lock before anything is read (the driver begins its transaction only at
  the first write, so a count read before it would read outside the
  transaction, against rows another request is about to add).
"""

from __future__ import annotations

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection

# A table every database of this server has (migration 0001); the statement matches no row.
_NOTHING = text("UPDATE matches SET id = id WHERE 1 = 0")


async def one_at_a_time(conn: AsyncConnection, key: str) -> None:
    if conn.dialect.name == "postgresql":
        await conn.execute(text("SELECT pg_advisory_xact_lock(hashtext(:key))"), {"key": key})
    else:
        await conn.execute(_NOTHING)

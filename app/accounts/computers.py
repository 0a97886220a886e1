"""The computer levels as rated players: an account each ("Random", "Greedy",
"Strong"), marked by the level it plays as, with no password (nobody signs in
as one) and a name nobody else may take (names.py).

Migration 0007 makes them; `ensure` makes any that is missing again, at
start or when a rated match first needs it, and is safe to run from every
process at once (the level is unique: a second insert does nothing).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from app.db.account_models import accounts
from app.kernel.folding import fold

from .names import COMPUTER_NAMES

LEVELS = {name.lower(): name for name in COMPUTER_NAMES}  # the bot level → its account's name


async def account_of(conn: AsyncConnection, level: str, now: datetime) -> int | None:
    """The id of the account the bot `level` plays rated as (made if missing);
    None for a level that plays no rated match."""
    if level not in LEVELS:
        return None
    query = select(accounts.c.id).where(accounts.c.computer == level)
    found = (await conn.execute(query)).scalar()
    if found is None:
        insert = pg_insert if conn.dialect.name == "postgresql" else sqlite_insert
        await conn.execute(insert(accounts).values(
            name=LEVELS[level], name_lower=level, name_fold=fold(LEVELS[level]), computer=level, created_at=now).on_conflict_do_nothing())
        found = (await conn.execute(query)).scalar_one()
    return int(found)


async def ensure(engine: AsyncEngine, now: datetime) -> dict[str, int]:
    """Every level's account, made where missing: {level: account id}."""
    async with engine.begin() as conn:
        return {level: await account_of(conn, level, now) or 0 for level in LEVELS}


async def computer_account(engine: AsyncEngine, level: str, now: datetime) -> int | None:
    """The account the bot `level` plays rated as; None for a level that plays no rated match."""
    if level not in LEVELS:
        return None
    async with engine.begin() as conn:
        return await account_of(conn, level, now)

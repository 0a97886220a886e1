"""A guest never wears an account's name: a guest's name that folds (NFKC,
Unicode's confusables skeleton, case: app/kernel/folding.py) to an account's
folded name is refused, the computer levels' included. One indexed read."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.account_models import accounts
from app.kernel.errors import BadRequest
from app.kernel.folding import fold


async def account_like(engine: AsyncEngine, name: str) -> str | None:
    """The name of an account `name` looks like (folded alike), or None."""
    async with engine.connect() as conn:
        found = (await conn.execute(select(accounts.c.name).where(accounts.c.name_fold == fold(name))
                                    .order_by(accounts.c.id).limit(1))).scalar()
    return None if found is None else str(found)


async def check_guest_name(engine: AsyncEngine, name: str) -> str:
    """`name` if a guest may play under it; BadRequest naming the account it looks like."""
    found = await account_like(engine, name)
    if found is not None:
        raise BadRequest(f"name {name!r} looks like the account {found!r}'s (alike once case, look-alike "
                         f"letters and invisible characters are set aside): a guest never plays under an "
                         f"account's name; sign in as {found}, or choose another name")
    return name

"""A guest never wears an account's name: a guest's name that folds (NFKC,
Unicode's confusables skeleton, case: app/kernel/folding.py) to an account's
folded name is refused, the computer levels' included. One indexed read."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.account_models import accounts
from app.kernel.errors import ServiceError
from app.kernel.folding import fold


async def account_like(engine: AsyncEngine, name: str) -> str | None:
    """The name of an account `name` looks like (folded alike), or None."""
    async with engine.connect() as conn:
        found = (await conn.execute(select(accounts.c.name).where(accounts.c.name_fold == fold(name))
                                    .order_by(accounts.c.id).limit(1))).scalar()
    return None if found is None else str(found)


class NameLikeAnAccounts(ServiceError):
    """A well-formed name that clashes with what the server holds (an account's
    name), as a taken name at sign-up is: a conflict, not a malformed request."""

    status, code = 409, "name_taken"


async def check_guest_name(engine: AsyncEngine, name: str) -> str:
    """`name` if a guest may play under it; NameLikeAnAccounts naming the account it looks like."""
    found = await account_like(engine, name)
    if found is not None:
        raise NameLikeAnAccounts(f"name {name!r} looks like the account {found!r}'s (alike once case, look-alike "
                         f"letters and invisible characters are set aside): a guest never plays under an "
                         f"account's name; sign in as {found}, or choose another name")
    return name

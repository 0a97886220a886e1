"""Bot accounts, as lichess's BOT accounts: an account that a program
plays through the API, shown as a computer wherever a player is shown (its
`title` is "BOT"), paired by the pools only with players who consent.

An account becomes one by asking, and only while it has played no rated match:
its rating was a person's, and a program must not inherit it. The step is for
good: nothing turns a bot account back.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.account_models import accounts
from app.db.models import matches, seats

from .errors import AccountError


class PlayedRated(AccountError):
    status, code = 409, "played_rated"


class NotABotAccount(AccountError):
    """A computer level is a computer already; it has no say in this."""

    status, code = 403, "forbidden"


async def make_bot(engine: AsyncEngine, account_id: int, now: datetime) -> None:
    """Turn the account into a bot account (nothing to do if it is one already).
    One transaction: a rated match begun meanwhile either is seen or comes after."""
    async with engine.begin() as conn:
        row = (await conn.execute(select(accounts.c.computer, accounts.c.bot_at)
                                  .where(accounts.c.id == account_id))).one()
        if row.computer is not None:
            raise NotABotAccount("a computer level's account is no bot account")
        if row.bot_at is not None:
            return
        rated = (await conn.execute(
            select(seats.c.match_id).join(matches, matches.c.id == seats.c.match_id)
            .where(seats.c.account_id == account_id, matches.c.rated.is_(True)).limit(1))).first()
        if rated is not None:
            raise PlayedRated("this account has played a rated match: only an account that has played "
                              "none becomes a bot account (make a new account for your bot)")
        await conn.execute(update(accounts).where(accounts.c.id == account_id, accounts.c.bot_at.is_(None))
                           .values(bot_at=now))


async def is_bot(engine: AsyncEngine, account_id: int) -> bool:
    async with engine.connect() as conn:
        found = (await conn.execute(select(accounts.c.bot_at).where(accounts.c.id == account_id))).first()
    return found is not None and found.bot_at is not None

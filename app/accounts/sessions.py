"""Signed-in browsers: a random token in the cookie, its sha256 in
`account_sessions`, and a CSRF token per session.

The cookie is set HttpOnly and SameSite=Lax, and Secure over https (the
pages' part, COOKIE names it). A session lives in the database, so signing
out ends it everywhere at once, and closing the account ends all of its
sessions in the closing transaction. A session of a closed account is never
found, whatever a row left behind would say.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from app.auth import digest, new_token
from app.db.account_models import account_sessions, accounts

COOKIE = "magery_session"
MAX_TOKEN = 128  # longer than any token made here: not looked up at all


@dataclass(frozen=True, slots=True)
class Session:
    id: str  # the token's digest
    account_id: int
    name: str
    csrf_token: str
    expires_at: datetime


async def open_session(engine: AsyncEngine, account_id: int, address: str | None, now: datetime,
                       days: float) -> tuple[str, Session]:
    """A new session: (the cookie's token, shown this once; the session)."""
    token, csrf = new_token(), new_token()
    expires = now + timedelta(days=days)
    async with engine.begin() as conn:
        # The account's sessions past their time go here: the table stays small.
        await conn.execute(delete(account_sessions).where(account_sessions.c.account_id == account_id,
                                                          account_sessions.c.expires_at <= now))
        await conn.execute(account_sessions.insert().values(
            id=digest(token), account_id=account_id, csrf_token=csrf, address=(address or "")[:64] or None,
            created_at=now, expires_at=expires))
        name = (await conn.execute(select(accounts.c.name).where(accounts.c.id == account_id))).scalar_one()
    return token, Session(digest(token), account_id, name, csrf, expires)


async def find(engine: AsyncEngine, token: str | None, now: datetime) -> Session | None:
    """The live session the cookie's `token` holds: not expired, its account open."""
    if not token or len(token) > MAX_TOKEN:
        return None
    async with engine.connect() as conn:
        row = (await conn.execute(
            select(account_sessions.c.id, account_sessions.c.account_id, account_sessions.c.csrf_token,
                   account_sessions.c.expires_at, accounts.c.name)
            .join(accounts, accounts.c.id == account_sessions.c.account_id)
            .where(account_sessions.c.id == digest(token), accounts.c.closed_at.is_(None)))).first()
    if row is None or row.expires_at <= now:
        return None
    return Session(row.id, row.account_id, row.name, row.csrf_token, row.expires_at)


async def end(engine: AsyncEngine, session_id: str) -> None:
    """Sign this browser out."""
    async with engine.begin() as conn:
        await conn.execute(delete(account_sessions).where(account_sessions.c.id == session_id))


async def end_all(conn: AsyncConnection, account_id: int) -> None:
    """Sign every browser of the account out, in the caller's transaction."""
    await conn.execute(delete(account_sessions).where(account_sessions.c.account_id == account_id))

"""Signed-in browsers: a random token in the cookie, its sha256 in
`account_sessions`, and a CSRF token per session (app/db/sessions.py). Two
kinds: a player's (`STORE`, the pages' `magery_session` cookie) and an
admin's (`ADMIN_STORE`, opened at the dashboard's own sign-in, for fewer
hours, in a cookie of its own); each store finds only its own kind, and an
admin's only while its account holds the admin role.

The cookie is set HttpOnly and SameSite=Lax, and Secure over https (the
pages' part, COOKIE names it). A session lives in the database, so signing
out ends it everywhere at once, and closing the account ends all of its
sessions in the closing transaction. A session of a closed account is never
found, whatever a row left behind would say.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from app.db import sessions as stored
from app.db.account_models import account_sessions, accounts
from app.db.sessions import MAX_TOKEN as MAX_TOKEN  # re-exported: what a cookie may hold

COOKIE = "magery_session"


@dataclass(frozen=True, slots=True)
class Session(stored.Session):
    @property
    def account_id(self) -> int:
        return self.owner_id


_OPEN = accounts.c.closed_at.is_(None)
STORE = stored.SessionStore(account_sessions, accounts, "account_id", Session, live=_OPEN, marks={"admin": False})
ADMIN_STORE = stored.SessionStore(account_sessions, accounts, "account_id", Session,
                                  live=_OPEN & accounts.c.admin_at.is_not(None), marks={"admin": True})


async def open_session(engine: AsyncEngine, account_id: int, address: str | None, now: datetime,
                       days: float) -> tuple[str, Session]:
    """A new session: (the cookie's token, shown this once; the session)."""
    return await STORE.open(engine, account_id, address, now, timedelta(days=days))


async def find(engine: AsyncEngine, token: str | None, now: datetime) -> Session | None:
    """The live session the cookie's `token` holds: not expired, its account open."""
    return await STORE.find(engine, token, now)


async def end(engine: AsyncEngine, session_id: str) -> None:
    """Sign this browser out."""
    await STORE.end(engine, session_id)


async def end_all(conn: AsyncConnection, account_id: int, keep: str | None = None) -> None:
    """Sign every browser of the account out (but the session `keep`, if named),
    in the caller's transaction."""
    await STORE.end_all(conn, account_id, keep)


async def open_admin_session(engine: AsyncEngine, account_id: int, address: str | None, now: datetime,
                             hours: float) -> tuple[str, Session]:
    """A new dashboard session (the caller has checked the role): (the cookie's token; the session)."""
    return await ADMIN_STORE.open(engine, account_id, address, now, timedelta(hours=hours))


async def find_admin(engine: AsyncEngine, token: str | None, now: datetime) -> Session | None:
    """The live dashboard session `token` holds: not expired, its account open and an admin."""
    return await ADMIN_STORE.find(engine, token, now)

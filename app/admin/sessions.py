"""Signed-in browsers: a random token in an HttpOnly cookie, its sha256 in
`admin_sessions`, and a CSRF token per session, kept by the store both wings
share (app/db/sessions.py).

The session lives in the database, so signing out (or removing the account)
ends it everywhere at once, and a stolen copy of the table signs nobody in.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy.ext.asyncio import AsyncEngine

from app.auth import same as same  # re-exported: the guard and the pages check CSRF with it
from app.db import sessions as stored
from app.db.admin_models import admin_sessions, admin_users

COOKIE = "magery_admin"
LOGIN_COOKIE = "magery_admin_login"  # the sign-in form's CSRF token, before any session
CSRF_HEADER = "X-CSRF-Token"
CSRF_FIELD = "csrf_token"


@dataclass(frozen=True, slots=True)
class Session(stored.Session):
    @property
    def user_id(self) -> int:
        return self.owner_id


# Admins are few and sign in rarely: opening a session sweeps every expired one.
STORE = stored.SessionStore(admin_sessions, admin_users, "user_id", Session, sweep_all=True)


async def open_session(
    engine: AsyncEngine, user_id: int, address: str | None, now: datetime, hours: float,
) -> tuple[str, Session]:
    """A new session: (the cookie's token, the session)."""
    return await STORE.open(engine, user_id, address, now, timedelta(hours=hours))


async def find(engine: AsyncEngine, token: str | None, now: datetime) -> Session | None:
    return await STORE.find(engine, token, now)


async def close(engine: AsyncEngine, session_id: str) -> None:
    await STORE.end(engine, session_id)

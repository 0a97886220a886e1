"""Signed-in browsers: a random token in an HttpOnly cookie, its sha256 in
`admin_sessions`, and a CSRF token per session.

The session lives in the database, so signing out (or removing the account)
ends it everywhere at once, and a stolen copy of the table signs nobody in.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncEngine

from app.auth import digest
from app.auth import same as same  # re-exported: the guard and the pages check CSRF with it
from app.db.admin_models import admin_sessions, admin_users

COOKIE = "magery_admin"
LOGIN_COOKIE = "magery_admin_login"  # the sign-in form's CSRF token, before any session
CSRF_HEADER = "X-CSRF-Token"
CSRF_FIELD = "csrf_token"


@dataclass(frozen=True, slots=True)
class Session:
    id: str
    user_id: int
    name: str
    csrf_token: str
    expires_at: datetime


async def open_session(
    engine: AsyncEngine, user_id: int, address: str | None, now: datetime, hours: float,
) -> tuple[str, Session]:
    """A new session: (the cookie's token, the session)."""
    token = secrets.token_urlsafe(32)
    csrf = secrets.token_urlsafe(32)
    expires = now + timedelta(hours=hours)
    async with engine.begin() as conn:
        # Sessions past their time are dropped here: sign-ins are rare, the table stays small.
        await conn.execute(delete(admin_sessions).where(admin_sessions.c.expires_at <= now))
        await conn.execute(admin_sessions.insert().values(
            id=digest(token), user_id=user_id, csrf_token=csrf, address=(address or "")[:64] or None,
            created_at=now, expires_at=expires))
        name = (await conn.execute(select(admin_users.c.name).where(admin_users.c.id == user_id))).scalar_one()
    return token, Session(digest(token), user_id, name, csrf, expires)


async def find(engine: AsyncEngine, token: str | None, now: datetime) -> Session | None:
    if not token or len(token) > 128:
        return None
    async with engine.connect() as conn:
        row = (await conn.execute(
            select(admin_sessions.c.id, admin_sessions.c.user_id, admin_sessions.c.csrf_token,
                   admin_sessions.c.expires_at, admin_users.c.name)
            .join(admin_users, admin_users.c.id == admin_sessions.c.user_id)
            .where(admin_sessions.c.id == digest(token)))).first()
    if row is None or row.expires_at <= now:
        return None
    return Session(row.id, row.user_id, row.name, row.csrf_token, row.expires_at)


async def close(engine: AsyncEngine, session_id: str) -> None:
    async with engine.begin() as conn:
        await conn.execute(delete(admin_sessions).where(admin_sessions.c.id == session_id))

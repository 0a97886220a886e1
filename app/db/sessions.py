"""Signed-in browsers, the one store both wings that sign people in keep them
in (the admins' dashboard, app/admin/sessions.py; the players' accounts,
app/accounts/sessions.py), each in a table of its own of the same shape:

    id (the sha256 of the cookie's token), <owner>_id, csrf_token, address,
    created_at, expires_at

A random token goes in the cookie and only its digest in the table, so a copy
of the table signs nobody in; a session is found by the digest, joined to its
owner's name; deleting the row signs the browser out, everywhere at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Generic, TypeVar

from sqlalchemy import ColumnElement, Table, delete, select
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from app.auth import digest, new_token

MAX_TOKEN = 128  # longer than any token made here: not looked up at all


@dataclass(frozen=True, slots=True)
class Session:
    id: str  # the token's digest
    owner_id: int
    name: str  # the owner's
    csrf_token: str
    expires_at: datetime


S = TypeVar("S", bound=Session)


class SessionStore(Generic[S]):
    """The sessions of one table. `owner`: the column naming the owner's row in
    `owners` (which has `id` and `name`); `live`: a condition on `owners` a
    session's owner must meet to be found (an account not closed); `sweep_all`:
    opening a session drops every owner's expired ones (a small table), else
    only this owner's (a large one); `kind`: the wing's Session class."""

    def __init__(self, sessions: Table, owners: Table, owner: str, kind: type[S],
                 live: ColumnElement[bool] | None = None, sweep_all: bool = False) -> None:
        self.sessions, self.owners, self.kind = sessions, owners, kind
        self.owner = sessions.c[owner]
        self.live, self.sweep_all = live, sweep_all

    async def open(self, engine: AsyncEngine, owner_id: int, address: str | None, now: datetime,
                   lifetime: timedelta) -> tuple[str, S]:
        """A new session: (the cookie's token, shown this once; the session)."""
        t = self.sessions
        token, csrf = new_token(), new_token()
        expires = now + lifetime
        past = t.c.expires_at <= now
        async with engine.begin() as conn:
            # Sessions past their time go here, so the table stays small.
            await conn.execute(delete(t).where(past if self.sweep_all else (self.owner == owner_id) & past))
            await conn.execute(t.insert().values({
                t.c.id: digest(token), self.owner: owner_id, t.c.csrf_token: csrf,
                t.c.address: (address or "")[:64] or None, t.c.created_at: now, t.c.expires_at: expires}))
            name = (await conn.execute(select(self.owners.c.name).where(self.owners.c.id == owner_id))).scalar_one()
        return token, self.kind(digest(token), owner_id, name, csrf, expires)

    async def find(self, engine: AsyncEngine, token: str | None, now: datetime) -> S | None:
        """The live session the cookie's `token` holds: not expired, its owner `live`."""
        if not token or len(token) > MAX_TOKEN:
            return None
        t = self.sessions
        query = (select(t.c.id, self.owner.label("owner_id"), t.c.csrf_token, t.c.expires_at, self.owners.c.name)
                 .join(self.owners, self.owners.c.id == self.owner).where(t.c.id == digest(token)))
        if self.live is not None:
            query = query.where(self.live)
        async with engine.connect() as conn:
            row = (await conn.execute(query)).first()
        if row is None or row.expires_at <= now:
            return None
        return self.kind(row.id, row.owner_id, row.name, row.csrf_token, row.expires_at)

    async def end(self, engine: AsyncEngine, session_id: str) -> None:
        """Sign this browser out."""
        async with engine.begin() as conn:
            await conn.execute(delete(self.sessions).where(self.sessions.c.id == session_id))

    async def end_all(self, conn: AsyncConnection, owner_id: int) -> None:
        """Sign every browser of the owner out, in the caller's transaction."""
        await conn.execute(delete(self.sessions).where(self.owner == owner_id))

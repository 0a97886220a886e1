"""Signed-in browsers, the one store every sign-in keeps them in
(app/accounts/sessions.py: the players' pages and the admin dashboard alike),
in a table of this shape:

    id (the sha256 of the cookie's token), <owner>_id, csrf_token, address,
    created_at, expires_at, and the marks that tell one kind of session from
    another (`admin`: opened at the dashboard's sign-in)

A random token goes in the cookie and only its digest in the table, so a copy
of the table signs nobody in; a session is found by the digest, joined to its
owner's name; deleting the row signs the browser out, everywhere at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Generic, TypeVar

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
    """One kind of session in a table. `owner`: the column naming the owner's
    row in `owners` (which has `id` and `name`); `live`: a condition on `owners`
    a session's owner must meet to be found (an account not closed); `marks`:
    the columns and values this kind's sessions are stored with and found by
    (a store finds only its own kind); `kind`: the Session class it answers."""

    def __init__(self, sessions: Table, owners: Table, owner: str, kind: type[S],
                 live: ColumnElement[bool] | None = None, marks: dict[str, Any] | None = None) -> None:
        self.sessions, self.owners, self.kind = sessions, owners, kind
        self.owner = sessions.c[owner]
        self.live, self.marks = live, dict(marks or {})

    async def open(self, engine: AsyncEngine, owner_id: int, address: str | None, now: datetime,
                   lifetime: timedelta) -> tuple[str, S]:
        """A new session: (the cookie's token, shown this once; the session)."""
        t = self.sessions
        token, csrf = new_token(), new_token()
        expires = now + lifetime
        past = t.c.expires_at <= now
        async with engine.begin() as conn:
            # The owner's sessions past their time go here, so the table stays small.
            await conn.execute(delete(t).where((self.owner == owner_id) & past))
            await conn.execute(t.insert().values({
                t.c.id: digest(token), self.owner: owner_id, t.c.csrf_token: csrf,
                t.c.address: (address or "")[:64] or None, t.c.created_at: now, t.c.expires_at: expires,
                **{t.c[column]: value for column, value in self.marks.items()}}))
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
        for column, value in self.marks.items():
            query = query.where(t.c[column] == value)
        async with engine.connect() as conn:
            row = (await conn.execute(query)).first()
        if row is None or row.expires_at <= now:
            return None
        return self.kind(row.id, row.owner_id, row.name, row.csrf_token, row.expires_at)

    async def end(self, engine: AsyncEngine, session_id: str) -> None:
        """Sign this browser out."""
        async with engine.begin() as conn:
            await conn.execute(delete(self.sessions).where(self.sessions.c.id == session_id))

    async def end_all(self, conn: AsyncConnection, owner_id: int, keep: str | None = None) -> None:
        """Sign every browser of the owner out (but the session `keep`, if named),
        in the caller's transaction."""
        which = self.owner == owner_id
        if keep is not None:
            which = which & (self.sessions.c.id != keep)
        await conn.execute(delete(self.sessions).where(which))

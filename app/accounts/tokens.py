"""API tokens for clients: named by their owner, with scopes `play` (act in
the owner's matches) and `read` (read what the owner may read), shown once
when made, stored only as their sha256, their last use recorded, revocable.

A token of a closed account is refused at once (the closing also revokes
them all), and a revoked one is never valid again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import or_, select
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from app.auth import digest, new_token
from app.db.account_models import account_tokens, accounts

from .errors import AccountError

SCOPES = ("play", "read")
PREFIX = "mgo_"  # a token is known for what it is in a log or a leak (secret scanners)
MAX_TOKEN = 128
TOKEN_NAME = re.compile(r"[^\x00-\x1f\x7f-\x9f]{1,40}")
TOUCH_EVERY = timedelta(minutes=1)  # a busy client writes its last use at most this often
MAX_LIVE = 20  # live tokens per account


@dataclass(frozen=True, slots=True)
class Token:
    id: int
    account_id: int
    name: str
    scopes: tuple[str, ...]
    created_at: datetime
    last_used_at: datetime | None
    revoked_at: datetime | None
    app: str | None = None  # the OAuth app it was approved for (its client_id); None: made on /account


@dataclass(frozen=True, slots=True)
class Holder:
    """Who a valid token speaks for, and what it may do."""

    account_id: int
    account: str  # the account's name
    token_id: int
    scopes: tuple[str, ...]


def check_scopes(scopes: object) -> tuple[str, ...]:
    if (not isinstance(scopes, list | tuple) or not scopes
            or any(s not in SCOPES for s in scopes) or len(set(scopes)) != len(scopes)):
        raise AccountError(f"scopes are one or both of {', '.join(SCOPES)}, each once", "scopes")
    return tuple(s for s in SCOPES if s in scopes)


def check_token_name(name: object) -> str:
    if not isinstance(name, str) or not TOKEN_NAME.fullmatch(name) or not name.strip():
        raise AccountError("a token's name is 1 to 40 characters, not only spaces, no control characters", "name")
    return name


def _token(r: Any) -> Token:
    return Token(r.id, r.account_id, r.name, tuple(r.scopes.split()), r.created_at, r.last_used_at, r.revoked_at,
                 r.client_id)


async def create(engine: AsyncEngine, account_id: int, name: str, scopes: object,
                 now: datetime, app: str | None = None) -> tuple[str, Token]:
    """A new token: (its plain text, shown this once; the token)."""
    async with engine.begin() as conn:
        return await create_in(conn, account_id, name, scopes, now, app)


async def create_in(conn: AsyncConnection, account_id: int, name: str, scopes: object,
                    now: datetime, app: str | None = None) -> tuple[str, Token]:
    """`create`, in the caller's transaction (an OAuth code is spent in the same one)."""
    check_token_name(name)
    chosen = check_scopes(scopes)
    plain = PREFIX + new_token()
    live = (await conn.execute(select(account_tokens.c.id).where(
        account_tokens.c.account_id == account_id, account_tokens.c.revoked_at.is_(None)))).all()
    if len(live) >= MAX_LIVE:
        raise AccountError(f"an account holds at most {MAX_LIVE} tokens: revoke one first", "name")
    token_id = (await conn.execute(account_tokens.insert().values(
        account_id=account_id, name=name, scopes=" ".join(chosen), token_hash=digest(plain),
        created_at=now, client_id=app).returning(account_tokens.c.id))).scalar_one()
    return plain, Token(token_id, account_id, name, chosen, now, None, None, app)


async def verify(engine: AsyncEngine, plain: str | None, now: datetime) -> Holder | None:
    """Who `plain` speaks for, or None: unknown, revoked, or its account closed.
    Its last use is written (at most every TOUCH_EVERY)."""
    if not plain or len(plain) > MAX_TOKEN or not plain.startswith(PREFIX):
        return None
    async with engine.connect() as conn:
        row = (await conn.execute(
            select(account_tokens.c.id, account_tokens.c.account_id, account_tokens.c.scopes,
                   account_tokens.c.last_used_at, accounts.c.name)
            .join(accounts, accounts.c.id == account_tokens.c.account_id)
            .where(account_tokens.c.token_hash == digest(plain), account_tokens.c.revoked_at.is_(None),
                   accounts.c.closed_at.is_(None)))).first()
    if row is None:
        return None
    if row.last_used_at is None or now - row.last_used_at >= TOUCH_EVERY:
        async with engine.begin() as conn:
            await conn.execute(account_tokens.update().where(
                account_tokens.c.id == row.id,
                or_(account_tokens.c.last_used_at.is_(None), account_tokens.c.last_used_at < now))
                .values(last_used_at=now))
    return Holder(row.account_id, row.name, row.id, tuple(row.scopes.split()))


async def listing(engine: AsyncEngine, account_id: int) -> list[Token]:
    """The account's tokens, newest first, revoked ones included (never their text)."""
    async with engine.connect() as conn:
        rows = (await conn.execute(select(account_tokens).where(account_tokens.c.account_id == account_id)
                                   .order_by(account_tokens.c.id.desc()))).all()
    return [_token(r) for r in rows]


async def revoke(engine: AsyncEngine, account_id: int, token_id: int, now: datetime) -> bool:
    """Revoke one of the account's own tokens; False if it has no such live token."""
    async with engine.begin() as conn:
        done = await conn.execute(account_tokens.update().where(
            account_tokens.c.id == token_id, account_tokens.c.account_id == account_id,
            account_tokens.c.revoked_at.is_(None)).values(revoked_at=now))
    return bool(done.rowcount)


async def revoke_all(conn: AsyncConnection, account_id: int, now: datetime) -> None:
    """Revoke every token of the account, in the caller's transaction."""
    await conn.execute(account_tokens.update().where(
        account_tokens.c.account_id == account_id, account_tokens.c.revoked_at.is_(None)).values(revoked_at=now))

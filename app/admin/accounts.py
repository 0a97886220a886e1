"""Admin accounts: names and argon2id password hashes (argon2-cffi).

Accounts are made and removed only by the command line (`python -m app.admin`);
the dashboard itself has no page that creates one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from app.auth import DUMMY_HASH as _DUMMY_HASH  # a wrong name costs what a wrong password does
from app.auth import PasswordChecks
from app.auth import matches as _matches
from app.auth.hashing import HASHER as _hasher  # argon2id, shared with the players' accounts
from app.db.admin_models import admin_users

NAME = re.compile(r"[A-Za-z0-9_.@-]{1,64}")
NAME_RULE = "1 to 64 letters, digits or . _ @ -"
MIN_PASSWORD = 10


class AccountError(ValueError):
    """A name or password that cannot be used; the message says why."""


@dataclass(frozen=True, slots=True)
class Account:
    id: int
    name: str
    created_at: datetime


def check_name(name: str) -> str:
    if not NAME.fullmatch(name):
        raise AccountError(f"a name is {NAME_RULE}")
    return name


def check_password(password: str) -> str:
    if len(password) < MIN_PASSWORD:
        raise AccountError(f"a password has at least {MIN_PASSWORD} characters")
    return password


async def add(engine: AsyncEngine, name: str, password: str, now: datetime) -> Account:
    check_name(name)
    digest = await PasswordChecks.one_off(_hasher.hash, check_password(password))
    try:
        async with engine.begin() as conn:
            new_id = (await conn.execute(
                admin_users.insert().values(name=name, password_hash=digest, created_at=now)
                .returning(admin_users.c.id))).scalar_one()
    except IntegrityError:
        raise AccountError(f"there is an admin named {name!r} already") from None
    return Account(new_id, name, now)


async def remove(engine: AsyncEngine, name: str) -> bool:
    """Remove the account and (by the foreign key's cascade) end its sessions."""
    async with engine.begin() as conn:
        done = await conn.execute(delete(admin_users).where(admin_users.c.name == name))
    return bool(done.rowcount)


async def listing(engine: AsyncEngine) -> list[Account]:
    async with engine.connect() as conn:
        rows = (await conn.execute(
            select(admin_users.c.id, admin_users.c.name, admin_users.c.created_at)
            .order_by(admin_users.c.name))).all()
    return [Account(r.id, r.name, r.created_at) for r in rows]


async def verify(engine: AsyncEngine, name: str, password: str, checks: PasswordChecks) -> Account | None:
    """The account if `password` is its password, else None (in about the same time)."""
    row = None
    if NAME.fullmatch(name):
        async with engine.connect() as conn:
            row = (await conn.execute(select(admin_users).where(admin_users.c.name == name))).first()
    if not await checks.run(_matches, row.password_hash if row is not None else _DUMMY_HASH, password):
        return None
    if row is None:
        return None
    return Account(row.id, row.name, row.created_at)

"""The admin role: which accounts may sign in to the dashboard (`admin_at`,
since when). An admin is an account like any other: the same name rules
(though a word kept for the site, "admin" say, may be an admin's name), the
same password rules, the same sign-in, lock-out and sessions. Only the
command line (`python -m app.accounts`) makes or unmakes one; each change is
written to the admin audit log, in its transaction, as done by `by`.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from app.auth import PasswordChecks, hash_password
from app.db.account_models import account_sessions, accounts
from app.db.admin_models import admin_audit
from app.kernel.folding import fold

from .errors import AccountError, NameTaken
from .names import check_name
from .passwords import check_password
from .service import Account, Accounts, _account


async def add(service: Accounts, name: str, password: str, by: str) -> Account:
    """A new account that is an admin from the start."""
    chosen = check_name(name, staff=True)
    check_password(password, chosen)
    if await service.by_name(chosen) is not None:  # before the slow hash; the insert decides races
        raise NameTaken(f"there is an account named {chosen!r} already; `make-admin` gives it the role", "name")
    digest = await PasswordChecks.one_off(hash_password, password)  # the command line's: one hash, then it exits
    now = service.now()
    try:
        async with service.engine.begin() as conn:
            new_id = (await conn.execute(accounts.insert().values(
                name=chosen, name_lower=chosen.lower(), name_fold=fold(chosen), password_hash=digest, created_at=now,
                admin_at=now)
                .returning(accounts.c.id))).scalar_one()
            await _audit(conn, "user_added", now, by, chosen)
    except IntegrityError:
        raise NameTaken(f"there is an account named {chosen!r} already", "name") from None
    return Account(new_id, chosen, now, admin=True)


async def grant(service: Accounts, name: str, by: str) -> Account:
    """An existing, open account with a password becomes an admin."""
    account = await service.by_name(name)
    if account is None:
        raise AccountError(f"there is no account named {name!r}; `add-admin` makes one", "name")
    if account.computer is not None or account.bot:
        raise AccountError("a computer level's or a bot's account is never an admin", "name")
    if account.closed:
        raise AccountError(f"the account {account.name!r} is closed", "name")
    if account.admin:
        return account
    now = service.now()
    async with service.engine.begin() as conn:
        await conn.execute(accounts.update().where(accounts.c.id == account.id).values(admin_at=now))
        await _audit(conn, "user_added", now, by, account.name)
    return replace(account, admin=True)


async def revoke(service: Accounts, name: str, by: str) -> Account | None:
    """The role taken away and the account's dashboard sessions ended; the
    account stays, a player's. None: no admin has that name."""
    account = await service.by_name(name)
    if account is None or not account.admin:
        return None
    async with service.engine.begin() as conn:
        await conn.execute(accounts.update().where(accounts.c.id == account.id).values(admin_at=None))
        await conn.execute(delete(account_sessions).where(account_sessions.c.account_id == account.id,
                                                          account_sessions.c.admin.is_(True)))
        await _audit(conn, "user_removed", service.now(), by, account.name)
    return replace(account, admin=False)


async def listing(service: Accounts) -> list[Account]:
    """The admins, by name."""
    async with service.engine.connect() as conn:
        rows = (await conn.execute(select(accounts).where(accounts.c.admin_at.is_not(None))
                                   .order_by(accounts.c.name_lower))).all()
    return [_account(r) for r in rows]


async def _audit(conn: AsyncConnection, kind: str, now: datetime, by: str, name: str) -> None:
    await conn.execute(admin_audit.insert().values(at=now, admin=by[:64], kind=kind, detail={"account": name}))

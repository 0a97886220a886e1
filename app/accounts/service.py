"""The account service: sign up, sign in, sessions, API tokens, closing and
reopening, and the operator's password reset. The pages and the API (a
later step) call these; nothing here knows HTTP.

Passwords are argon2id (app.auth, shared with the admin wing) and checked in
the PasswordChecks pools handed in (the players' and the admins'), so a burst
of sign-ins cannot starve the matches, and the tries wait for a check address
by address, so a burst from a few addresses cannot keep out another. A sign-in answers the same (`SignInFailed`) for a name nobody has,
a computer level and a wrong password, after a check against the dummy hash
that costs what a real one does.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from app.auth import DUMMY_HASH, PasswordChecks, hash_password, matches
from app.auth.tries_in_front import Tries
from app.config import Settings
from app.db.account_models import accounts
from app.db.admin_models import admin_audit
from app.db.models import seats
from app.db.pool_models import pool_seekers
from app.kernel.folding import fold
from app.kernel.origins import Origins

from . import limits, sessions, tokens
from .errors import (
    AccountClosed,
    AccountError,
    NameTaken,
    NoSuchAccount,
    SignInFailed,
    TooMany,
    WrongPassword,
)
from .names import NAME, check_name
from .passwords import check_password

log = logging.getLogger(__name__)
MAX_REASON = 500
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
SELF_CLOSED = "closed by its player"


@dataclass(frozen=True, slots=True)
class Account:
    id: int
    name: str
    created_at: datetime
    computer: str | None = None
    closed_at: datetime | None = None
    closed_reason: str | None = None
    last_seen: datetime | None = None
    bot: bool = False  # a bot account (bots.py): a program plays it
    admin: bool = False  # holds the admin role (admins.py): may sign in to the dashboard

    @property
    def closed(self) -> bool:
        return self.closed_at is not None


def _account(row: Any) -> Account:
    return Account(row.id, row.name, row.created_at, row.computer, row.closed_at, row.closed_reason, row.last_seen,
                   getattr(row, "bot_at", None) is not None, getattr(row, "admin_at", None) is not None)


def check_reason(reason: object) -> str:
    note = reason.strip() if isinstance(reason, str) else ""
    if not note:
        raise AccountError("closing or reopening an account needs a reason, for the audit log", "reason")
    if len(note) > MAX_REASON or _CONTROL.search(note):
        raise AccountError(f"a reason is at most {MAX_REASON} characters, with no control characters", "reason")
    return note


class Accounts:
    def __init__(self, engine: AsyncEngine, settings: Settings, checks: PasswordChecks,
                 clock: Callable[[], float] = time.time, admin_checks: PasswordChecks | None = None) -> None:
        # Two pools: the players' (sign-ins at /login, sign-ups, password changes)
        # and the admins' (sign-ins at /admin/login), so a flood at one form never
        # takes the other's workers nor its places in line.
        self.engine, self.settings, self.checks = engine, settings, checks
        self.admin_checks = admin_checks or checks
        self.clock = clock  # seconds since the epoch; tests replace it to move time
        # This process's sign-in tries: one reservation at a time per address, the
        # address locks the database reported, and the line of the front that
        # refuses a locked address's tries (app/auth/tries_in_front.py).
        self.sign_ins = Tries()
        self.origins = Origins(engine)  # where an account was made from, for fair play
        # Told each closed account's id once the closing is written: the match
        # service ends its running matches (app/wiring.py subscribes it).
        self._closed: list[Callable[[int], Awaitable[object]]] = []

    def on_close(self, heard: Callable[[int], Awaitable[object]]) -> None:
        """Await `heard(account id)` after each closing lands, before `close` answers."""
        self._closed.append(heard)

    def now(self) -> datetime:
        return datetime.fromtimestamp(self.clock(), UTC)

    # ---- finding ---------------------------------------------------------------

    async def by_name(self, name: str) -> Account | None:
        """The account of this name, whatever its case; None for no such account."""
        row = await self._row(name)
        return None if row is None else _account(row)

    async def _row(self, name: object) -> Any:
        if not isinstance(name, str) or not NAME.fullmatch(name):
            return None
        async with self.engine.connect() as conn:
            return (await conn.execute(select(accounts).where(accounts.c.name_lower == name.lower()))).first()

    async def by_id(self, account_id: int) -> Account | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(accounts).where(accounts.c.id == account_id))).first()
        return None if row is None else _account(row)

    async def _named(self, name: str) -> Account:
        found = await self.by_name(name)
        if found is None:
            raise NoSuchAccount(f"there is no account named {name!r}", "name")
        return found

    # ---- signing up and in ------------------------------------------------------

    async def sign_up(self, name: object, password: object, address: str | None) -> Account:
        """A new account; AccountError (naming the rule), NameTaken, or TooMany
        when the address has made its share of accounts lately."""
        chosen = check_name(name)
        check_password(password, chosen)
        assert isinstance(password, str)
        if await self.by_name(chosen) is not None:  # before the slow hash; the insert decides races
            raise NameTaken(f"the name {chosen!r} is taken", "name")
        now = self.now()
        wait = await limits.count_sign_up(self.engine, address, now, self.settings)
        if wait:
            raise TooMany(f"too many accounts made from this address: try again in {wait} seconds", wait)
        async with self.checks.turn(limits.address_key(address)):  # Busy when the address has no place in line
            digest = await self.checks.run(hash_password, password)
        origin = await self.origins.of(address)  # before the transaction: it may make the key
        try:
            async with self.engine.begin() as conn:
                new_id = (await conn.execute(accounts.insert().values(
                    name=chosen, name_lower=chosen.lower(), name_fold=fold(chosen), password_hash=digest,
                    created_at=now, last_seen=now, signup_origin=origin)
                    .returning(accounts.c.id))).scalar_one()
        except IntegrityError:
            raise NameTaken(f"the name {chosen!r} is taken", "name") from None
        return Account(new_id, chosen, now, last_seen=now)

    async def sign_in(self, name: object, password: object, address: str | None, *, known: bool = False,
                      admins: bool = False) -> Account:
        """The account whose password this is (a player's or an admin's). SignInFailed,
        the same for an unknown name and a wrong password; TooMany while a lock
        runs (nothing checked); Busy when the address finds no place in the
        pool's line (counted as a failure all the same); AccountClosed only to
        whoever gave the right password. `known`: the browser holds a session
        already; `admins`: a try at the dashboard's form, checked in the admins'
        pool.

        A process reserves one try per address at a time, and once the database
        has said the address is locked it refuses the address's tries from memory
        (`Tries.wait`: no transaction, no place in the pool) until the lock ends
        or the memory's trust does; then it asks the database again. The try is
        counted before it waits for its check: a try the pool has no room for is
        a failure of its address, so a flood locks its addresses out."""
        now, key = self.now(), limits.address_key(address)
        locked = self.sign_ins.wait(key, now)
        if not locked:
            async with self.sign_ins.one_at_a_time(key):
                locked = self.sign_ins.wait(key, now)  # the try before may have learnt the lock
                if not locked:
                    reserved = await limits.reserve_sign_in(self.engine, str(name), address, now, self.settings,
                                                            self.sign_ins.take_refused(key))
                    self.sign_ins.learn(key, reserved.address_locked_until, now)
                    locked, known = reserved.wait, known or reserved.known
        if locked:
            raise TooMany(f"too many failed sign-ins: try again in {locked} seconds", locked)
        row = await self._row(name)
        digest = row.password_hash if row is not None else None  # none: a computer level
        checks = self.admin_checks if admins else self.checks
        async with checks.turn(key, known):  # Busy when the address has no place in line
            right = await checks.run(matches, digest or DUMMY_HASH, password if isinstance(password, str) else "")
        if not right or row is None or digest is None:
            raise SignInFailed()
        found = _account(row)
        await limits.sign_in_succeeded(self.engine, found.name, address)
        self.sign_ins.forget(key)
        if found.closed:
            raise AccountClosed("this account is closed")
        async with self.engine.begin() as conn:
            await conn.execute(accounts.update().where(accounts.c.id == found.id).values(last_seen=now))
        return found

    # ---- sessions ------------------------------------------------------------------

    async def open_session(self, account: Account, address: str | None) -> tuple[str, sessions.Session]:
        """(the cookie's token, shown once; the session)."""
        return await sessions.open_session(self.engine, account.id, address, self.now(),
                                           self.settings.account_session_days)

    async def session(self, token: str | None) -> sessions.Session | None:
        return await sessions.find(self.engine, token, self.now())

    async def holds_session(self, token: str | None) -> bool:
        """Does this session cookie name a live session? (A sign-in from such a
        browser waits for its check in the known tries' line.)"""
        return bool(token) and await self.session(token) is not None

    async def sign_out(self, session_id: str) -> None:
        await sessions.end(self.engine, session_id)

    # ---- tokens --------------------------------------------------------------------

    async def create_token(self, account: Account, name: object, scopes: object) -> tuple[str, tokens.Token]:
        """(the token's text, shown this once; the token)."""
        if account.closed:
            raise AccountClosed("this account is closed")
        return await tokens.create(self.engine, account.id, check_token_name(name), scopes, self.now())

    async def verify_token(self, plain: str | None) -> tokens.Holder | None:
        return await tokens.verify(self.engine, plain, self.now())

    async def tokens(self, account: Account) -> list[tokens.Token]:
        return await tokens.listing(self.engine, account.id)

    async def revoke_token(self, account: Account, token_id: int) -> bool:
        return await tokens.revoke(self.engine, account.id, token_id, self.now())

    async def revoke_token_id(self, account_id: int, token_id: int) -> bool:
        """Revoke a token its holder calls with (DELETE /api/v1/oauth/token)."""
        return await tokens.revoke(self.engine, account_id, token_id, self.now())

    # ---- closing, reopening, resetting -------------------------------------------------

    async def close(self, name: str, reason: str | None = None, admin: str | None = None,
                    address: str | None = None) -> Account:
        """Close the account: its sessions end, its API tokens and the tokens of
        every seat it holds are revoked, in the same transaction; then those
        told (`on_close`) end its running matches. Its finished matches stay,
        under its name. By its player (`admin` None, the
        reason optional) or by an admin (a reason required, written to the
        audit log with the closing)."""
        note = check_reason(reason) if admin is not None or reason else SELF_CLOSED
        account = await self._named(name)
        if account.computer is not None:
            raise AccountError("a computer level's account is never closed", "name")
        now = self.now()
        async with self.engine.begin() as conn:
            await conn.execute(accounts.update().where(accounts.c.id == account.id)
                               .values(closed_at=now, closed_reason=note))
            await sessions.end_all(conn, account.id)
            await tokens.revoke_all(conn, account.id, now)
            # A seat's token is a credential of the account's too: one handed out
            # at create or join must not act for an account that is gone.
            await conn.execute(seats.update().where(seats.c.account_id == account.id, seats.c.bot.is_(None))
                               .values(token_hash=None))
            # Nor is it paired any more: its waiting places in the pools go.
            await conn.execute(pool_seekers.delete().where(pool_seekers.c.account_id == account.id,
                                                           pool_seekers.c.match_id.is_(None)))
            if admin is not None:
                await conn.execute(admin_audit.insert().values(
                    at=now, admin=admin[:64], kind="account_closed", address=(address or "")[:64] or None,
                    detail={"account": account.name, "reason": note}))
        for heard in self._closed:
            try:
                await heard(account.id)
            except Exception:  # closed all the same: no token acts, no rating moves (rated.py)
                log.exception("ending the matches of closed account %s failed", account.id)
        return Account(account.id, account.name, account.created_at, None, now, note, account.last_seen)

    async def reopen(self, name: str, reason: str, admin: str, address: str | None = None) -> Account:
        """An admin reopens a closed account (its old tokens stay revoked; its
        player signs in again), for a reason written to the audit log."""
        note = check_reason(reason)
        account = await self._named(name)
        if not account.closed:
            raise AccountError(f"the account {account.name!r} is open", "name")
        now = self.now()
        async with self.engine.begin() as conn:
            await conn.execute(accounts.update().where(accounts.c.id == account.id)
                               .values(closed_at=None, closed_reason=None))
            await conn.execute(admin_audit.insert().values(
                at=now, admin=admin[:64], kind="account_reopened", address=(address or "")[:64] or None,
                detail={"account": account.name, "reason": note}))
        return Account(account.id, account.name, account.created_at, None, None, None, account.last_seen)

    async def reset_password(self, name: str, password: str) -> Account:
        """The operator's reset (there is no e-mail): a new password, and every
        session of the account ended (whoever held the old one is signed out).
        Its API tokens stay: they are credentials of their own."""
        account = await self._named(name)
        if account.computer is not None:
            raise AccountError("nobody signs in as a computer level", "name")
        check_password(password, account.name)
        digest = await self.checks.run(hash_password, password)
        async with self.engine.begin() as conn:
            await conn.execute(accounts.update().where(accounts.c.id == account.id).values(password_hash=digest))
            await sessions.end_all(conn, account.id)
        await limits.unlock(self.engine, account.name)
        return account

    async def change_password(self, account: Account, session_id: str, old: object, new: object,
                              address: str | None = None) -> None:
        """The player's own change: the old password first (WrongPassword if it
        is not), the new one through the sign-up rules; every other session of
        the account ends, so whoever held the old password is signed out, while
        `session_id` (the browser making the change) stays signed in. Its API
        tokens stay: they are credentials of their own.

        The old password is a sign-in's secret, so its tries count against the
        same locks as sign-ins (TooMany while one runs): a stolen session must
        not become a way to guess the password without limit."""
        check_password(new, account.name)
        assert isinstance(new, str)
        reserved = await limits.reserve_sign_in(self.engine, account.name, address, self.now(), self.settings)
        if reserved.wait:
            raise TooMany(f"too many wrong passwords: try again in {reserved.wait} seconds", reserved.wait)
        async with self.checks.turn(limits.address_key(address), known=True):  # the browser holds a session
            row = await self._row(account.name)
            digest = row.password_hash if row is not None else None
            right = await self.checks.run(matches, digest or DUMMY_HASH, old if isinstance(old, str) else "")
            if not right or digest is None:
                raise WrongPassword("the old password is not right", "old_password")
            fresh = await self.checks.run(hash_password, new)
        await limits.sign_in_succeeded(self.engine, account.name, address)
        async with self.engine.begin() as conn:
            await conn.execute(accounts.update().where(accounts.c.id == account.id).values(password_hash=fresh))
            await sessions.end_all(conn, account.id, keep=session_id)

    async def unlock(self, name: str) -> bool:
        return await limits.unlock(self.engine, name)


def check_token_name(name: object) -> str:
    return tokens.check_token_name(name)

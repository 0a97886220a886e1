"""The counts that slow guessing and mass sign-ups, kept in `account_limits`
so that every server process counts the same.

Every sign-in is throttled here, a player's at /login and an admin's at
/admin/login alike (one count per name and per address): a try is counted as a failure before its password is checked, in one transaction that
locks the address's row and the name's, so tries sent all at once queue there
and at most `account_lock_after` from one address reach the slow check; a
success forgets the counts. After that many failures from an address each
further try from it waits, the wait doubling per failure up to the longest.
The name's own lock starts only at `account_name_lock_after` failures from
any addresses, and never holds an address the account holds a session from,
nor one an admin signed in to the dashboard from before (the audit log's
`sign_in`): an outsider failing on purpose locks out their own addresses,
not the player nor the admin.

Sign-ups are counted per address in a window that begins with the first.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from app.config import Settings
from app.db.account_models import account_limits, account_sessions, accounts
from app.db.admin_models import admin_audit
from app.kernel.networks import network_of


def name_key(name: str) -> str:
    return f"name:{name.lower()[:64]}"


def address_key(address: str | None) -> str:
    return f"addr:{network_of(address or '-')[:64]}"


def sign_up_key(address: str | None) -> str:
    return f"signup:{network_of(address or '-')[:64]}"


async def _rows(conn: AsyncConnection, keys: list[str], now: datetime) -> dict[str, Any]:
    """The keys' rows, made if missing, locked (sorted: two transactions lock in
    one order). The first statement writes, so on SQLite it takes the write
    lock at once and racing tries queue behind it."""
    insert = pg_insert if conn.dialect.name == "postgresql" else sqlite_insert
    keys = sorted(keys)
    for key in keys:
        await conn.execute(insert(account_limits).values(key=key, hits=0, since=now, locked_until=None)
                           .on_conflict_do_nothing(index_elements=["key"]))
    found = await conn.execute(select(account_limits).where(account_limits.c.key.in_(keys))
                               .order_by(account_limits.c.key).with_for_update())
    return {r.key: r for r in found.all()}


def _wait(failures: int, after: int, settings: Settings) -> float:
    if failures < after:
        return 0.0
    return float(min(settings.account_lock_seconds * 2 ** (failures - after), settings.account_lock_max_seconds))


async def _known(conn: AsyncConnection, name: str, address: str | None) -> bool:
    """Does the account named `name` hold a session from `address`, or has the
    admin of that name signed in to the dashboard from there before?"""
    if not address:
        return False
    found = await conn.execute(
        select(account_sessions.c.id).join(accounts, accounts.c.id == account_sessions.c.account_id)
        .where(accounts.c.name_lower == name.lower()[:20], account_sessions.c.address == address[:64]).limit(1))
    if found.first() is not None:
        return True
    signed = await conn.execute(
        select(admin_audit.c.id).where(admin_audit.c.kind == "sign_in", admin_audit.c.admin == name[:64],
                                       admin_audit.c.address == address[:64]).limit(1))
    return signed.first() is not None


@dataclass(frozen=True, slots=True)
class Reserved:
    """A sign-in try's reservation: `wait`, 0 when it was counted (its password
    may be checked), else the seconds a lock still runs (nothing counted); and
    until when the address itself is locked now (None: it is not), which the
    process remembers to refuse the address's next tries in front
    (app/web/sign_in_front.py). A name's own lock is not the address's."""

    wait: int
    address_locked_until: datetime | None
    known: bool = False  # the name's account holds a session from the address (or its admin signed in there)


async def reserve_sign_in(engine: AsyncEngine, name: str, address: str | None, now: datetime,
                          settings: Settings, refused: int = 0) -> Reserved:
    """Count this try as a failure before its password is checked (wait 0),
    with the address's `refused` tries before it that were turned away
    unchecked (the line in front was full): a flood counts as guessing does.
    Or, while a lock runs, count nothing and say the seconds to wait."""
    addr, user = address_key(address), name_key(name)
    async with engine.begin() as conn:
        rows = await _rows(conn, [addr, user], now)
        known = await _known(conn, name, address)
        held = [addr] if known else [addr, user]
        waits = [(rows[k].locked_until - now).total_seconds() for k in held if rows[k].locked_until is not None]
        longest = max(waits, default=0.0)
        if longest > 0:
            return Reserved(int(longest) + 1, rows[addr].locked_until, known)
        address_until = None
        for key, after in ((addr, settings.account_lock_after), (user, settings.account_name_lock_after)):
            failures = rows[key].hits + 1 + (max(0, refused) if key == addr else 0)
            wait = _wait(failures, after, settings)
            until = now + timedelta(seconds=wait) if wait else None
            address_until = until if key == addr else address_until
            await conn.execute(account_limits.update().where(account_limits.c.key == key).values(
                hits=failures, since=now, locked_until=until))
    return Reserved(0, address_until, known)


async def sign_in_succeeded(engine: AsyncEngine, name: str, address: str | None) -> None:
    """The right password: the failure counted for it and those before are forgotten."""
    async with engine.begin() as conn:
        await conn.execute(delete(account_limits).where(
            account_limits.c.key.in_((name_key(name), address_key(address)))))


async def unlock(engine: AsyncEngine, name: str) -> bool:
    """Forget the failed sign-ins counted for a name (the command line's)."""
    async with engine.begin() as conn:
        done = await conn.execute(delete(account_limits).where(account_limits.c.key == name_key(name)))
    return bool(done.rowcount)


async def count_sign_up(engine: AsyncEngine, address: str | None, now: datetime, settings: Settings) -> int:
    """Count one sign-up from `address` and answer 0, or, when the address has
    made its share in this window, count nothing and answer the seconds to wait."""
    limit, window = settings.account_signups_per_address, settings.account_signup_window_seconds
    if limit <= 0:
        return 0
    key = sign_up_key(address)
    async with engine.begin() as conn:
        row = (await _rows(conn, [key], now))[key]
        since, hits = row.since, row.hits
        if now - since >= timedelta(seconds=window):
            since, hits = now, 0  # the window is over: a new one begins with this sign-up
        if hits >= limit:
            return max(1, int((since + timedelta(seconds=window) - now).total_seconds()) + 1)
        await conn.execute(account_limits.update().where(account_limits.c.key == key)
                           .values(hits=hits + 1, since=since))
    return 0

"""Failed sign-ins, counted per address and per name, and the waits they earn.

A try is *reserved* before its password is checked: in one transaction the
address's and the name's rows are locked, a running lock answers "wait", and
otherwise the try is counted as a failure up front (a success then clears the
counts). Tries sent all at once therefore queue on the rows' lock, and at most
`lock_after` of them from one address ever reach the slow password check; the
rest wait, the right password among them (issue 17, item 3).

The address lock comes first: after `admin_lock_after` failures from one
address, each further try from it waits, the wait doubling per failure up to a
longest. The name lock guards against guessing from many addresses: it counts
every address's failures for the name and starts only at
`admin_name_lock_after`, more than one address can reach before its own lock.
An address the name has signed in from before (the audit log's `sign_in`) is
not held by the name's lock, only by its own: an outsider failing on purpose
locks out their own addresses, never the admin at a known one.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from app.config import Settings
from app.db.admin_models import admin_audit, admin_throttle


def name_key(name: str) -> str:
    return f"user:{name.lower()[:64]}"


def address_key(address: str | None) -> str:
    return f"addr:{(address or '-')[:64]}"


@dataclass(frozen=True, slots=True)
class Reservation:
    """The outcome of asking to check a password: `wait` seconds (0: go ahead),
    and until when the address itself is locked (None: it is not), which this
    process may remember (app/admin/tries.py)."""

    wait: int
    address_locked_until: datetime | None = None


def _wait(failures: int, after: int, settings: Settings) -> float:
    """The lock a key earns with `failures` in a row (0: none)."""
    if failures < after:
        return 0.0
    return float(min(settings.admin_lock_seconds * 2 ** (failures - after), settings.admin_lock_max_seconds))


async def _known(conn: AsyncConnection, name: str, address: str | None) -> bool:
    """Has `name` signed in from `address` before (so the name's lock spares it)?"""
    if not address:
        return False
    found = await conn.execute(
        select(admin_audit.c.id).where(admin_audit.c.kind == "sign_in", admin_audit.c.admin == name[:64],
                                       admin_audit.c.address == address[:64]).limit(1))
    return found.first() is not None


async def _ensure_rows(conn: AsyncConnection, keys: list[str], now: datetime) -> None:
    """Both rows exist (racing first failures meet here, not in a unique violation)."""
    insert = pg_insert if conn.dialect.name == "postgresql" else sqlite_insert
    for key in keys:
        await conn.execute(insert(admin_throttle).values(key=key, failures=0, last_failure_at=now, locked_until=None)
                           .on_conflict_do_nothing(index_elements=["key"]))


async def reserve(engine: AsyncEngine, name: str, address: str | None, now: datetime,
                  settings: Settings) -> Reservation:
    """Count this try as a failure before its password is checked, unless a lock
    runs: then answer how long to wait, and count nothing."""
    addr, user = address_key(address), name_key(name)
    async with engine.begin() as conn:
        # Sorted, so two transactions lock the rows in the same order (no deadlock).
        # The first statement writes: on SQLite that takes the write lock at once.
        await _ensure_rows(conn, sorted((addr, user)), now)
        rows = {r.key: r for r in (await conn.execute(
            select(admin_throttle).where(admin_throttle.c.key.in_(sorted((addr, user))))
            .order_by(admin_throttle.c.key).with_for_update())).all()}
        held = [addr]
        if not await _known(conn, name, address):
            held.append(user)
        waits = [(rows[k].locked_until - now).total_seconds() for k in held if rows[k].locked_until is not None]
        longest = max(waits, default=0.0)
        address_until = rows[addr].locked_until
        if longest > 0:
            return Reservation(int(longest) + 1, address_until if address_until and address_until > now else None)
        for key, after in ((addr, settings.admin_lock_after), (user, settings.admin_name_lock_after)):
            failures = rows[key].failures + 1
            wait = _wait(failures, after, settings)
            until = now + timedelta(seconds=wait) if wait else None
            await conn.execute(admin_throttle.update().where(admin_throttle.c.key == key).values(
                failures=failures, last_failure_at=now, locked_until=until))
            if key == addr:
                address_until = until
    return Reservation(0, address_until)


async def succeeded(engine: AsyncEngine, name: str, address: str | None) -> None:
    """The right password: the reserved failure and those before it are forgotten."""
    async with engine.begin() as conn:
        await conn.execute(delete(admin_throttle).where(
            admin_throttle.c.key.in_((name_key(name), address_key(address)))))


async def unlock(engine: AsyncEngine, name: str) -> bool:
    """Forget the name's failures (the command line's `unlock`)."""
    async with engine.begin() as conn:
        done = await conn.execute(delete(admin_throttle).where(admin_throttle.c.key == name_key(name)))
    return bool(done.rowcount)

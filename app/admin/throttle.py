"""Failed sign-ins in a row, per name and per address: after `lock_after` of
them each further try waits, the wait doubling with every failure (up to a
longest). A success clears both counts.

While a key is locked the password is not even checked, so guessing on gains
nothing; the wait is told to the person in seconds. Someone can keep a name
locked by failing on purpose; the address count keeps one address from trying
many names, the name count keeps many addresses from trying one name.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncEngine

from app.config import Settings
from app.db.admin_models import admin_throttle


def keys(name: str, address: str | None) -> list[str]:
    return [f"user:{name.lower()[:64]}", f"addr:{(address or '-')[:64]}"]


async def wait_seconds(engine: AsyncEngine, name: str, address: str | None, now: datetime) -> int:
    """Seconds to wait before another try may be checked (0: go ahead)."""
    async with engine.connect() as conn:
        rows = (await conn.execute(
            select(admin_throttle.c.locked_until)
            .where(admin_throttle.c.key.in_(keys(name, address))))).all()
    waits = [(r.locked_until - now).total_seconds() for r in rows if r.locked_until is not None]
    longest = max(waits, default=0.0)
    return int(longest) + 1 if longest > 0 else 0


async def failed(engine: AsyncEngine, name: str, address: str | None, now: datetime, settings: Settings) -> None:
    async with engine.begin() as conn:
        for key in keys(name, address):
            row = (await conn.execute(
                select(admin_throttle.c.failures).where(admin_throttle.c.key == key).with_for_update())).first()
            failures = (row.failures if row is not None else 0) + 1
            locked = None
            if failures >= settings.admin_lock_after:
                wait = min(settings.admin_lock_seconds * 2 ** (failures - settings.admin_lock_after),
                           settings.admin_lock_max_seconds)
                locked = now + timedelta(seconds=wait)
            values = {"failures": failures, "last_failure_at": now, "locked_until": locked}
            if row is None:
                await conn.execute(admin_throttle.insert().values(key=key, **values))
            else:
                await conn.execute(admin_throttle.update().where(admin_throttle.c.key == key).values(**values))


async def succeeded(engine: AsyncEngine, name: str, address: str | None) -> None:
    async with engine.begin() as conn:
        await conn.execute(delete(admin_throttle).where(admin_throttle.c.key.in_(keys(name, address))))

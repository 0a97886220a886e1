"""The push subscriptions kept for each account (app/db/push_models.py).

An account holds at most `MOST_PER_ACCOUNT` of them: a browser's subscription
changes now and then (a new one made, the old one left behind), so a new one
past the most pushes out the one posted longest ago rather than being refused.
Posting an endpoint kept already renews it (its keys as now sent, the
account as now signed in: one browser, whoever uses it now).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.push_models import push_subscriptions as subs

MOST_PER_ACCOUNT = 10


@dataclass(frozen=True, slots=True)
class Subscription:
    """Where to push and the browser's keys to encrypt to (URL-safe base64)."""

    endpoint: str
    p256dh: str
    auth: str
    id: int = 0

    def info(self) -> dict[str, object]:
        """As a browser's PushSubscription JSON writes it (what pywebpush reads)."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


async def keep(engine: AsyncEngine, account_id: int, sub: Subscription, now: datetime) -> bool:
    """Keep `sub` for the account; answers whether it is new (not a renewal)."""
    values = {"account_id": account_id, "p256dh": sub.p256dh, "auth": sub.auth, "created_at": now}
    for _ in range(3):  # an insert racing another of the same endpoint renews it instead
        try:
            async with engine.begin() as conn:
                renewed = (await conn.execute(update(subs).where(subs.c.endpoint == sub.endpoint)
                                              .values(**values))).rowcount
                if not renewed:
                    await conn.execute(subs.insert().values(endpoint=sub.endpoint, **values))
                older = (await conn.execute(
                    select(subs.c.id).where(subs.c.account_id == account_id)
                    .order_by(subs.c.created_at.desc(), subs.c.id.desc()).offset(MOST_PER_ACCOUNT))).scalars().all()
                if older:
                    await conn.execute(delete(subs).where(subs.c.id.in_(older)))
                return not renewed
        except IntegrityError:
            continue
    raise RuntimeError("a push subscription kept being inserted by another request")


async def remove(engine: AsyncEngine, account_id: int, endpoint: str) -> bool:
    """Forget the account's subscription at `endpoint`; whether it had one."""
    async with engine.begin() as conn:
        gone = await conn.execute(delete(subs).where(subs.c.account_id == account_id, subs.c.endpoint == endpoint))
    return bool(gone.rowcount)


async def forget(engine: AsyncEngine, sub: Subscription) -> None:
    """Forget a subscription its push service says is gone (unless it was posted
    again since, with new keys: then the new one stays)."""
    async with engine.begin() as conn:
        await conn.execute(delete(subs).where(subs.c.endpoint == sub.endpoint, subs.c.p256dh == sub.p256dh,
                                              subs.c.auth == sub.auth))


async def of_account(engine: AsyncEngine, account_id: int) -> list[Subscription]:
    """The account's subscriptions, the latest posted first."""
    query = (select(subs.c.id, subs.c.endpoint, subs.c.p256dh, subs.c.auth).where(subs.c.account_id == account_id)
             .order_by(subs.c.created_at.desc(), subs.c.id.desc()))
    async with engine.connect() as conn:
        return [Subscription(r.endpoint, r.p256dh, r.auth, r.id) for r in (await conn.execute(query)).all()]

"""The outbox's statements: take due rows under a lease, then delete or put off.

A row is taken by setting its lease (`lease_until_ms`, `claimed_by`) in one
UPDATE that only takes rows whose lease is empty or past: of two senders, one
gets each row. On PostgreSQL the rows are chosen `FOR UPDATE SKIP LOCKED`, so
senders on many processes take different rows at once instead of queueing on
the same ones; on SQLite the one writer does the same. A sender that dies
holding rows loses nothing: their lease runs out and any sender takes them
again. Every later change is made only by the row's holder (`claimed_by`), so a
sender whose lease ran out while it delivered cannot undo the next holder's work.
"""

from __future__ import annotations

from collections.abc import Collection

from sqlalchemy import and_, delete, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.notify_models import notify_outbox as outbox

from .channel import OutboxItem


def _due(channels: Collection[str], now_ms: int):  # type: ignore[no-untyped-def]
    return and_(outbox.c.channel.in_(sorted(channels)), outbox.c.due_ms <= now_ms,
                or_(outbox.c.lease_until_ms.is_(None), outbox.c.lease_until_ms < now_ms))


async def take(engine: AsyncEngine, channels: Collection[str], sender: str, now_ms: int, lease_ms: int,
               most: int) -> list[tuple[str, OutboxItem]]:
    """Up to `most` due rows of these channels, leased to `sender` until now + lease."""
    if not channels:
        return []
    chosen = select(outbox.c.id).where(_due(channels, now_ms)).order_by(outbox.c.due_ms, outbox.c.id).limit(most)
    if engine.dialect.name == "postgresql":
        chosen = chosen.with_for_update(skip_locked=True)
    statement = (update(outbox).where(outbox.c.id.in_(chosen.scalar_subquery()), _due(channels, now_ms))
                 .values(lease_until_ms=now_ms + lease_ms, claimed_by=sender)
                 .returning(outbox.c.id, outbox.c.notification_id, outbox.c.account_id, outbox.c.channel,
                            outbox.c.kind, outbox.c.data, outbox.c.created_ms, outbox.c.tries))
    async with engine.begin() as conn:
        rows = sorted((await conn.execute(statement)).all(), key=lambda r: r.id)
    return [(r.channel, OutboxItem(r.id, r.notification_id, r.account_id, r.kind, dict(r.data), r.created_ms,
                                   r.tries)) for r in rows]


async def finish(engine: AsyncEngine, item_id: int, sender: str) -> bool:
    """Delivered, or given up: the row goes. False: the lease had passed to another."""
    async with engine.begin() as conn:
        done = await conn.execute(delete(outbox).where(outbox.c.id == item_id, outbox.c.claimed_by == sender))
    return bool(done.rowcount)


async def finish_many(engine: AsyncEngine, item_ids: Collection[int], sender: str) -> set[int]:
    """`finish` for many rows in one statement; answers the ids this sender still held."""
    if not item_ids:
        return set()
    async with engine.begin() as conn:
        gone = await conn.execute(delete(outbox).where(outbox.c.id.in_(sorted(item_ids)), outbox.c.claimed_by == sender)
                                  .returning(outbox.c.id))
        return {int(i) for i in gone.scalars()}


async def put_off(engine: AsyncEngine, item_id: int, sender: str, due_ms: int) -> bool:
    """Try again at `due_ms`, one try more counted; the lease let go."""
    async with engine.begin() as conn:
        done = await conn.execute(
            update(outbox).where(outbox.c.id == item_id, outbox.c.claimed_by == sender)
            .values(due_ms=due_ms, tries=outbox.c.tries + 1, lease_until_ms=None, claimed_by=None))
    return bool(done.rowcount)


async def waiting(engine: AsyncEngine) -> dict[str, int]:
    """Rows waiting in the outbox, by channel (taken or not)."""
    async with engine.connect() as conn:
        rows = (await conn.execute(select(outbox.c.channel, func.count()).group_by(outbox.c.channel))).all()
    return {str(channel): int(count) for channel, count in rows}

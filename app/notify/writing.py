"""Notices written in the caller's transaction: the inbox row and one outbox row
per channel the player takes this kind by. What caused them commits with them
or not at all, so a notice is never lost nor told of something that did not
happen."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from sqlalchemy import insert
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection

from app.db.notify_models import notifications, notify_outbox

from .kinds import INBOX
from .notice import Notice
from .preferences import chosen, wants


async def write(conn: AsyncConnection, notices: Sequence[Notice], channels: Collection[str], now_ms: int) -> list[int]:
    """Write `notices` in `conn`'s transaction; answers the accounts given a new
    inbox row (to wake their pages). A notice with a `once_key` already written
    for its account is skipped whole (nothing goes to the outbox for it)."""
    if not notices:
        return []
    changed = await chosen(conn, [n.account_id for n in notices])
    told: list[int] = []
    outbox: list[dict[str, object]] = []
    for notice in notices:
        notification_id: int | None = None
        in_inbox = wants(changed, notice.account_id, notice.kind, INBOX)
        if in_inbox or notice.once_key is not None:
            # A once-only notice keeps its row as the mark that it was written
            # (read already, when the player keeps its kind out of the inbox).
            notification_id = await _insert(conn, notice, now_ms, read=not in_inbox)
            if notification_id is None:
                continue  # written before (another process's tick)
            told.append(notice.account_id)
        for channel in channels:
            if wants(changed, notice.account_id, notice.kind, channel):
                outbox.append({"notification_id": notification_id, "account_id": notice.account_id,
                               "channel": channel, "kind": notice.kind, "data": notice.data,
                               "created_ms": now_ms, "due_ms": now_ms, "tries": 0})
    if outbox:
        await conn.execute(notify_outbox.insert(), outbox)
    return told


async def _insert(conn: AsyncConnection, notice: Notice, now_ms: int, read: bool) -> int | None:
    values = {"account_id": notice.account_id, "kind": notice.kind, "data": notice.data, "created_ms": now_ms,
              "once_key": notice.once_key, "read_ms": now_ms if read else None}
    if notice.once_key is None:
        statement = insert(notifications).values(**values)
    else:
        dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
        statement = dialect.insert(notifications).values(**values).on_conflict_do_nothing(
            index_elements=["account_id", "once_key"])
    found = (await conn.execute(statement.returning(notifications.c.id))).scalar()
    return None if found is None else int(found)


@dataclass(frozen=True, slots=True)
class Told:
    """Notices and the channels they may leave by, to be written with a change."""

    notices: Sequence[Notice]
    channels: Collection[str]

    async def write(self, conn: AsyncConnection, now_ms: int) -> list[int]:
        return await write(conn, self.notices, self.channels, now_ms)

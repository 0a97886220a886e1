"""A report handled is told to those who made it: each reporter with an account
(a guest has no inbox) learns that the line was hidden or left as it is, in the
transaction that handled it. Nothing of who else reported is told."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from sqlalchemy import select

from app.db.chat_models import chat_reports
from app.notify import Notice, write
from app.notify.kinds import REPORT_HANDLED

ACCOUNT = "account:"  # a reporter's key when signed in (chat_lines.author_key's form)


async def tell_reporters(conn: Any, line_id: int, match_id: str, outcome: str, channels: Collection[str],
                         now_ms: int) -> list[int]:
    """Answers the accounts told."""
    keys = (await conn.execute(select(chat_reports.c.reporter).where(chat_reports.c.line_id == line_id))).scalars()
    reporters = sorted({int(k[len(ACCOUNT):]) for k in keys if k.startswith(ACCOUNT) and k[len(ACCOUNT):].isdigit()})
    notices = [Notice(account, REPORT_HANDLED, {"match_id": match_id, "line_id": line_id, "outcome": outcome})
               for account in reporters]
    return await write(conn, notices, channels, now_ms)

"""The history as CSV, streamed a thousand matches at a time: a download of
every match never sits whole in memory."""

from __future__ import annotations

import csv
import io
from collections.abc import AsyncIterator
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from . import match_search

COLUMNS = ("id", "status", "variant", "created_at", "finished_at", "white", "white_bot", "black", "black_bot",
           "winner", "reason", "version", "time_control", "custom", "white_account", "black_account")


def _row(m: dict[str, Any]) -> list[Any]:
    result = m["result"] or {}
    white, black = m["players"]["white"] or {}, m["players"]["black"] or {}
    tc = m["time_control"]
    return [m["id"], m["status"], m["variant"], m["created_at"], m["finished_at"] or "",
            white.get("name", ""), white.get("bot") or "", black.get("name", ""), black.get("bot") or "",
            (result.get("winner") or "draw") if m["status"] == "finished" and result else "",
            result.get("reason", ""), m["version"], "" if tc is None else tc.get("type", ""), m["custom"],
            white.get("account") or "", black.get("account") or ""]  # last: the accounts came after the other columns


def _safe(value: Any) -> Any:
    """A cell a spreadsheet would run as a formula (=, +, -, @) is quoted with '."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


async def rows(engine: AsyncEngine, q: match_search.Query, batch: int = 1000) -> AsyncIterator[str]:
    buffer = io.StringIO()
    out = csv.writer(buffer)
    out.writerow(COLUMNS)
    n = 0
    async for match in match_search.every(engine, q, batch):
        out.writerow([_safe(v) for v in _row(match)])
        n += 1
        if n % batch == 0:
            yield buffer.getvalue()
            buffer.seek(0)
            buffer.truncate()
    yield buffer.getvalue()

"""The cursors of the match list: the (created_at, id) of a page's last row,
written `<created_at in ms since the epoch>.<match id>`.

Every string of that form (CURSOR, the pattern the OpenAPI schema gives) is a
place in the list, so the server takes every cursor the schema admits (issue
12, defect 5): one that no page ended on simply starts the next page there.
"""

from __future__ import annotations

import re
from datetime import datetime

from .errors import BadRequest
from .moments import moment, ms_of

CURSOR = r"^[0-9]{1,14}\.[A-Za-z0-9_-]{1,32}$"  # 14 digits of ms: to the year 5138
CURSOR_MAX = 14 + 1 + 32
_CURSOR = re.compile(CURSOR)


def make_cursor(created_at: datetime, match_id: str) -> str:
    return f"{ms_of(created_at)}.{match_id}"


def read_cursor(cursor: str) -> tuple[datetime, str]:
    if _CURSOR.match(cursor) is None:
        raise BadRequest("cursor is not one this server gave out (next_cursor of a page)")
    ms, match_id = cursor.split(".", 1)
    return moment(int(ms)), match_id

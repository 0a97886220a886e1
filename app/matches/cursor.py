"""The opaque cursors of the match list: the (created_at, id) of a page's last row."""

from __future__ import annotations

import base64
import binascii
import json
from datetime import UTC, datetime

from .errors import BadRequest
from .ids import is_match_id


def make_cursor(created_at: datetime, match_id: str) -> str:
    raw = json.dumps([created_at.isoformat(), match_id]).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def read_cursor(cursor: str) -> tuple[datetime, str]:
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        at, match_id = json.loads(raw)
        when = datetime.fromisoformat(at).astimezone(UTC)
        if not isinstance(match_id, str) or not is_match_id(match_id):
            raise ValueError("not a match id")
        return when, match_id
    except (ValueError, TypeError, OverflowError, binascii.Error):
        raise BadRequest("cursor is not one this server gave out") from None

"""What an identifier may look like, checked at every door (REST and websocket).

Refusing odd characters up front keeps them out of the database (PostgreSQL
refuses NUL) and out of JSON replies (a lone surrogate cannot be encoded).
"""

from __future__ import annotations

import re

# Match ids are secrets.token_urlsafe(9): 12 URL-safe characters.
MATCH_ID = r"^[A-Za-z0-9_-]{1,32}$"
# A client's action id: 1-64 printable ASCII characters, no spaces (a UUID fits).
CLIENT_ID = r"^[\x21-\x7e]{1,64}$"
# A chosen seed is written in the position text: printable, no NUL or control.
SEED = r"^[^\x00-\x1f\x7f]{1,128}$"
# A display name: printable, no control characters, not starting or ending blank.
NAME = r"^[^\x00-\x1f\x7f\s]([^\x00-\x1f\x7f]*[^\x00-\x1f\x7f\s])?$"

_MATCH_ID = re.compile(MATCH_ID)
_CLIENT_ID = re.compile(CLIENT_ID)


def is_match_id(value: str) -> bool:
    return _MATCH_ID.match(value) is not None


def is_client_id(value: object) -> bool:
    return isinstance(value, str) and _CLIENT_ID.match(value) is not None

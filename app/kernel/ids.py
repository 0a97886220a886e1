"""What an identifier may look like, checked at every gateway (REST and websocket).

Refusing odd characters up front keeps them out of the database (PostgreSQL
refuses NUL) and out of JSON replies (a lone surrogate cannot be encoded).
"""

from __future__ import annotations

import re

# Match ids are secrets.token_urlsafe(9): 12 URL-safe characters.
MATCH_ID = r"^[A-Za-z0-9_-]{1,32}$"
# A client's action id: 1-64 printable ASCII characters, no spaces (a UUID fits).
CLIENT_ID = r"^[\x21-\x7e]{1,64}$"
# A chosen seed is written in the position text: printable, no NUL or control
# character (C0, DEL, C1: what app/kernel/text.py refuses to store).
SEED = r"^[^\x00-\x1f\x7f-\x9f]{1,128}$"
# A display name: no control character (C0, DEL, C1), no
# bidirectional control (U+202E would show the rest of a line reversed), and
# starting and ending with a character that shows: not a blank, not a format
# character of the Basic Multilingual Plane (zero-width space, joiners, soft
# hyphen...) nor a filler that draws nothing. Written for both Python's `re` and
# JSON Schema's regexes, so the schema says exactly what the server takes.
CONTROL_CHARS = r"\x00-\x1f\x7f-\x9f"
BIDI_CHARS = r"\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
BLANK_CHARS = (r"\s\xa0\xad\u034f\u0600-\u0605\u06dd\u070f\u0890\u0891\u08e2\u115f\u1160\u17b4\u17b5"
               r"\u180e\u200b-\u200d\u2060-\u2064\u206a-\u206f\u2800\u3164\ufeff\ufff9-\ufffb\uffa0")
_ANY = f"[^{CONTROL_CHARS}{BIDI_CHARS}]"
_SHOWN = f"[^{CONTROL_CHARS}{BIDI_CHARS}{BLANK_CHARS}]"
NAME = f"^{_SHOWN}({_ANY}*{_SHOWN})?$"

_MATCH_ID = re.compile(MATCH_ID)
_NAME = re.compile(NAME)
_SHOWN_CHAR = re.compile(_SHOWN)
_CONTROL = re.compile(f"[{CONTROL_CHARS}]")
_BIDI = re.compile(f"[{BIDI_CHARS}]")
_CLIENT_ID = re.compile(CLIENT_ID)


def is_match_id(value: str) -> bool:
    return _MATCH_ID.match(value) is not None


def is_client_id(value: object) -> bool:
    return isinstance(value, str) and _CLIENT_ID.match(value) is not None


def name_flaw(name: str) -> str | None:
    """Why `name` is no display name (None: it is one), in words."""
    if _NAME.match(name):
        return None
    if (found := _CONTROL.search(name)) is not None:
        return f"holds a control character (\\u{ord(found.group()):04x}) at character {found.start() + 1}"
    if (found := _BIDI.search(name)) is not None:
        return (f"holds a bidirectional control (\\u{ord(found.group()):04x}) at character {found.start() + 1},"
                " which reorders what is shown")
    if not any(_SHOWN_CHAR.match(c) for c in name):
        return "has no visible character"
    return "starts or ends with a blank or invisible character"

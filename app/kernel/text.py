"""What text may be stored: valid Unicode (no lone surrogate, which UTF-8
cannot encode) and no NUL or other control character but tab and line breaks.

PostgreSQL refuses NUL in text and JSON, and a lone surrogate breaks every
answer that quotes it (one moderation reason made a match's
pages, the audit log and the figures answer 500 for good). Every gateway that
stores a client's or an admin's text checks it here first, and the refusal
names the field.
"""

from __future__ import annotations

from .errors import BadRequest


def flaw(text: str, line_breaks: bool = True) -> str | None:
    """What makes `text` unfit to store, in words (None: it is fit)."""
    for at, char in enumerate(text, start=1):
        code = ord(char)
        if 0xD800 <= code <= 0xDFFF:
            return f"a lone surrogate (\\u{code:04x}) at character {at}; text must be valid Unicode"
        if code == 0:
            return f"a NUL character at character {at}"
        if (code < 0x20 or 0x7F <= code <= 0x9F) and not (line_breaks and char in "\t\n\r"):
            return f"a control character (\\u{code:04x}) at character {at}"
    return None


def check(field: str, text: str, line_breaks: bool = True) -> str:
    """`text` if it may be stored, else BadRequest naming `field` and the flaw."""
    problem = flaw(text, line_breaks)
    if problem:
        raise BadRequest(f"{field} holds {problem}")
    return text

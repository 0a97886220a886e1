"""Whole numbers in a query string or a path, written as digits and nothing else.

pydantic's lax parsing takes "+0.0", " 1" and "1_0" as integers; a client who
sent one of those meant something we can't be sure of, and every cursor and
count of the API is plain decimal digits, so anything else is refused (422,
naming the parameter) rather than guessed at.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BeforeValidator

DIGITS = re.compile(r"[0-9]{1,19}")  # the form alone: each parameter states its own bounds


def _digits_only(value: Any) -> Any:
    if isinstance(value, str) and not DIGITS.fullmatch(value):
        raise ValueError("a whole number written in digits alone (no sign, point, space or underscore)")
    return value


Digits = BeforeValidator(_digits_only)


def version_number(text: str) -> int:
    """A socket's ?since=: digits alone, as every other version the API reads."""
    if not DIGITS.fullmatch(text):
        raise ValueError("since must be a version number")
    return int(text)

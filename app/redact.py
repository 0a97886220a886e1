"""Seat tokens kept out of the server's logs.

A browser cannot set headers on a websocket, so a seat's socket carries its
token in the query string (`…/ws?token=…`), and uvicorn logs every socket's path
with its query. This filter, on uvicorn's loggers, rewrites any `token=` value
before a record is written.
"""

from __future__ import annotations

import logging
import re

TOKEN = re.compile(r"(?i)(\btoken=)[^&\s\"']+")
LOGGERS = ("uvicorn.error", "uvicorn.access")


def redact(text: str) -> str:
    return TOKEN.sub(r"\1[redacted]", text)


class RedactTokens(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str) and "token=" in record.msg.lower():
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        return True


def install() -> None:
    """Idempotent: each of uvicorn's loggers gets the filter once."""
    for name in LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactTokens) for f in logger.filters):
            logger.addFilter(RedactTokens())

"""Secrets kept out of the server's logs.

A browser cannot set headers on a websocket, so a seat's socket carries its
token in the query string (`…/ws?token=…`; some clients say `access_token=`),
and uvicorn logs every socket's path with its query. A database URL may carry
a password, and an error's text may quote a dict holding a token, a password or
a running match's seed. `redact` rewrites the value of each before a line is
written: the filter below does it on uvicorn's own loggers, and app/ops/logs.py
runs every finished log line (message, exception and extra fields alike)
through it.
"""

from __future__ import annotations

import logging
import re

MASK = "[redacted]"
# `token=…`, `access_token=…`, `password=…`, `seed=…` in a query string or a sentence.
_ASSIGNED = re.compile(r"(?i)(\b[a-z_]*(?:token|password|passwd|secret|seed)=)[^&\s\"'\\,;]+")
# `Authorization: Bearer …` quoted back in an error.
_BEARER = re.compile(r"(?i)(\bbearer\s+)[A-Za-z0-9\-._~+/]+=*")
# The password of a URL: `postgresql://user:password@host`.
_URL_PASSWORD = re.compile(r"(?i)(\b[a-z][a-z0-9+.\-]*://[^:/@\s\"']*:)[^@/\s\"']+(@)")
# A key and its value in a dict's repr or JSON (escaped quotes too, as in a
# JSON log line): "token": "…", 'seed': '…', "password": "…". Only the exact
# word `seed`: `seed_commitment` is public.
_KEYED = re.compile(
    r"(?i)((?:\\?[\"'])(?:[a-z_]*token|password|passwd|secret|seed)(?:\\?[\"'])\s*[:=]\s*(?:\\?[\"'])?)"
    r"[^\"'\\\s,}]+")
# A mail's signed link in a request's path (app/mail): /mail/verify/<token>, /mail/unsubscribe/<token>.
_MAIL_LINK = re.compile(r"(/mail/(?:verify|unsubscribe)/)[^/?\s\"'#]+")
_MARKERS = ("token", "password", "passwd", "secret", "seed", "bearer", "://", "/mail/")


def redact(text: str) -> str:
    """`text` with every secret value it names replaced by `[redacted]`."""
    lowered = text.lower()
    if not any(marker in lowered for marker in _MARKERS):
        return text  # the common case: nothing to look at, no regex run
    text = _ASSIGNED.sub(r"\1" + MASK, text)
    text = _BEARER.sub(r"\1" + MASK, text)
    text = _URL_PASSWORD.sub(r"\1" + MASK + r"\2", text)
    text = _MAIL_LINK.sub(r"\1" + MASK, text)
    return _KEYED.sub(r"\1" + MASK, text)


LOGGERS = ("uvicorn.error", "uvicorn.access")


class RedactTokens(logging.Filter):
    """On uvicorn's loggers: the message and its arguments, before any handler
    (whatever formats the line) sees them."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
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

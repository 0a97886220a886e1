"""The server's log lines: one JSON object a line (or plain text), every secret
redacted, and the id of the request being served on each line written while
serving it.

The match service and the rest log through the standard `logging` module, as
uvicorn does; `configure` puts one handler on the root logger and on uvicorn's
loggers, so every line leaves in the same form. The request id lives in a
context variable (set by app/ops/outermost.py for each HTTP request), which asyncio
carries into everything the request awaits: the gateway, the match service, the
database calls, and uvicorn's access line, which is written while the response
starts.
"""

from __future__ import annotations

import logging
import sys
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any, TextIO

from pythonjsonlogger.json import JsonFormatter

from app.redact import redact

REQUEST_ID: ContextVar[str | None] = ContextVar("magery_request_id", default=None)
# uvicorn's own loggers: their handlers are replaced, their levels kept (--log-level).
UVICORN = ("uvicorn", "uvicorn.access")
# Libraries whose debug and info lines quote SQL with its parameters (a running
# match's seed, token hashes): kept at WARNING whatever LOG_LEVEL says.
QUIET = ("sqlalchemy", "aiosqlite", "asyncpg")
# Record attributes that are not worth a field: uvicorn's coloured copy of the message.
_NOISE = ("color_message",)


class JsonLines(JsonFormatter):
    """`{"time", "level", "logger", "message", "request_id"?, …extra}`; exceptions as text."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s %(message)s",
                         rename_fields={"asctime": "time", "levelname": "level", "name": "logger"})
        self.reserved_attrs.update(_NOISE)
        self._skip_fields.update(_NOISE)

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        """UTC to the millisecond, in the form of the API's timestamps (docs/api.md)."""
        stamp = datetime.fromtimestamp(record.created, UTC)
        return stamp.strftime("%Y-%m-%dT%H:%M:%S.") + f"{stamp.microsecond // 1000:03d}Z"

    def add_fields(self, log_data: dict[str, Any], record: logging.LogRecord,
                   message_dict: dict[str, Any]) -> None:
        super().add_fields(log_data, record, message_dict)
        request_id = REQUEST_ID.get()
        if request_id is not None:
            log_data["request_id"] = request_id

    def format(self, record: logging.LogRecord) -> str:
        # The whole line, so that nothing (an extra field, a traceback) escapes.
        return redact(super().format(record))


class TextLines(logging.Formatter):
    """For a person at a terminal: time, level, logger, [request id], message."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)-7s %(name)s %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        request_id = REQUEST_ID.get()
        if request_id is not None:
            line = f"{line} [request {request_id}]"
        return redact(line)


class _Stderr(logging.StreamHandler):  # type: ignore[type-arg]
    """Writes to whatever `sys.stderr` is at the moment (a test harness swaps it)."""

    def __init__(self) -> None:
        super().__init__()

    @property
    def stream(self) -> TextIO:
        return sys.stderr

    @stream.setter
    def stream(self, _value: TextIO) -> None:
        pass


class OurHandler(_Stderr):
    """The one handler `configure` installs (found again by its class)."""


def configure(log_format: str = "json", level: str = "INFO") -> None:
    """Send every log line through one handler in `log_format`. Idempotent; the
    handlers others put on the root logger (a test's log capture) stay."""
    handler = OurHandler()
    handler.setFormatter(JsonLines() if log_format == "json" else TextLines())
    root = logging.getLogger()
    for mine in [h for h in root.handlers if isinstance(h, OurHandler)]:
        root.removeHandler(mine)
    root.addHandler(handler)
    root.setLevel(level)
    for name in QUIET:
        logging.getLogger(name).setLevel(logging.WARNING)
    for name in UVICORN:
        logger = logging.getLogger(name)
        # Their stream handlers (uvicorn's own formats) go; a test's capture stays.
        for old in [h for h in logger.handlers if type(h) is logging.StreamHandler or isinstance(h, OurHandler)]:
            logger.removeHandler(old)
        logger.addHandler(handler)
        logger.propagate = False  # written once, by the handler just added

"""Telling a database that cannot be reached right now from a bug.

When Postgres refuses connections (too many clients, starting up, shutting
down), the link drops, or no pooled connection comes free in time, a request
has done nothing wrong: it is answered 503 with Retry-After, and a client may
resend. An action is safe to resend with the same id whether or not its commit
went through (app/matches/service.py answers a resend as the first).
Anything else (a missing table, a constraint nobody expected) stays a bug: 500,
logged with its stack.
"""

from __future__ import annotations

import errno
import logging
import socket
import sqlite3
import time

import asyncpg
import sqlalchemy.exc

RETRY_AFTER_SECONDS = 1

# asyncpg's own: the server refuses or drops us (SQLSTATE classes 08, 53300, 57P).
_ASYNCPG = (
    asyncpg.exceptions.PostgresConnectionError,  # class 08
    asyncpg.exceptions.TooManyConnectionsError,  # 53300
    asyncpg.exceptions.CannotConnectNowError,  # 57P03: starting up
    asyncpg.exceptions.AdminShutdownError,  # 57P01
    asyncpg.exceptions.CrashShutdownError,  # 57P02
    asyncpg.exceptions.ConnectionDoesNotExistError,
)
# What a database call may raise, for the API's handlers to look at: each is a
# bug unless `database_unavailable` says otherwise.
DATABASE_ERRORS: tuple[type[Exception], ...] = (
    sqlalchemy.exc.SQLAlchemyError, asyncpg.exceptions.PostgresError, asyncpg.exceptions.InterfaceError,
    sqlite3.Error, OSError,
)
# Not "unable to open database file": that is a wrong path far more often than a
# moment's outage, and a 503 would hide it.
_SQLITE_BUSY = ("database is locked", "database is busy")
_NETWORK_ERRNOS = {errno.ECONNREFUSED, errno.ECONNRESET, errno.EHOSTUNREACH, errno.ENETUNREACH,
                   errno.ETIMEDOUT, errno.ECONNABORTED}


def database_unavailable(exc: BaseException) -> bool:
    """Whether `exc`, or what it wraps (SQLAlchemy's `.orig`, `raise … from`), says
    the database is out of reach for now. An error merely raised while handling
    another (`__context__`) is judged on its own."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if _out_of_reach(current):
            return True
        orig = getattr(current, "orig", None)
        current = orig if isinstance(orig, BaseException) else current.__cause__
    return False


def _out_of_reach(exc: BaseException) -> bool:
    if isinstance(exc, sqlalchemy.exc.TimeoutError):  # no pooled connection came free in time
        return True
    if isinstance(exc, sqlalchemy.exc.DBAPIError) and exc.connection_invalidated:
        return True
    if isinstance(exc, asyncpg.exceptions.ProtocolViolationError):  # 08P01: ours, a bug
        return False
    if isinstance(exc, _ASYNCPG):
        return True
    if isinstance(exc, asyncpg.exceptions.InterfaceError) and "connection is closed" in str(exc):
        return True
    if isinstance(exc, ConnectionError | TimeoutError | socket.gaierror):  # refused, reset, no such host
        return True
    if isinstance(exc, OSError) and (exc.errno in _NETWORK_ERRNOS or str(exc).startswith("Multiple exceptions")):
        return True  # unreachable; every address of a host (IPv6 and IPv4) refused
    if isinstance(exc, sqlite3.OperationalError):
        return any(text in str(exc) for text in _SQLITE_BUSY)
    return False


class OutageLog:
    """What the log says while the database is out of reach:
    one warning when the outage starts, one line when it ends, and between them
    only a count. Every part that meets the outage (requests, sockets, the
    sweeper, the bot runner, the realtime bus) reports here instead of logging
    each failure, so a process no longer writes a warning every 0.1 s and a
    traceback every second. The app builds one (app/main.py `build`) and hands
    it to each part: the fact it tracks (this app cannot reach its database) is
    the app's own. A part built alone, as tests do, keeps one of its own."""

    def __init__(self, logger: logging.Logger | None = None) -> None:
        self.log = logger or logging.getLogger("magery.database")
        self.since: float | None = None  # when the outage began (monotonic), None while reachable
        self.failures = 0  # failures reported during the current (or the last) outage
        self.outages = 0  # outages begun since the process started

    @property
    def out(self) -> bool:
        return self.since is not None

    def failed(self, where: str, exc: BaseException) -> None:
        """A call that could not reach the database: the first of an outage is logged."""
        if self.since is None:
            self.since = time.monotonic()
            self.failures = 1
            self.outages += 1
            self.log.warning("database out of reach (first seen by %s: %r); quiet until it is back", where, exc)
        else:
            self.failures += 1

    def reached(self, began: float) -> None:
        """A call through the engine that began at `began` (time.monotonic()) reached
        the database: an outage, if one was on, is over. A call that began before
        the outage did is no news of it (it may have had its connection already),
        so it ends nothing. The sweeper, which asks every second, says so; the
        realtime bus, whose own connections may work while the pool has none free,
        does not."""
        if self.since is not None and began >= self.since:
            lasted = time.monotonic() - self.since
            self.since = None
            self.log.warning("database reachable again after %.1f s; %d calls failed meanwhile",
                             lasted, self.failures)


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

import sqlite3

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
_SQLITE_BUSY = ("database is locked", "database is busy", "unable to open database file")


def database_unavailable(exc: BaseException) -> bool:
    """Whether `exc` (or what it wraps) says the database is out of reach for now."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if _out_of_reach(current):
            return True
        orig = getattr(current, "orig", None)  # SQLAlchemy's wrapper of the driver's error
        current = orig if isinstance(orig, BaseException) else (current.__cause__ or current.__context__)
    return False


def _out_of_reach(exc: BaseException) -> bool:
    if isinstance(exc, sqlalchemy.exc.TimeoutError):  # no pooled connection came free in time
        return True
    if isinstance(exc, sqlalchemy.exc.DBAPIError) and exc.connection_invalidated:
        return True
    if isinstance(exc, _ASYNCPG):
        return True
    if isinstance(exc, asyncpg.exceptions.InterfaceError) and "connection is closed" in str(exc):
        return True
    if isinstance(exc, ConnectionError | TimeoutError):  # refused, reset; connect timed out
        return True
    if isinstance(exc, sqlite3.OperationalError):
        return any(text in str(exc) for text in _SQLITE_BUSY)
    return False

"""The match history: filters, sorts and keyset pages over `matches`.

Every filter is a query parameter of `GET /admin/api/matches` (and of the
history page and its CSV), checked here with an error that names the problem.
Each single filter and sort is served by an index ending in (created_at, id)
or (finished_at, id) (migration 0003), so a page is a short walk of one index
at any table size; bench/admin.py shows the plans. The `account` filter
finds the account by its unique lower-case name and its seats by
the index on seats.account_id (migration 0007): it matches the seats an account
played, never a guest who typed the same name (that is what `player` does).
"""

from __future__ import annotations

import base64
import binascii
import json
import unicodedata
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from sqlalchemy import and_, exists, func, literal_column, select, tuple_
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine
from sqlalchemy.sql import Select
from sqlalchemy.sql.elements import ColumnClause

from app.accounts.names import NAME as ACCOUNT_NAME
from app.db.account_models import accounts, rating_changes, ratings
from app.db.models import matches, seats
from app.kernel import text
from app.kernel.errors import BadRequest
from app.kernel.ids import is_match_id
from app.matches.record import RATING_COLUMNS, seat_rating
from app.rules import VARIANTS
from app.rules.state import REASONS

STATUSES = ("waiting", "active", "finished")
RESULTS = ("white", "black", "draw")
OPPONENTS = ("bot", "human")
SORTS = ("newest", "oldest", "finished")
FILTERS = ("id", "status", "variant", "from", "to", "player", "account", "result", "reason", "opponent")
PARAMS = (*FILTERS, "sort", "cursor", "limit")
MAX_LIMIT = 200
# The same text as the indexes' expressions, so both databases match them.
REASON: ColumnClause[Any] = literal_column("(matches.result ->> 'reason')")
WINNER: ColumnClause[Any] = literal_column("(matches.result ->> 'winner')")
_LIST_COLUMNS = [c for c in matches.c if c.name not in ("state", "seed", "rematch_token")]


@dataclass(frozen=True, slots=True)
class Query:
    """A checked history query: its filters (by name), sort, cursor and page size."""

    filters: dict[str, Any]
    sort: str = "newest"
    cursor: tuple[datetime, str] | None = None
    limit: int = 50

    def params(self, **changes: Any) -> dict[str, str]:
        """The query as URL parameters (for links: the next page, the CSV)."""
        out = {k: (v.isoformat() if isinstance(v, date) else str(v)) for k, v in self.filters.items()}
        if self.sort != "newest":
            out["sort"] = self.sort
        out.update({k: str(v) for k, v in changes.items() if v is not None})
        return out


def _one_of(name: str, value: str, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise BadRequest(f"{name} is one of {', '.join(allowed)}; not {value!r}")
    return value


# Days a filter may name: any later and a day's end (or a month's) would
# overflow the calendar (to=9999-12-31 was a 500).
FIRST_DAY, LAST_DAY = date(1970, 1, 1), date(9998, 12, 31)


def day_param(name: str, value: str) -> date:
    try:
        day = date.fromisoformat(value)
    except ValueError:
        raise BadRequest(f"{name} is a date, YYYY-MM-DD; not {value!r}") from None
    if not FIRST_DAY <= day <= LAST_DAY:
        raise BadRequest(f"{name} is a day from {FIRST_DAY} to {LAST_DAY}; not {value!r}")
    return day


def limit_param(given: Mapping[str, str], default: int, most: int = MAX_LIMIT) -> int:
    """The page size of a list's URL parameters (`default` when none is given):
    a whole number from 1 to `most`; BadRequest names what is wrong. The
    history and the accounts list read it the same way."""
    if "limit" not in given:
        return default
    try:
        limit = int(given["limit"])
    except ValueError:
        raise BadRequest("limit is a whole number") from None
    if not 1 <= limit <= most:
        raise BadRequest(f"limit is from 1 to {most}")
    return limit


def checked_params(params: Mapping[str, str]) -> dict[str, str]:
    """The parameters, each refused (naming it) if it holds a NUL, a control
    character or a lone surrogate: nothing the database cannot take goes on."""
    return {k: text.check(k, v, line_breaks=False) for k, v in params.items()}


def parse(params: Mapping[str, str], default_limit: int = 50) -> Query:
    """The query of these URL parameters; BadRequest names what is wrong. Empty
    values count as absent (an HTML form sends every field)."""
    unknown = sorted(set(params) - set(PARAMS))
    if unknown:
        raise BadRequest(f"unknown parameter {unknown[0]!r}; the history knows {', '.join(PARAMS)}")
    given = {k: v.strip() for k, v in checked_params(params).items() if v.strip()}
    filters: dict[str, Any] = {}
    if "id" in given:
        if not is_match_id(given["id"]):
            raise BadRequest(f"{given['id']!r} is not a match id")
        filters["id"] = given["id"]
    if "status" in given:
        filters["status"] = _one_of("status", given["status"], STATUSES)
    if "variant" in given:
        filters["variant"] = _one_of("variant", given["variant"], VARIANTS)
    for name in ("from", "to"):
        if name in given:
            filters[name] = day_param(name, given[name])
    if "from" in filters and "to" in filters and filters["from"] > filters["to"]:
        raise BadRequest("from is after to")
    if "player" in given:
        if len(given["player"]) > 64:
            raise BadRequest("player is a name of at most 64 characters")
        filters["player"] = unicodedata.normalize("NFKC", given["player"])  # as names are stored
    if "account" in given:
        if not ACCOUNT_NAME.fullmatch(given["account"]):
            raise BadRequest(f"account is an account's name, 2 to 20 letters, digits or _ -; not {given['account']!r}")
        filters["account"] = given["account"]
    if "result" in given:
        filters["result"] = _one_of("result", given["result"], RESULTS)
    if "reason" in given:
        filters["reason"] = _one_of("reason", given["reason"], REASONS)
    if "opponent" in given:
        filters["opponent"] = _one_of("opponent", given["opponent"], OPPONENTS)
    sort = _one_of("sort", given.get("sort", "newest"), SORTS)
    limit = limit_param(given, default_limit)
    cursor = _read_cursor(given["cursor"], sort) if "cursor" in given else None
    return Query(filters, sort, cursor, limit)


def _make_cursor(sort: str, at: datetime, match_id: str) -> str:
    raw = json.dumps([sort, at.isoformat(), match_id]).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _read_cursor(cursor: str, sort: str) -> tuple[datetime, str]:
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        made_for, at, match_id = json.loads(raw)
        when = datetime.fromisoformat(at).astimezone(UTC)
        if not isinstance(match_id, str) or not is_match_id(match_id):
            raise ValueError("not a match id")
    except (ValueError, TypeError, OverflowError, binascii.Error):
        raise BadRequest("cursor is not one this server gave out") from None
    if made_for != sort:
        raise BadRequest(f"this cursor pages the {made_for!r} order, not {sort!r}")
    return when, match_id


def _midnight(day: date) -> datetime:
    return datetime.combine(day, time(), UTC)


def statement(q: Query, limit: int) -> Select[Any]:
    """The SELECT of one page (`limit` rows) of `q`."""
    f = q.filters
    stmt = select(*_LIST_COLUMNS)
    if "id" in f:
        stmt = stmt.where(matches.c.id == f["id"])
    if "status" in f:
        stmt = stmt.where(matches.c.status == f["status"])
    if "variant" in f:
        stmt = stmt.where(matches.c.variant == f["variant"])
    if "from" in f:
        stmt = stmt.where(matches.c.created_at >= _midnight(f["from"]))
    if "to" in f:
        stmt = stmt.where(matches.c.created_at < _midnight(f["to"] + timedelta(days=1)))
    if "player" in f:
        stmt = stmt.where(matches.c.id.in_(
            select(seats.c.match_id).where(func.lower(seats.c.name) == f["player"].lower())))
    if "account" in f:
        account_id = select(accounts.c.id).where(accounts.c.name_lower == f["account"].lower()).scalar_subquery()
        stmt = stmt.where(matches.c.id.in_(select(seats.c.match_id).where(seats.c.account_id == account_id)))
    if "result" in f:
        if f["result"] == "draw":  # no winner, and not called off
            stmt = stmt.where(matches.c.status == "finished", WINNER.is_(None), REASON != "aborted")
        else:
            stmt = stmt.where(f["result"] == WINNER)
    if "reason" in f:
        stmt = stmt.where(f["reason"] == REASON)
    if "opponent" in f:
        bot_seat = exists().where(and_(seats.c.match_id == matches.c.id, seats.c.bot.is_not(None)))
        stmt = stmt.where(bot_seat if f["opponent"] == "bot" else ~bot_seat)
    key = matches.c.finished_at if q.sort == "finished" else matches.c.created_at
    if q.sort == "finished":
        stmt = stmt.where(matches.c.finished_at.is_not(None))
    if q.cursor is not None:
        at, last_id = q.cursor
        position = tuple_(key, matches.c.id)
        stmt = stmt.where(position > tuple_(at, last_id) if q.sort == "oldest" else position < tuple_(at, last_id))
    if q.sort == "oldest":
        return stmt.order_by(key.asc(), matches.c.id.asc()).limit(limit)
    return stmt.order_by(key.desc(), matches.c.id.desc()).limit(limit)


async def _seats_of(conn: AsyncConnection, ids: list[str]) -> dict[str, dict[str, Any]]:
    """Each match's seats: the name, the bot, the account that played it (None:
    a guest) and that account's rating as the public lists show it
    (app.matches.record.seat_rating: as the match began once a rated ending
    moved it, else as it is now in the match's variant)."""
    players: dict[str, dict[str, Any]] = {i: {"white": None, "black": None} for i in ids}
    if ids:
        rows = await conn.execute(
            select(seats.c.match_id, seats.c.colour, seats.c.name, seats.c.bot, accounts.c.name.label("account"),
                   ratings.c.rating, ratings.c.rd, rating_changes.c.rating_before, rating_changes.c.rd_before,
                   rating_changes.c.rating_after)
            .select_from(seats.join(matches, matches.c.id == seats.c.match_id)
                         .outerjoin(accounts, accounts.c.id == seats.c.account_id)
                         .outerjoin(ratings, and_(ratings.c.account_id == seats.c.account_id,
                                                  ratings.c.variant == matches.c.variant))
                         .outerjoin(rating_changes, and_(rating_changes.c.match_id == seats.c.match_id,
                                                         rating_changes.c.colour == seats.c.colour)))
            .where(seats.c.match_id.in_(ids)))
        for s in rows:
            rating = seat_rating(*(getattr(s, c) for c in RATING_COLUMNS))[0] if s.account else None
            players[s.match_id][s.colour] = {"name": s.name, "bot": s.bot, "account": s.account, "rating": rating}
    return players


def summary(row: Any, players: dict[str, Any]) -> dict[str, Any]:
    """One match as the history lists it."""
    return {
        "id": row.id, "status": row.status, "variant": row.variant,
        "created_at": row.created_at.isoformat(),
        "finished_at": row.finished_at.isoformat() if row.finished_at else None,
        "version": row.version, "result": row.result, "players": players,
        "time_control": row.options.get("time_control"), "custom": row.custom,
    }


async def page(engine: AsyncEngine, q: Query) -> dict[str, Any]:
    """One page of the history: {"matches": [...], "next_cursor": ...}."""
    async with engine.connect() as conn:
        rows = list((await conn.execute(statement(q, q.limit + 1))).all())
        more = len(rows) > q.limit
        rows = rows[:q.limit]
        players = await _seats_of(conn, [r.id for r in rows])
    next_cursor = None
    if more and rows:
        last = rows[-1]
        next_cursor = _make_cursor(q.sort, last.finished_at if q.sort == "finished" else last.created_at, last.id)
    return {"matches": [summary(r, players[r.id]) for r in rows], "next_cursor": next_cursor}


async def every(engine: AsyncEngine, q: Query, batch: int = 1000) -> AsyncIterator[dict[str, Any]]:
    """Every match of `q` (its cursor and limit aside), in pages of `batch`: for the CSV."""
    cursor = None
    while True:
        part = await page(engine, Query(q.filters, q.sort, cursor, batch))
        for item in part["matches"]:
            yield item
        if part["next_cursor"] is None:
            return
        cursor = _read_cursor(part["next_cursor"], q.sort)

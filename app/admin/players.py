"""The players' accounts as the admin sees them: the list, searched
by name and paged, and one account's facts: when it was made and last seen,
closed or open and why, its ratings, its live tokens and signed-in browsers,
its latest matches. (app/admin/accounts.py holds the admins' own accounts.)

The list walks the unique index on the lower-case name in order, from the
name the page before ended on, keeping the names that hold the search text,
until a page is full: a page costs a walk of the index, bounded by its size
and not by a sort of the whole table. Closing and reopening are the account
service's (app/accounts/service.py): it ends the sessions and tokens and
writes the audit log in one transaction.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncEngine

from app.accounts import AccountError, Accounts, ratings_of
from app.accounts.names import NAME
from app.db.account_models import account_sessions, account_tokens, accounts
from app.kernel import text
from app.kernel.errors import BadRequest, NotFound, ServiceError
from app.ratings import as_of
from app.rules import VARIANTS

from . import match_search

PARAMS = ("q", "after", "limit")
SEARCH = re.compile(r"[A-Za-z0-9_-]{1,20}")
SEARCH_RULE = "q is the whole or a part of a name: up to 20 letters, digits or _ -"
PAGE, MAX_LIMIT = 50, 200
MATCHES = 20  # the account page's latest matches; the history's filter has the rest


@dataclass(frozen=True, slots=True)
class Search:
    """A checked search of the accounts: the text a name must hold, and the
    lower-case name the page before ended on."""

    q: str | None = None
    after: str | None = None
    limit: int = PAGE

    def params(self, **changes: Any) -> dict[str, str]:
        out = {k: v for k, v in (("q", self.q), ("after", self.after)) if v}
        if self.limit != PAGE:
            out["limit"] = str(self.limit)
        out.update({k: str(v) for k, v in changes.items() if v is not None})
        return out


def parse(params: Mapping[str, str]) -> Search:
    """The search of these URL parameters; BadRequest names what is wrong.
    Empty values count as absent (an HTML form sends every field)."""
    unknown = sorted(set(params) - set(PARAMS))
    if unknown:
        raise BadRequest(f"unknown parameter {unknown[0]!r}; the accounts list knows {', '.join(PARAMS)}")
    given = {k: v.strip() for k, v in match_search.checked_params(params).items() if v.strip()}
    q = given.get("q")
    if q is not None and not SEARCH.fullmatch(q):
        raise BadRequest(f"{SEARCH_RULE}; not {q!r}")
    after = given.get("after")
    if after is not None and not NAME.fullmatch(after):
        raise BadRequest("after is the name a page ended on, as the server gave it")
    return Search(q, after.lower() if after else None, match_search.limit_param(given, PAGE, MAX_LIMIT))


def _when(at: datetime | None) -> str | None:
    return at.isoformat() if at else None


def _summary(row: Any) -> dict[str, Any]:
    return {"name": row.name, "created_at": row.created_at.isoformat(), "last_seen": _when(row.last_seen),
            "computer": row.computer is not None, "closed": row.closed_at is not None,
            "closed_at": _when(row.closed_at)}


async def listing(engine: AsyncEngine, s: Search) -> dict[str, Any]:
    """One page of accounts in the order of their names: {"accounts", "next_after"}."""
    stmt = select(accounts.c.name, accounts.c.name_lower, accounts.c.created_at, accounts.c.last_seen,
                  accounts.c.computer, accounts.c.closed_at)
    if s.q:
        stmt = stmt.where(accounts.c.name_lower.contains(s.q.lower(), autoescape=True))  # "_" is no wildcard
    if s.after:
        stmt = stmt.where(accounts.c.name_lower > s.after)
    async with engine.connect() as conn:
        rows = list((await conn.execute(stmt.order_by(accounts.c.name_lower).limit(s.limit + 1))).all())
    more = len(rows) > s.limit
    rows = rows[:s.limit]
    return {"accounts": [_summary(r) for r in rows], "next_after": rows[-1].name_lower if more and rows else None}


async def _count(engine: AsyncEngine, stmt: Any) -> int:
    async with engine.connect() as conn:
        return int((await conn.execute(stmt)).scalar_one())


async def account(service: Accounts, engine: AsyncEngine, name: str, now: datetime) -> dict[str, Any]:
    """`GET /admin/api/accounts/{name}`: the account's facts and latest matches."""
    found = await service.by_name(name)
    if found is None:
        raise NotFound(f"there is no account named {name!r}")
    rated = await ratings_of(engine, found.id)
    ratings: dict[str, Any] = {}
    for variant in VARIANTS:
        if variant not in rated:
            ratings[variant] = None  # no rated match yet in this variant
            continue
        stands = as_of(rated[variant], now)  # the RD grown since the last rated match
        ratings[variant] = {"rating": round(stands.rating), "rd": round(stands.rd), "provisional": stands.provisional,
                            "games": stands.games, "shown": stands.shown()}
    tokens = await _count(engine, select(func.count()).select_from(account_tokens).where(
        account_tokens.c.account_id == found.id, account_tokens.c.revoked_at.is_(None)))
    sessions = await _count(engine, select(func.count()).select_from(account_sessions).where(
        account_sessions.c.account_id == found.id, account_sessions.c.expires_at > now))
    latest = await match_search.page(engine, match_search.Query({"account": found.name}, limit=MATCHES))
    return {
        "name": found.name, "created_at": found.created_at.isoformat(), "last_seen": _when(found.last_seen),
        "computer": found.computer is not None, "closed": found.closed, "closed_at": _when(found.closed_at),
        "closed_reason": found.closed_reason, "ratings": ratings, "live_tokens": tokens, "sessions": sessions,
        "matches": latest["matches"], "more_matches": latest["next_cursor"] is not None,
    }


def refusal(error: AccountError) -> ServiceError:
    """The account service's refusal as the wing's error: same status, code and words."""
    out = ServiceError(error.detail)
    out.status, out.code = error.status, error.code
    return out


async def close(service: Accounts, name: str, reason: object, admin: str, address: str | None) -> str:
    """Close the account for `reason` (its sessions and tokens stop, the audit log says
    who and why); answers its name as it is spelt."""
    try:
        return (await service.close(name, _stored(reason), admin=admin, address=address)).name
    except AccountError as error:
        raise refusal(error) from None


async def reopen(service: Accounts, name: str, reason: object, admin: str, address: str | None) -> str:
    """Reopen a closed account for `reason` (its player signs in again; its old tokens stay revoked)."""
    try:
        return (await service.reopen(name, _stored(reason), admin=admin, address=address)).name
    except AccountError as error:
        raise refusal(error) from None


def _stored(reason: object) -> str:
    """The reason if it may be stored (no NUL, no lone surrogate);
    the service refuses a missing, blank or overlong one."""
    return text.check("reason", reason) if isinstance(reason, str) else ""

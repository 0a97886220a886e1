"""The admins' fair-play queue: the cases the ratings' fair-play rules raised
(app/accounts/fairplay.py), grouped by kind and by the accounts concerned, with
their evidence; and what an admin does with a group: clear it, or close the
account for cheating, which gives its victims back what they lost
(app/accounts/refunds.py). Every decision is in the audit log."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import and_, select
from sqlalchemy.ext.asyncio import AsyncEngine

from app.accounts import Accounts
from app.accounts.refunds import refund_victims
from app.db.account_models import accounts
from app.db.fairplay_models import fair_play_cases
from app.kernel.errors import NotFound

from . import audit, players

WORDS = {
    "boosting": "one pair trading quick results: ratings stopped moving between them",
    "sandbagging_warned": "losing quickly again and again: warned",
    "sandbagging": "losing quickly again and again: losses no longer count",
    "shared_address": "a rated match whose two seats came from one address",
    "accounts_from_one_address": "a rated match between two accounts made from one address",
}


async def queue(engine: AsyncEngine, cleared: bool = False) -> list[dict[str, Any]]:
    """The open cases (or, with `cleared`, the cleared ones), one entry per kind
    and pair of accounts, the newest first."""
    them = accounts.alias("them")
    query = (select(fair_play_cases, accounts.c.name.label("account"), accounts.c.closed_at,
                    them.c.name.label("other"))
             .select_from(fair_play_cases.join(accounts, accounts.c.id == fair_play_cases.c.account_id)
                          .outerjoin(them, them.c.id == fair_play_cases.c.other_id))
             .where(fair_play_cases.c.cleared_at.is_not(None) if cleared else fair_play_cases.c.cleared_at.is_(None))
             .order_by(fair_play_cases.c.created_at.desc(), fair_play_cases.c.id.desc()).limit(2000))
    async with engine.connect() as conn:
        rows = (await conn.execute(query)).all()
    groups: dict[tuple[str, int, int | None], dict[str, Any]] = {}
    for r in rows:
        key = (r.kind, r.account_id, r.other_id)
        group = groups.get(key)
        if group is None:
            group = groups[key] = {
                "kind": r.kind, "words": WORDS.get(r.kind, r.kind), "account": r.account, "other": r.other,
                "closed": r.closed_at is not None, "last": r.created_at, "first": r.created_at,
                "matches": [], "evidence": r.evidence, "count": 0, "cleared_by": r.cleared_by}
        group["count"] += 1
        group["first"] = r.created_at
        if r.match_id is not None and len(group["matches"]) < 20:
            group["matches"].append(r.match_id)
    return list(groups.values())


async def _ids(engine: AsyncEngine, *names: str | None) -> list[int | None]:
    found: list[int | None] = []
    async with engine.connect() as conn:
        for name in names:
            if not name:
                found.append(None)
                continue
            row = (await conn.execute(select(accounts.c.id).where(accounts.c.name_lower == name.lower()))).first()
            if row is None:
                raise NotFound(f"there is no account named {name!r}")
            found.append(row.id)
    return found


async def clear(engine: AsyncEngine, kind: str, account: str, other: str | None, admin: str, now: datetime,
                address: str | None) -> int:
    """Mark the group's open cases cleared; answers how many."""
    if kind not in WORDS:
        raise NotFound(f"there is no kind of case {kind!r}")
    account_id, other_id = await _ids(engine, account, other)
    same_other = fair_play_cases.c.other_id.is_(None) if other_id is None else fair_play_cases.c.other_id == other_id
    async with engine.begin() as conn:
        done = await conn.execute(fair_play_cases.update().where(and_(
            fair_play_cases.c.kind == kind, fair_play_cases.c.account_id == account_id, same_other,
            fair_play_cases.c.cleared_at.is_(None))).values(cleared_at=now, cleared_by=admin[:20]))
    await audit.record(engine, "fair_play_cleared", now, admin, address=address, kind_of_case=kind,
                       account=account, other=other, cases=done.rowcount)
    return int(done.rowcount)


async def close_for_cheating(service: Accounts, engine: AsyncEngine, name: str, reason: object, admin: str,
                             now: datetime, address: str | None) -> tuple[str, int]:
    """Close the account for cheating (its matches end as any closed account's),
    refund its victims, clear its open cases; answers (its name, players refunded)."""
    note = reason.strip() if isinstance(reason, str) else ""
    closed = await players.close(service, name, f"Closed for cheating: {note}" if note else "", admin, address)
    (account_id,) = await _ids(engine, closed)
    refunds = await refund_victims(engine, int(account_id or 0), now)
    async with engine.begin() as conn:
        await conn.execute(fair_play_cases.update().where(
            fair_play_cases.c.account_id == account_id, fair_play_cases.c.cleared_at.is_(None))
            .values(cleared_at=now, cleared_by=admin[:20]))
    await audit.record(engine, "rating_refunded", now, admin, address=address, cheater=closed,
                       refunds=[{"account_id": r.account_id, "variant": r.variant, "points": r.points}
                                for r in refunds])
    return closed, len(refunds)

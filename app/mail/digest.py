"""The daily digest: at the hour a player chose (UTC), one mail listing the
correspondence matches awaiting their move; none when none await.

Every process runs the tick. Each account's day is claimed by a unique key,
`digest:<account>:<day>` in `mail_sends`: whichever process inserts it first
sends, any other finds it taken (on SQLite and PostgreSQL alike). A digest the
SMTP server could not take now gives its claim back, so a later tick of the same
day tries again; a day that passes before the hour's tick (the server down all
that time) has no digest.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from app.db.mail_models import mail_addresses, mail_sends
from app.db.models import matches, seats
from app.db.outage import OutageLog, database_unavailable
from app.kernel.errors import NotFound

from . import texts
from .outcomes import Delivered, Gone, Outcome
from .service import NOTHING, Mailer

log = logging.getLogger(__name__)
ReadMatch = Callable[[str], Awaitable[Mapping[str, Any]]]
MOST = 50  # matches listed in one digest


def once_key(account_id: int, day: str) -> str:
    return f"digest:{account_id}:{day}"


async def awaiting(mailer: Mailer, read_match: ReadMatch, account_id: int) -> list[tuple[str, str]]:
    """(match id, opponent) of the account's running correspondence matches awaiting its move."""
    async with mailer.engine.connect() as conn:
        rows = (await conn.execute(
            select(seats.c.match_id, seats.c.colour, matches.c.options).join(matches, matches.c.id == seats.c.match_id)
            .where(seats.c.account_id == account_id, matches.c.status == "active")
            .order_by(matches.c.created_at))).all()
    found = []
    for row in rows:
        control = (row.options or {}).get("time_control") or {}
        if control.get("type") != "correspondence":
            continue
        try:
            state = await read_match(row.match_id)
        except NotFound:
            continue
        if state.get("status") == "active" and state.get("to_move") == row.colour:
            other = state["players"]["black" if row.colour == "white" else "white"]
            found.append((row.match_id, str(other.get("name") or "your opponent")))
    return found[:MOST]


async def send_digests(mailer: Mailer, read_match: ReadMatch) -> dict[int, Outcome | None]:
    """One tick: each due account's digest of today, sent once. {account: outcome}
    for the accounts this tick claimed (None: nothing awaited them)."""
    if not mailer.enabled:
        return {}
    now = datetime.fromtimestamp(mailer.now_ms() / 1000, UTC)
    day = now.strftime("%Y-%m-%d")
    async with mailer.engine.connect() as conn:
        due = (await conn.execute(select(mail_addresses).where(
            mail_addresses.c.digest.is_(True), mail_addresses.c.verified_ms.is_not(None),
            mail_addresses.c.bounced_ms.is_(None), mail_addresses.c.digest_hour <= now.hour))).all()
        keys = [once_key(r.account_id, day) for r in due]
        done = set((await conn.execute(select(mail_sends.c.once_key).where(
            mail_sends.c.once_key.in_(keys)))).scalars()) if keys else set()
    outcomes: dict[int, Outcome | None] = {}
    for row in due:
        key = once_key(row.account_id, day)
        if key in done:
            continue
        games = await awaiting(mailer, read_match, row.account_id)
        if not games:
            try:  # nothing to say today: the day is taken, so no later tick looks again
                async with mailer.engine.begin() as conn:
                    await conn.execute(mail_sends.insert().values(
                        account_id=row.account_id, address_key=row.address_key, kind=NOTHING,
                        sent_ms=mailer.now_ms(), once_key=key))
                outcomes[row.account_id] = None
            except IntegrityError:
                pass
            continue
        outcome = await mailer.notify(row.account_id, row.address, row.address_key, "digest",
                                       texts.digest(mailer.site, games), once_key=key)
        if not (isinstance(outcome, Gone) and outcome.reason == "sent_already"):
            outcomes[row.account_id] = outcome
    return outcomes


async def digests_forever(mailer: Mailer, read_match: ReadMatch, period: float, outage: OutageLog) -> None:
    """Every process's digest tick, every `period` seconds."""
    while True:
        await asyncio.sleep(period)  # first after a period: a starting process has other work
        began = time.monotonic()
        try:
            sent = await send_digests(mailer, read_match)
            outage.reached(began)
            if sent:
                log.info("digests: %d claimed, %d delivered", len(sent),
                         sum(isinstance(o, Delivered) for o in sent.values()))
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            if database_unavailable(exc):
                outage.failed("the mail digests' tick", exc)
            else:
                log.exception("the mail digests' tick failed; trying again in %s s", period)

"""Waits before rated play for players who leave rated matches: offences
noted in the transaction that ends a rated match, and the refusal of rated
play while a wait runs (the rules: app/ratings/leaving.py; docs/rules.md,
"Leaving a rated match").
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from app.db.account_models import accounts
from app.db.playban_models import offences, playbans
from app.kernel.errors import Forbidden
from app.ratings.leaving import ABORT_WINDOW_SECONDS, ABORTS_FORGIVEN, next_level, wait_seconds
from app.ratings.leaving import offences as offences_of

from .rated import turn_actions

WORDS = {
    "left": "you left a rated match and your opponent claimed it",
    "no_move": "your clock ran out in a rated match before you made a move",
    "late_setup": "you did not set up in time in a rated match",
    "aborts": "you aborted three rated matches within a day",
}


class PlayBanned(Forbidden):
    """Rated play refused while a wait runs: 403 with Retry-After."""

    code = "playban"

    def __init__(self, seconds: int, until: datetime, why: str) -> None:
        minutes = max(1, -(-seconds // 60))
        super().__init__(f"no rated play for {minutes} more minute{'s' if minutes != 1 else ''}: {why}; "
                         "casual matches are open meanwhile", retry_after=seconds,
                         until=until.isoformat().replace("+00:00", "Z"))


async def _acted(conn: AsyncConnection, match_id: str) -> dict[str, bool]:
    """Whether each side made an action of its own after setup (the log read as ratings read it)."""
    done = {player for player, _, _ in await turn_actions(conn, match_id)}
    return {c: c in done for c in ("white", "black")}


async def note_ending(conn: AsyncConnection, match_id: str, result: Mapping[str, Any], ending: Mapping[str, Any],
                      ender: str | None, timed: bool, seats: Mapping[str, int | None], when: datetime) -> dict[str, str]:
    """Note the offences of a rated match's ending in `conn`'s transaction, start
    or lengthen the offenders' waits and count a clean match for the others.
    Answers {colour: offence} of the offences that started a wait."""
    people = [a for a in seats.values() if a is not None]
    if not people:
        return {}
    computers = {r.id for r in (await conn.execute(select(accounts.c.id).where(
        accounts.c.id.in_(people), accounts.c.computer.is_not(None)))).all()}
    found = offences_of(result, ending, ender, timed, await _acted(conn, match_id)) if timed else {}
    started: dict[str, str] = {}
    for colour, account_id in sorted(seats.items()):
        if account_id is None or account_id in computers:
            continue
        kind = found.get(colour)
        if kind is None:
            await conn.execute(playbans.update().where(playbans.c.account_id == account_id)
                               .values(clean=playbans.c.clean + 1))
            continue
        counted = True
        if kind == "aborts":
            since = when - timedelta(seconds=ABORT_WINDOW_SECONDS)
            before = int((await conn.execute(select(func.count()).select_from(offences).where(
                offences.c.account_id == account_id, offences.c.kind == "aborts", offences.c.at > since))).scalar_one())
            counted = before >= ABORTS_FORGIVEN
        await conn.execute(offences.insert().values(account_id=account_id, match_id=match_id, kind=kind,
                                                    counted=int(counted), at=when))
        if counted:
            await _lengthen(conn, account_id, when)
            started[colour] = kind
    return started


async def _lengthen(conn: AsyncConnection, account_id: int, when: datetime) -> None:
    row = (await conn.execute(select(playbans).where(playbans.c.account_id == account_id)
                              .with_for_update())).one_or_none()
    if row is None:
        level = next_level(0, 0, None)
        await conn.execute(playbans.insert().values(account_id=account_id, level=level,
                                                    until=when + timedelta(seconds=wait_seconds(level)),
                                                    last_offence_at=when, clean=0))
        return
    level = next_level(row.level, row.clean, (when - row.last_offence_at).total_seconds())
    await conn.execute(playbans.update().where(playbans.c.account_id == account_id).values(
        level=level, until=when + timedelta(seconds=wait_seconds(level)), last_offence_at=when, clean=0))


async def standing(engine: AsyncEngine, account_id: int, now: datetime) -> tuple[int, datetime, str] | None:
    """(seconds left, until, why) while the account waits; None when it may play rated."""
    async with engine.connect() as conn:
        row = (await conn.execute(select(playbans).where(playbans.c.account_id == account_id))).one_or_none()
        if row is None or row.until <= now:
            return None
        last = (await conn.execute(select(offences.c.kind).where(
            offences.c.account_id == account_id, offences.c.counted == 1)
            .order_by(offences.c.at.desc(), offences.c.id.desc()).limit(1))).scalar_one_or_none()
    seconds = max(1, int(-(-(row.until - now).total_seconds() // 1)))
    return seconds, row.until, WORDS.get(last or "", "you left rated matches")


async def check(engine: AsyncEngine, account_id: int | None, now: datetime) -> None:
    """Raise PlayBanned while `account_id` waits before rated play."""
    if account_id is None:
        return
    found = await standing(engine, account_id, now)
    if found is not None:
        raise PlayBanned(*found)

"""The analyses in the database: the request with its bounds, the fair claim
of the next one, the lease, the plies written as they are searched.

The queue is the `analyses` table itself, so every process sees one queue:
the claim is one conditional UPDATE (of several processes asking at once one
wins), and a row whose lease has run out (its process died) is claimed again
like a queued one, its plies kept.

Every claim is a try (`tries`): a try whose search raised is let go for
another at once, and after the last one allowed the analysis is `failed`; a
try whose process vanished counts too (its lease ran out), so an analysis
that kills its process each time is given up as well. A try cut short by a
stop of the server, or by the database being out of reach, is given back
(`release`). A failed analysis requested again waits afresh, its tries at 0
and its plies kept.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, case, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from app.db.advisory import lock_in_order
from app.db.analysis_models import analyses, analysis_plies

from .errors import TooManyAnalyses

DAY_MS = 86_400_000
PENDING = ("queued", "running")


@dataclass(frozen=True, slots=True)
class Asker:
    """Who requests: `requester` is whom the one-at-a-time rule and the daily
    bound count ("account:42", or "addr:<address>" without an account)."""

    requester: str
    account_id: int | None
    address: str | None


@dataclass(frozen=True, slots=True)
class Bounds:
    per_address: int  # analyses queued or running from one address (0: no bound)
    per_day: int  # analyses requested by one requester in 24 hours (0: no bound)


def _live(now_ms: int) -> Any:
    """Being searched by a process whose lease still holds."""
    return and_(analyses.c.status == "running", analyses.c.lease_until_ms >= now_ms)


async def find(engine: AsyncEngine, match_id: str) -> Any:
    async with engine.connect() as conn:
        return (await conn.execute(select(analyses).where(analyses.c.match_id == match_id))).first()


async def request(engine: AsyncEngine, match_id: str, asker: Asker, bounds: Bounds, now_ms: int,
                  depth: int, engine_name: str, total: int) -> tuple[Any, bool]:
    """(the match's analysis, whether this request made it). A match analysed or
    queued already answers its analysis, whoever asks; a new one is counted
    against the asker's bounds first (TooManyAnalyses)."""
    found = await find(engine, match_id)
    if found is not None and found.status == "failed":
        return await _again(engine, found, asker, bounds, now_ms)
    if found is not None:
        return found, False
    made_here = False
    try:
        async with engine.begin() as conn:
            await lock_in_order(conn, sorted({f"analysis:{asker.requester}", f"analysis:addr:{asker.address}"}))
            await _within_bounds(conn, asker, bounds, now_ms)
            await conn.execute(insert(analyses).values(
                match_id=match_id, status="queued", engine=engine_name, depth=depth, total=total, done=0,
                requester=asker.requester[:80], account_id=asker.account_id,
                address=(asker.address or "")[:64] or None, requested_ms=now_ms))
        made_here = True
    except IntegrityError:
        pass  # requested at the same moment by someone else: theirs is the one
    return await find(engine, match_id), made_here


async def _again(engine: AsyncEngine, row: Any, asker: Asker, bounds: Bounds, now_ms: int) -> tuple[Any, bool]:
    """A failed analysis requested again: it waits at the back of the queue as
    this asker's (counted against their bounds, as a new one), with fresh
    tries, from the plies it has."""
    async with engine.begin() as conn:
        await lock_in_order(conn, sorted({f"analysis:{asker.requester}", f"analysis:addr:{asker.address}"}))
        await _within_bounds(conn, asker, bounds, now_ms)
        done = await conn.execute(update(analyses).where(analyses.c.id == row.id, analyses.c.status == "failed").values(
            status="queued", tries=0, failure=None, claimed_by=None, lease_until_ms=None, finished_ms=None,
            requester=asker.requester[:80], account_id=asker.account_id,
            address=(asker.address or "")[:64] or None, requested_ms=now_ms))
    return await find(engine, row.match_id), done.rowcount == 1


async def _within_bounds(conn: AsyncConnection, asker: Asker, bounds: Bounds, now_ms: int) -> None:
    if bounds.per_address and asker.address:
        pending = (await conn.execute(
            select(func.count()).select_from(analyses)
            .where(analyses.c.address == asker.address[:64], analyses.c.status.in_(PENDING)))).scalar_one()
        if pending >= bounds.per_address:
            raise TooManyAnalyses(
                f"at most {bounds.per_address} analyses from one address wait or run at once; "
                "try again when one is done", retry_after=60)
    if bounds.per_day:
        since = now_ms - DAY_MS
        times = list((await conn.execute(
            select(analyses.c.requested_ms)
            .where(analyses.c.requester == asker.requester[:80], analyses.c.requested_ms > since)
            .order_by(analyses.c.requested_ms))).scalars())
        if len(times) >= bounds.per_day:
            wait = times[len(times) - bounds.per_day] + DAY_MS - now_ms
            raise TooManyAnalyses(f"at most {bounds.per_day} analyses a day", retry_after=max(1, -(-wait // 1000)))


async def position(engine: AsyncEngine, row: Any) -> int:
    """Where a queued analysis stands: 1 is next."""
    async with engine.connect() as conn:
        ahead = (await conn.execute(
            select(func.count()).select_from(analyses)
            .where(analyses.c.status == "queued", or_(
                analyses.c.requested_ms < row.requested_ms,
                and_(analyses.c.requested_ms == row.requested_ms, analyses.c.id < row.id))))).scalar_one()
    return int(ahead) + 1


def _takeable(now_ms: int, tries: int) -> Any:
    """Waiting, or left by its process (its lease run out), with a try left."""
    return and_(analyses.c.tries < tries, or_(
        analyses.c.status == "queued",
        and_(analyses.c.status == "running", or_(analyses.c.lease_until_ms.is_(None),
                                                  analyses.c.lease_until_ms < now_ms))))


async def claimable(engine: AsyncEngine, now_ms: int, tries: int, most: int = 20) -> list[Any]:
    """Analyses waiting for a process, oldest first: a dead process's first,
    then the queue, each only if its requester has none being searched now
    and it has a try left of `tries`."""
    other = analyses.alias("other")
    busy = select(other.c.id).where(other.c.requester == analyses.c.requester, other.c.status == "running",
                                    other.c.lease_until_ms >= now_ms, other.c.id != analyses.c.id).exists()
    query = (select(analyses.c.id, analyses.c.requester, analyses.c.match_id)
             .where(_takeable(now_ms, tries), ~busy)
             .order_by((analyses.c.status == "queued").asc(), analyses.c.requested_ms, analyses.c.id).limit(most))
    async with engine.connect() as conn:
        return list((await conn.execute(query)).all())


async def claim(engine: AsyncEngine, analysis_id: int, requester: str, runner: str, now_ms: int,
                until_ms: int, tries: int) -> bool:
    """Take the analysis for `runner` until `until_ms`, a try counted: true
    when this runner may search it. One UPDATE whose condition holds the
    rules: still waiting (or its lease run out) with a try left, and its requester has no other analysis being
    searched (on PostgreSQL, under a lock on the requester, so two processes
    claiming two analyses of one requester take turns)."""
    other = analyses.alias("other")
    busy = select(other.c.id).where(other.c.requester == requester, other.c.status == "running",
                                    other.c.lease_until_ms >= now_ms, other.c.id != analysis_id).exists()
    async with engine.begin() as conn:
        await lock_in_order(conn, [f"analysis:{requester}"])
        done = await conn.execute(
            update(analyses)
            .where(analyses.c.id == analysis_id, ~busy, _takeable(now_ms, tries))
            .values(status="running", claimed_by=runner, lease_until_ms=until_ms, tries=analyses.c.tries + 1,
                    started_ms=func.coalesce(analyses.c.started_ms, now_ms)))
        return done.rowcount == 1


async def plies(engine: AsyncEngine, analysis_id: int) -> list[Any]:
    async with engine.connect() as conn:
        return list((await conn.execute(
            select(analysis_plies).where(analysis_plies.c.analysis_id == analysis_id)
            .order_by(analysis_plies.c.version))).all())


async def save(engine: AsyncEngine, analysis_id: int, runner: str, rows: list[dict[str, Any]],
               until_ms: int) -> bool:
    """Write searched plies and renew the lease, if `runner` still holds it
    (False: it ran out and another process took the analysis over)."""
    async with engine.begin() as conn:
        held = await conn.execute(
            update(analyses).where(analyses.c.id == analysis_id, analyses.c.claimed_by == runner,
                                   analyses.c.status == "running")
            .values(lease_until_ms=until_ms, done=analyses.c.done + len(rows)))
        if held.rowcount != 1:
            return False
        if rows:
            await conn.execute(insert(analysis_plies), [{"analysis_id": analysis_id, **r} for r in rows])
    return True


async def finish(engine: AsyncEngine, analysis_id: int, runner: str, now_ms: int,
                 white: float | None, black: float | None) -> bool:
    async with engine.begin() as conn:
        done = await conn.execute(
            update(analyses).where(analyses.c.id == analysis_id, analyses.c.claimed_by == runner,
                                   analyses.c.status == "running")
            .values(status="done", finished_ms=now_ms, claimed_by=None, lease_until_ms=None,
                    accuracy_white=white, accuracy_black=black))
        return done.rowcount == 1


async def release(engine: AsyncEngine, runner: str, analysis_id: int | None = None) -> None:
    """Give up `runner`'s analyses (or the one): another process takes them up
    at once, from the plies written, their tries given back (the analysis
    was not at fault)."""
    query = update(analyses).where(analyses.c.claimed_by == runner, analyses.c.status == "running")
    if analysis_id is not None:
        query = query.where(analyses.c.id == analysis_id)
    async with engine.begin() as conn:
        await conn.execute(query.values(lease_until_ms=0, tries=case((analyses.c.tries > 0, analyses.c.tries - 1),
                                                                     else_=0)))


async def failed_try(engine: AsyncEngine, analysis_id: int, runner: str, tries: int, reason: str,
                     now_ms: int) -> bool:
    """`runner`'s try at the analysis failed (its search raised): another
    process takes it up at once, or, its last try spent, it is `failed` with
    `reason`. True when it is failed now."""
    mine = (analyses.c.id == analysis_id, analyses.c.claimed_by == runner, analyses.c.status == "running")
    async with engine.begin() as conn:
        done = await conn.execute(update(analyses).where(*mine, analyses.c.tries >= tries).values(
            status="failed", failure=reason[:120], finished_ms=now_ms, claimed_by=None, lease_until_ms=None))
        if done.rowcount == 1:
            return True
        await conn.execute(update(analyses).where(*mine).values(lease_until_ms=0))
    return False


async def give_up(engine: AsyncEngine, now_ms: int, tries: int) -> list[str]:
    """The analyses whose last try's process vanished (its lease ran out)
    made `failed`; their matches."""
    left = and_(analyses.c.status == "running", analyses.c.tries >= tries,
                or_(analyses.c.lease_until_ms.is_(None), analyses.c.lease_until_ms < now_ms))
    async with engine.begin() as conn:
        matches = list((await conn.execute(select(analyses.c.match_id).where(left))).scalars())
        if matches:
            await conn.execute(update(analyses).where(left, analyses.c.match_id.in_(matches)).values(
                status="failed", failure=f"given up after {tries} tries (the last one's process stopped without finishing)",
                finished_ms=now_ms, claimed_by=None, lease_until_ms=None))
    return matches

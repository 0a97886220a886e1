"""The database side of bot matches as a shared resource (the `bot_matches`
table, migration 0006): the cap on running bot matches per owner, the claim a
process takes on a bot's turn before it searches, and the one query that finds
every turn left pending.

Counted and claimed in the database, so that every process sees the same
numbers: two processes counting in memory would each let an owner through up
to the cap, and both would search the same turn."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, case, func, or_, select, text, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine
from sqlalchemy.orm import aliased

from app.db.models import bot_matches, matches, seats
from app.kernel.moments import moment

from .errors import TooManyBotMatches


@dataclass(frozen=True, slots=True)
class Owner:
    """Who a bot match counts against (`key`, e.g. "addr:203.0.113.9") and how
    many running bot matches that owner may hold (`cap`, None: no cap); and the
    signed-in creator's account (`account_id`, None: a guest), which may hold
    `account_cap` running bot matches wherever it makes them from (None: no cap).
    An account creating from many addresses passes every address's cap, not its own."""

    key: str
    cap: int | None
    account_id: int | None = None
    account_cap: int | None = None


async def running(conn: AsyncConnection, owner: str) -> int:
    """Bot matches of `owner` not finished yet."""
    return int((await conn.execute(
        select(func.count()).select_from(bot_matches.join(matches, matches.c.id == bot_matches.c.match_id))
        .where(bot_matches.c.owner == owner, matches.c.status != "finished"))).scalar_one())


async def running_of_account(conn: AsyncConnection, account_id: int) -> int:
    """Bot matches not finished yet in which the account holds a seat (the person's:
    a bot's seat holds a computer level's account, never a person's)."""
    return int((await conn.execute(
        select(func.count(func.distinct(bot_matches.c.match_id)))
        .select_from(bot_matches.join(matches, matches.c.id == bot_matches.c.match_id)
                     .join(seats, seats.c.match_id == bot_matches.c.match_id))
        .where(seats.c.account_id == account_id, matches.c.status != "finished"))).scalar_one())


async def enrol(conn: AsyncConnection, match_id: str, owner: Owner | None) -> None:
    """Add the new match (already inserted in this transaction) to `bot_matches`,
    or raise TooManyBotMatches, which rolls the whole creation back.

    The count and the row go in one transaction that holds, on PostgreSQL, an
    advisory lock on the owner: two creations from one address on two
    processes are counted one after the other, never both against the same
    count. (SQLite has one writer at a time: the match's INSERT before the
    count holds the database until the commit.) The account's cap is counted
    the same way under a lock of its own, taken after the address's (always in
    that order: two creations never wait on each other's second lock)."""
    key = owner.key[:80] if owner is not None else None
    if owner is not None and owner.cap is not None:
        if conn.dialect.name == "postgresql":
            await conn.execute(text("SELECT pg_advisory_xact_lock(17, hashtext(:owner))"), {"owner": key})
        held = await running(conn, key or "")
        if held >= owner.cap:
            raise TooManyBotMatches(owner.cap)
    if owner is not None and owner.account_id is not None and owner.account_cap is not None:
        if conn.dialect.name == "postgresql":
            await conn.execute(text("SELECT pg_advisory_xact_lock(18, :account)"), {"account": owner.account_id})
        if await running_of_account(conn, owner.account_id) >= owner.account_cap:
            raise TooManyBotMatches(owner.account_cap, per="account")
    await conn.execute(bot_matches.insert().values(match_id=match_id, owner=key))


async def enrol_rematch(conn: AsyncConnection, match_id: str, old_id: str) -> None:
    """A bot match's rematch (inserted in this transaction) counts against the
    owner of the match it follows. No cap is checked: that one has just
    finished, so the owner holds no more running bot matches than before."""
    owner = (await conn.execute(
        select(bot_matches.c.owner).where(bot_matches.c.match_id == old_id))).scalar_one_or_none()
    await conn.execute(bot_matches.insert().values(match_id=match_id, owner=owner))


async def owner_of(engine: AsyncEngine, match_id: str) -> str | None:
    async with engine.connect() as conn:
        return (await conn.execute(
            select(bot_matches.c.owner).where(bot_matches.c.match_id == match_id))).scalar()


async def claim(engine: AsyncEngine, match_id: str, version: int, runner: str, now_ms: int,
                until_ms: int) -> bool:
    """Take the bot's turn at `version` of the match for `runner` until `until_ms`:
    true when this runner may search it. One conditional UPDATE, so of several
    processes asking at once exactly one is answered true; a claim on an older
    version, or one whose lease has run out (its holder died), is taken over.
    A bot match with no row yet (made by a path that did not enrol it) gets
    one: of several processes inserting it, one succeeds."""
    async with engine.begin() as conn:
        done = await conn.execute(
            update(bot_matches)
            .where(bot_matches.c.match_id == match_id, or_(
                bot_matches.c.turn_version.is_(None),
                bot_matches.c.turn_version < version,
                bot_matches.c.lease_until_ms.is_(None),
                bot_matches.c.lease_until_ms < now_ms,
                and_(bot_matches.c.turn_version == version, bot_matches.c.claimed_by == runner)))
            .values(turn_version=version, claimed_by=runner, lease_until_ms=until_ms))
        if done.rowcount == 1:
            return True
    try:
        async with engine.begin() as conn:
            await conn.execute(bot_matches.insert().values(
                match_id=match_id, owner=None, turn_version=version, claimed_by=runner, lease_until_ms=until_ms))
    except IntegrityError:
        return False  # its row exists: someone else holds the turn
    return True


async def release(engine: AsyncEngine, runner: str, match_id: str | None = None) -> None:
    """Give up `runner`'s claims (on one match, or all of them): another process
    may take those turns at once instead of waiting for the lease to run out."""
    where = [bot_matches.c.claimed_by == runner]
    if match_id is not None:
        where.append(bot_matches.c.match_id == match_id)
    async with engine.begin() as conn:
        await conn.execute(update(bot_matches).where(*where).values(lease_until_ms=None, claimed_by=None))


def _bot_seat_to_move() -> Any:
    """The colour to move, read from the stored state (`to_move`: 0 White, 1 Black)."""
    return case((matches.c.state["to_move"].as_integer() == 0, "white"), else_="black")


async def pending(engine: AsyncEngine, now_ms: int, watched_since_ms: int) -> list[str]:
    """Every running match where a bot is to move, nobody holds a live claim on
    that turn, and its person has been seen since `watched_since_ms` (or has a
    socket open): the turns a runner should take up. One statement, no limit:
    a turn is never left behind because others are older."""
    bot, person = aliased(seats), aliased(seats)
    # Written out, not as NOT (claimed): a row never claimed holds NULLs, and NOT NULL is no answer.
    unclaimed = or_(bot_matches.c.turn_version.is_(None), bot_matches.c.lease_until_ms.is_(None),
                    bot_matches.c.turn_version < matches.c.version, bot_matches.c.lease_until_ms < now_ms)
    query = (
        select(matches.c.id)
        .select_from(matches
                     .outerjoin(bot_matches, bot_matches.c.match_id == matches.c.id)
                     .join(bot, and_(bot.c.match_id == matches.c.id, bot.c.bot.is_not(None)))
                     .join(person, and_(person.c.match_id == matches.c.id, person.c.bot.is_(None))))
        .where(matches.c.status == "active", bot.c.colour == _bot_seat_to_move(), unclaimed,
               or_(person.c.connected.is_(True), person.c.last_seen >= moment(watched_since_ms)))
        .order_by(matches.c.updated_at))
    async with engine.connect() as conn:
        return list((await conn.execute(query)).scalars())


async def idle_people(engine: AsyncEngine, seen_before_ms: int) -> list[Any]:
    """Running bot matches whose person was last seen before `seen_before_ms`:
    (match_id, connected, last_seen, options) for the abandonment rule to judge."""
    bot, person = aliased(seats), aliased(seats)
    query = (
        select(matches.c.id, person.c.connected, person.c.last_seen, matches.c.options)
        .select_from(matches
                     .join(bot, and_(bot.c.match_id == matches.c.id, bot.c.bot.is_not(None)))
                     .join(person, and_(person.c.match_id == matches.c.id, person.c.bot.is_(None))))
        .where(matches.c.status == "active", person.c.last_seen < moment(seen_before_ms)))
    async with engine.connect() as conn:
        return list((await conn.execute(query)).all())

"""The pools' statements on `pool_seekers` (app/db/pool_models.py).

Each player's rows change in one transaction at a time, on every process: on
PostgreSQL under a transaction-scoped advisory lock on the player (taken in
the order of the players' keys, so two pairings never wait on each other in a
circle); on SQLite every such transaction begins with a write, which holds
the database's one write lock until it commits. So a join, a leave and a
pairing of the same player never interleave, and a pairing checks, under
those locks, that both players still wait before it claims them. A join that
takes a new place also takes its address's lock (after the player's, and no
pairing takes one), so the places of one address are counted one join at a
time on every process.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, delete, func, or_, select, text, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from app.db.account_models import accounts, ratings
from app.db.pool_models import pool_seekers as seekers
from app.matches import playing

from .errors import TooManyPlaces

KEPT_MS = 3_600_000  # a pairing's row is kept an hour for its player to collect, then cleared


class Lost(Exception):
    """A pairing found one of its two players paired, gone or expired already."""


@dataclass(frozen=True, slots=True)
class Seeker:
    """What a player brings to a pool."""

    player: str
    name: str
    account_id: int | None
    ticket_hash: str | None
    seat_nonce: str | None = None  # a guest's (app/pools/seat_key.py)
    seat_token_hash: str | None = None
    bot: bool = False  # a bot account (app/accounts/bots.py)
    bots: bool = False  # willing to meet a bot account
    origin: str | None = None  # where the place is taken from: the address, folded (app/kernel/origins.py)


@dataclass(frozen=True, slots=True)
class Caps:
    """The most places one address and one account may hold at once (0: no cap);
    a join over either raises TooManyPlaces with `retry_after` seconds."""

    per_address: int
    per_account: int
    retry_after: int


async def _lock(conn: AsyncConnection, players: Iterable[str]) -> None:
    if conn.dialect.name == "postgresql":
        for player in sorted(set(players)):
            await conn.execute(text("SELECT pg_advisory_xact_lock(hashtext(:key))"), {"key": f"pool:{player}"})


async def _own(conn: AsyncConnection, player: str) -> None:
    """The player's rows, held: under its lock on PostgreSQL; on SQLite this
    write (which changes nothing) takes the database's write lock first, before
    any read, so that no other writer can come between the read and the write."""
    await _lock(conn, [player])
    await conn.execute(update(seekers).where(seekers.c.player == player)
                       .values(lease_until_ms=seekers.c.lease_until_ms))


async def sweep(engine: AsyncEngine, now_ms: int, lease_ms: int) -> None:
    """Rows of nobody: places whose lease ran out a while ago, pairings long collected."""
    async with engine.begin() as conn:
        await conn.execute(delete(seekers).where(or_(
            and_(seekers.c.match_id.is_(None), seekers.c.lease_until_ms < now_ms - 10 * lease_ms),
            seekers.c.paired_ms < now_ms - KEPT_MS)))


async def rating_in(engine: AsyncEngine, account_id: int, variant: str) -> float | None:
    async with engine.connect() as conn:
        found = (await conn.execute(select(ratings.c.rating).where(
            ratings.c.account_id == account_id, ratings.c.variant == variant))).scalar()
    return None if found is None else float(found)


async def _room(conn: AsyncConnection, seeker: Seeker, now_ms: int, caps: Caps) -> None:
    """Raise TooManyPlaces when a new place would take the seeker's address, or
    its account, over its cap. Under the player's lock, and the address's
    (taken after it, as every join does: on PostgreSQL an advisory lock; on
    SQLite the write lock held already), so racing joins on any process count
    one after another."""
    running = and_(seekers.c.match_id.is_(None), seekers.c.lease_until_ms >= now_ms)
    if caps.per_account and seeker.account_id is not None:
        held = (await conn.execute(select(func.count()).select_from(seekers).where(
            running, seekers.c.player == seeker.player))).scalar_one()
        if held >= caps.per_account:
            raise TooManyPlaces(caps.per_account, "account", caps.retry_after)
    if caps.per_address and seeker.origin is not None:
        await _lock(conn, [f"origin:{seeker.origin}"])
        held = (await conn.execute(select(func.count()).select_from(seekers).where(
            running, seekers.c.origin == seeker.origin))).scalar_one()
        if held >= caps.per_address:
            raise TooManyPlaces(caps.per_address, "address", caps.retry_after)


async def join(engine: AsyncEngine, pool: str, seeker: Seeker, rating: float | None, now_ms: int,
               lease_ms: int, again_ms: int, caps: Caps) -> Any | None:
    """Put the player in `pool` (or renew its place there). Answers the player's
    pairing instead when it was paired within `again_ms` (a second press of a
    player just paired is answered with that match, never a second one). A new
    place must fit its address's and its account's caps (TooManyPlaces)."""
    async with engine.begin() as conn:
        await _own(conn, seeker.player)
        rows = (await conn.execute(select(seekers).where(seekers.c.player == seeker.player))).all()
        paired = sorted((r for r in rows if r.match_id is not None), key=lambda r: r.paired_ms)
        if paired and paired[-1].paired_ms > now_ms - again_ms:
            return paired[-1]
        last = paired[-1].last_opponent if paired else next((r.last_opponent for r in rows if r.last_opponent), None)
        if paired:
            await conn.execute(delete(seekers).where(seekers.c.id.in_([r.id for r in paired])))
        here = next((r for r in rows if r.pool == pool and r.match_id is None), None)
        if here is not None and here.lease_until_ms >= now_ms:  # a place held: renewed, where it was taken
            await conn.execute(update(seekers).where(seekers.c.id == here.id).values(
                lease_until_ms=now_ms + lease_ms, name=seeker.name, rating=rating, bot=seeker.bot, bots=seeker.bots))
            return None
        await _room(conn, seeker, now_ms, caps)
        if here is not None:  # its lease ran out: taken again, as a new place would be
            await conn.execute(update(seekers).where(seekers.c.id == here.id).values(
                lease_until_ms=now_ms + lease_ms, name=seeker.name, rating=rating, bot=seeker.bot, bots=seeker.bots,
                origin=seeker.origin))
        else:
            await conn.execute(seekers.insert().values(
                pool=pool, player=seeker.player, account_id=seeker.account_id, name=seeker.name, rating=rating,
                ticket_hash=seeker.ticket_hash, seat_nonce=seeker.seat_nonce, seat_token_hash=seeker.seat_token_hash,
                joined_ms=now_ms, lease_until_ms=now_ms + lease_ms, last_opponent=last, bot=seeker.bot,
                bots=seeker.bots, origin=seeker.origin))
    return None


async def rows_of(engine: AsyncEngine, player: str) -> list[Any]:
    async with engine.connect() as conn:
        return list((await conn.execute(select(seekers).where(seekers.c.player == player)
                                        .order_by(seekers.c.joined_ms))).all())


async def renew(engine: AsyncEngine, player: str, until_ms: int) -> None:
    async with engine.begin() as conn:
        await _lock(conn, [player])
        await conn.execute(update(seekers).where(seekers.c.player == player, seekers.c.match_id.is_(None))
                           .values(lease_until_ms=until_ms))


async def leave(engine: AsyncEngine, player: str, pool: str | None) -> None:
    """The player leaves `pool` (None: every pool). A pairing made already stays."""
    async with engine.begin() as conn:
        await _lock(conn, [player])
        query = delete(seekers).where(seekers.c.player == player, seekers.c.match_id.is_(None))
        await conn.execute(query if pool is None else query.where(seekers.c.pool == pool))


async def waiting(engine: AsyncEngine, pool: str, now_ms: int, realtime: bool = True) -> list[Any]:
    """The places of `pool` whose lease runs now; in a `realtime` pool, of players
    playing no real-time game now (one who does waits on, to be paired once it
    is over)."""
    query = select(seekers).where(seekers.c.pool == pool, seekers.c.match_id.is_(None),
                                  seekers.c.lease_until_ms >= now_ms)
    if realtime:
        query = query.where(playing.free(seekers.c.account_id))
    async with engine.connect() as conn:
        return list((await conn.execute(query)).all())


async def counts(engine: AsyncEngine, now_ms: int) -> dict[str, int]:
    """How many wait in each pool now."""
    async with engine.connect() as conn:
        rows = (await conn.execute(select(seekers.c.pool, func.count()).where(
            seekers.c.match_id.is_(None), seekers.c.lease_until_ms >= now_ms).group_by(seekers.c.pool))).all()
    return {pool: int(n) for pool, n in rows}


async def claim(conn: AsyncConnection, pool: str, players: tuple[str, str], match_id: str,
                colours: tuple[str, str], now_ms: int, realtime: bool = True) -> None:
    """In the transaction that inserts the match: both players, still waiting in
    `pool` with a running lease (and, for a `realtime` pool's game, playing no
    real-time game anywhere: app/matches/playing.py), become paired there and
    leave every other pool.
    Raises Lost (and so the match is not made) otherwise. No seat token is
    written: a guest's seat was made with the hash its place holds."""
    await _lock(conn, players)
    rows = (await conn.execute(select(seekers).where(
        seekers.c.player.in_(players), seekers.c.match_id.is_(None)))).all()
    places = {r.player: r for r in rows if r.pool == pool and r.lease_until_ms >= now_ms}
    if set(places) != set(players) or players[0] == players[1]:
        raise Lost(f"{players} are no longer both waiting in {pool}")
    origins = {places[p].origin for p in players}
    if len(origins) == 1 and None not in origins:
        raise Lost(f"{players} took their places from one address")  # never paired together (rules.apart)
    accounts = [places[p].account_id for p in players]
    await playing.hold(conn, accounts)
    if realtime and await playing.busy(conn, accounts, match_id):
        raise Lost(f"one of {players} plays a real-time game elsewhere")
    for me, other, colour in ((players[0], players[1], colours[0]), (players[1], players[0], colours[1])):
        await conn.execute(update(seekers).where(seekers.c.id == places[me].id).values(
            match_id=match_id, colour=colour, paired_ms=now_ms, last_opponent=other))
    await conn.execute(delete(seekers).where(seekers.c.player.in_(players), seekers.c.match_id.is_(None)))


async def computer_ratings(engine: AsyncEngine, levels: Iterable[str], variant: str) -> dict[str, float | None]:
    """Each computer level's rating in `variant` (None: never rated in it)."""
    query = (select(accounts.c.computer, ratings.c.rating)
             .select_from(accounts.outerjoin(ratings, and_(ratings.c.account_id == accounts.c.id,
                                                           ratings.c.variant == variant)))
             .where(accounts.c.computer.in_(list(levels))))
    async with engine.connect() as conn:
        return {str(level): None if rating is None else float(rating)
                for level, rating in (await conn.execute(query)).all()}

"""The database side of the match service: short statements, one transaction
per mutation, Core SQL on the tables of app/db/models.py."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy import (
    Integer,
    String,
    and_,
    bindparam,
    case,
    func,
    null,
    or_,
    select,
    tuple_,
    type_coerce,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from app.accounts import rate_ending
from app.accounts.playban import note_ending
from app.db import raw
from app.db.account_models import accounts, rating_changes, ratings
from app.db.models import actions, draw_offers, matches, seats
from app.kernel.jsontext import compact
from app.kernel.moments import moment
from app.rules import State

from . import bot_store
from .record import Record, record_from_rows
from .replay import replay
from .saves_together import Save, SavesTogether
from .saving_sql import ACT as _PG_ACT
from .saving_sql import ACT_ONE as _PG_ACT_ONE
from .shapes import MatchState
from .shown_ratings import show_changes

_ROW_COLUMNS = [c for c in matches.c if c.name != "state"]


class Conflict(Exception):
    """The stored version moved on: someone else's change landed first."""


class ClientIdTaken(Exception):
    """The client's action id is in this match's log already."""


# The seat columns of a load, named apart from the match's own.
# The seat's account is read by name with it (names never change): the public
# state shows the name, never the id.
_SEAT_COLUMNS = [*(c.label(f"seat_{c.name}") for c in seats.c if c.name != "match_id"),
                 accounts.c.name.label("seat_account"),
                 accounts.c.bot_at.label("seat_bot_at"),  # a bot account's seat is titled "BOT"
                 accounts.c.closed_at.label("seat_closed_at"),  # a closed account plays no more
                 # Profiles: the seat's rating in the match's variant, and
                 # what a rated ending did to it (record.seat_rating).
                 ratings.c.rating.label("seat_rating"), ratings.c.rd.label("seat_rd"),
                 rating_changes.c.rating_before.label("seat_rating_before"),
                 rating_changes.c.rd_before.label("seat_rd_before"),
                 rating_changes.c.rating_after.label("seat_rating_after")]


def _seats_of(table: Any) -> Any:
    """`table` (matches, or a page of them) with each of its seats, the seat's
    account, its rating in the match's variant and its rated change: at most one
    row of each per seat (their keys), so still one row per seat."""
    return (table.outerjoin(seats, seats.c.match_id == table.c.id)
            .outerjoin(accounts, accounts.c.id == seats.c.account_id)
            .outerjoin(ratings, and_(ratings.c.account_id == seats.c.account_id,
                                     ratings.c.variant == table.c.variant))
            .outerjoin(rating_changes, and_(rating_changes.c.match_id == seats.c.match_id,
                                            rating_changes.c.colour == seats.c.colour)))


# A load's two statements, made once (built per call, their making and cache keys were a
# sixth of a load's CPU); the state only when the cache does not hold that version (`known`).
_LOAD = select(*_ROW_COLUMNS, type_coerce(
    case((matches.c.version == bindparam("known", type_=Integer), null()), else_=matches.c.state),
    matches.c.state.type).label("state")).where(matches.c.id == bindparam("match_id", type_=String))
_LOAD_WITH_SEATS = _LOAD.add_columns(*_SEAT_COLUMNS).select_from(_seats_of(matches))


async def load(
    engine: AsyncEngine, match_id: str, cached: Record | None, with_seats: bool = True,
) -> Record | None:
    """The stored match, reusing `cached`'s engine state (and seats, unless
    `with_seats`) when it is of the same version.

    One statement, so one snapshot: the row, its state and its seats are read
    together. Read in several statements under READ COMMITTED, a change
    committed between two of them would tear the record (a status still
    "active" beside a state already over)."""
    known = cached.version if cached is not None else -1
    seat_rows = with_seats or cached is None or len(cached.seats) < 2
    async with engine.connect() as conn:
        rows = (await conn.execute(_LOAD_WITH_SEATS if seat_rows else _LOAD,
                                   {"known": known, "match_id": match_id})).all()
    if not rows:
        return None
    row = rows[0]
    if row.state is None:
        assert cached is not None and cached.version == row.version
        engine_state = cached.state
    else:
        engine_state = State.from_json(row.state)
    rec = record_from_rows(row, [r for r in rows if seat_rows and r.seat_colour is not None], engine_state)
    if not seat_rows and cached is not None:
        rec.seats = dict(cached.seats)
    if cached is not None and cached.state is engine_state:
        rec.view_of, rec.view = cached.view_of, cached.view
    return rec


async def insert(engine: AsyncEngine, rec: Record,
                 then: Callable[[AsyncConnection], Awaitable[None]] | None = None) -> None:
    """Insert the new match and its seats, and run `then` in the same transaction
    (a bot match's enrolment, which may refuse it: then nothing is inserted)."""
    async with engine.begin() as conn:
        await _insert(conn, rec)
        if then is not None:
            await then(conn)


async def _insert(conn: AsyncConnection, rec: Record) -> None:
    await conn.execute(matches.insert().values(**rec.new_row()))
    await conn.execute(seats.insert(), [rec.seat_row(c) for c in rec.seats])


def _entry_row(match_id: str, e: Any) -> dict[str, Any]:
    return {"match_id": match_id, "version": e.version, "player": e.player, "action": e.action,
            "automatic": e.automatic, "at": moment(e.at_ms), "client_id": e.client_id, "public": e.public}


def _json(value: Any) -> str | None:
    return None if value is None else compact(value)


async def _save_postgres(engine: AsyncEngine, before_version: int, rec: Record,
                         together: SavesTogether | None = None) -> None:
    import asyncpg

    row = rec.row()
    entries = rec.entries
    head = (
        row["status"], _json(row["state"]), row["version"], row["white_ms"], row["black_ms"],
        row["clock_running"], row["clock_since_ms"], row["due_at_ms"], row["draw_offer"], _json(row["result"]),
        row["updated_at"], row["finished_at"], rec.id, before_version,
    )
    args: tuple[Any, ...]
    if len(entries) == 1:
        e = entries[0]
        sql, args = _PG_ACT_ONE, (*head, e.version, e.player, _json(e.action), e.automatic, moment(e.at_ms),
                                  e.client_id, e.public_text())
    else:
        sql, args = _PG_ACT, (
            *head, [e.version for e in entries], [e.player for e in entries], [_json(e.action) for e in entries],
            [e.automatic for e in entries], [moment(e.at_ms) for e in entries], [e.client_id for e in entries],
            [e.public_text() for e in entries])
    try:
        if together is None:
            done = len(await raw.fetch(engine, sql, *args))
        else:
            done = await together.write(Save(rec.id, sql, args))
    except asyncpg.UniqueViolationError as error:
        if "client_id" in (error.constraint_name or ""):
            raise ClientIdTaken() from None
        raise Conflict() from None
    if done != len(entries):
        raise Conflict()


async def save(engine: AsyncEngine, before_version: int, rec: Record,
               together: SavesTogether | None = None) -> None:
    """Write `rec` if the stored version is still `before_version`; raises Conflict
    (or ClientIdTaken) and writes nothing otherwise. On PostgreSQL's hot path,
    `together` may write it in one transaction with other matches' saves."""
    if (rec.entries and not rec.new_seats and not rec.draw_ops and not rec.rematch_changed and rec.told is None
            and not rec.takeback_changed and not rec.rates_now and engine.dialect.name == "postgresql"):
        await _save_postgres(engine, before_version, rec, together)
    else:
        await _save_core(engine, before_version, rec)


async def _save_core(engine: AsyncEngine, before_version: int, rec: Record) -> None:
    """Any change, on either database, in one transaction of Core statements."""
    try:
        async with engine.begin() as conn:
            done = await conn.execute(matches.update().where(matches.c.id == rec.id, matches.c.version == before_version)
                                      .values(**rec.row()))
            if done.rowcount != 1:
                raise Conflict()
            if rec.new_seats:
                await conn.execute(seats.insert(), [rec.seat_row(c) for c in rec.new_seats])
            if rec.entries:
                await conn.execute(actions.insert(), [_entry_row(rec.id, e) for e in rec.entries])
            for op, colour in rec.draw_ops:
                await _draw_op(conn, rec, op, colour)
            if rec.rates_now:  # after the log rows: the change reads who acted (app/accounts/rated.py)
                assert rec.result is not None and rec.finished_ms is not None
                changes = await rate_ending(conn, rec.id, rec.options["variant"], rec.result,
                                            rec.seat_accounts(), moment(rec.finished_ms),
                                            {c: s.origin for c, s in rec.seats.items()})
                await show_changes(conn, rec, changes)  # the end panel's "+12"
                last = rec.entries[-1] if rec.entries else None
                await note_ending(conn, rec.id, rec.result, last.action if last else {}, last.player if last else None,
                                  (rec.options.get("time_control") or {}).get("type") == "realtime",
                                  rec.seat_accounts(), moment(rec.finished_ms))
            if rec.rematch_new is not None:  # in the same transaction: both land, or neither
                await _insert(conn, rec.rematch_new)
                if any(seat.bot is not None for seat in rec.rematch_new.seats.values()):
                    await bot_store.enrol_rematch(conn, rec.rematch_new.id, rec.id)
            if rec.told is not None:  # what this change tells its players: with it, or not at all
                await rec.told.write(conn, rec.updated_ms)
    except IntegrityError as error:
        if any(e.client_id for e in rec.entries) and "client_id" in str(error.orig).lower():
            raise ClientIdTaken() from None
        raise Conflict() from None


async def _draw_op(conn: AsyncConnection, rec: Record, op: str, colour: str | None) -> None:
    if op == "offer":
        await conn.execute(draw_offers.insert().values(
            match_id=rec.id, colour=colour, offered_version=rec.version, outcome="pending"))
    else:
        await conn.execute(
            draw_offers.update()
            .where(draw_offers.c.match_id == rec.id, draw_offers.c.outcome == "pending")
            .values(outcome=op, closed_version=rec.version))


async def touch(engine: AsyncEngine, match_id: str, colour: str, now_ms: int, connected: bool | None) -> None:
    values: dict[str, Any] = {"last_seen": moment(now_ms)}
    if connected is not None:
        values["connected"] = connected
    async with engine.begin() as conn:
        await conn.execute(
            seats.update().where(seats.c.match_id == match_id, seats.c.colour == colour).values(**values))


async def held(engine: AsyncEngine, pairs: list[tuple[str, str]], now_ms: int) -> None:
    """These seats (match id, colour) hold a socket now: connected, seen now, in one
    statement however many (the heartbeat's word)."""
    if not pairs:
        return
    async with engine.begin() as conn:
        await conn.execute(
            seats.update().where(tuple_(seats.c.match_id, seats.c.colour).in_(pairs))
            .values(connected=True, last_seen=moment(now_ms)))


async def presence(engine: AsyncEngine, match_ids: list[str]) -> list[Any]:
    """The presence columns of these matches' seats."""
    if not match_ids:
        return []
    async with engine.connect() as conn:
        return list((await conn.execute(
            select(seats.c.match_id, seats.c.colour, seats.c.bot, seats.c.connected, seats.c.last_seen)
            .where(seats.c.match_id.in_(match_ids)))).all())


async def entry_by_client_id(engine: AsyncEngine, match_id: str, client_id: str) -> Any:
    async with engine.connect() as conn:
        return (await conn.execute(
            select(actions.c.version, actions.c.player, actions.c.action)
            .where(actions.c.match_id == match_id, actions.c.client_id == client_id))).first()


async def answer_of(engine: AsyncEngine, match_id: str, version: int) -> tuple[int, MatchState]:
    """What the action logged at `version` was answered: the version and public
    state after it and the automatic entries that followed it at once (the state
    as `Record.present` made it when that entry was saved)."""
    async with engine.connect() as conn:
        rows = await conn.execute(
            select(actions.c.version, actions.c.automatic, actions.c.public)
            .where(actions.c.match_id == match_id, actions.c.version >= version)
            .order_by(actions.c.version).limit(64))
        last = None
        for row in rows:
            if last is not None and not row.automatic:
                break
            last = row
    assert last is not None, f"no entry {version} in match {match_id}"
    return last.version, last.public


async def entry_after(engine: AsyncEngine, match_id: str, version: int, skip: frozenset[str]) -> Any:
    """The first log entry after `version` whose action type is not in `skip`: one
    row read, however long the log (callers hold the match's lock meanwhile)."""
    async with engine.connect() as conn:
        return (await conn.execute(
            select(actions.c.version, actions.c.player, actions.c.action, actions.c.automatic)
            .where(actions.c.match_id == match_id, actions.c.version > version,
                   actions.c.action["type"].as_string().not_in(sorted(skip)))
            .order_by(actions.c.version).limit(1))).first()


async def log(engine: AsyncEngine, match_id: str, since: int = 0) -> list[Any] | None:
    async with engine.connect() as conn:
        found = (await conn.execute(select(matches.c.id).where(matches.c.id == match_id))).first()
        if found is None:
            return None
        return list((await conn.execute(
            select(actions.c.version, actions.c.player, actions.c.action, actions.c.automatic, actions.c.at)
            .where(actions.c.match_id == match_id, actions.c.version > since)
            .order_by(actions.c.version))).all())


async def updates(engine: AsyncEngine, match_id: str, since: int, limit: int) -> tuple[int, list[Any]] | None:
    """(current version, the log rows from `since` (the one the first update's
    words are told from) up to `limit` after it), or None if no such match."""
    async with engine.connect() as conn:
        version = (await conn.execute(select(matches.c.version).where(matches.c.id == match_id))).scalar()
        if version is None:
            return None
        if since >= version or version - since > limit:
            return version, []
        rows = (await conn.execute(
            select(actions.c.version, actions.c.player, actions.c.action, actions.c.automatic, actions.c.public,
                   actions.c.at)
            .where(actions.c.match_id == match_id, actions.c.version >= since)
            .order_by(actions.c.version))).all()
        return version, list(rows)


async def due(engine: AsyncEngine, now_ms: int, limit: int = 200) -> list[str]:
    async with engine.connect() as conn:
        return list((await conn.execute(
            select(matches.c.id)
            .where(matches.c.due_at_ms <= now_ms, matches.c.status != "finished")
            .order_by(matches.c.due_at_ms).limit(limit))).scalars())


async def page(
    engine: AsyncEngine, *, status: str | None, variant: str | None, player: str | None,
    limit: int, after: tuple[Any, str] | None, here: tuple[int, int] | None = None,
) -> tuple[list[Any], dict[str, list[Any]]]:
    """Matches newest first (keyset on created_at, id) and their seats, read in
    one statement (one snapshot: a seat taken meanwhile never sits beside a row
    from before it). `here` = (connected_since_ms, seen_since_ms): only matches
    with a person's seat connected and heard from since the first, or seen at
    all since the second (bots do not count: a bot waits at any empty table)."""
    q = select(*_ROW_COLUMNS)
    if here is not None:
        connected_since, seen_since = here
        q = q.where(matches.c.id.in_(select(seats.c.match_id).where(
            seats.c.bot.is_(None),
            or_(and_(seats.c.connected.is_(True), seats.c.last_seen >= moment(connected_since)),
                seats.c.last_seen >= moment(seen_since)))))
    if status:
        q = q.where(matches.c.status == status)
    if not player:  # a match for a friend is found by its link, or by its players' names, while it waits
        unlisted = matches.c.options["listed"].as_boolean().is_(False)
        q = q.where(or_(matches.c.status != "waiting", ~unlisted))  # IS NOT false: an absent flag is listed
    if variant:
        q = q.where(matches.c.variant == variant)
    if player:
        q = q.where(matches.c.id.in_(
            select(seats.c.match_id).where(func.lower(seats.c.name) == player.lower())))
    if after is not None:
        at, last_id = after
        q = q.where(or_(matches.c.created_at < at, and_(matches.c.created_at == at, matches.c.id < last_id)))
    chosen = q.order_by(matches.c.created_at.desc(), matches.c.id.desc()).limit(limit).subquery()
    joined = (
        select(chosen, *_SEAT_COLUMNS)
        .select_from(_seats_of(chosen))
        .order_by(chosen.c.created_at.desc(), chosen.c.id.desc())
    )
    async with engine.connect() as conn:
        found = (await conn.execute(joined)).all()
    rows: list[Any] = []
    by_match: dict[str, list[Any]] = {}
    for r in found:
        if r.id not in by_match:
            rows.append(r)
            by_match[r.id] = []
        if r.seat_colour is not None:
            by_match[r.id].append(r)
    return rows, by_match


async def replay_match(engine: AsyncEngine, match_id: str) -> tuple[State, State] | None:
    """(the state replayed from the log, the stored snapshot), or None if no such match."""
    async with engine.connect() as conn:
        row = (await conn.execute(select(matches).where(matches.c.id == match_id))).first()
        if row is None:
            return None
        log_rows = (await conn.execute(
            select(actions.c.player, actions.c.action, actions.c.automatic)
            .where(actions.c.match_id == match_id).order_by(actions.c.version))).all()
    replayed = replay(row.seed, row.options, row.chaos, row.custom, [tuple(r) for r in log_rows])
    return replayed, State.from_json(row.state)

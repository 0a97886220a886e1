"""A Swiss event's statements on its tables (app/db/swiss_models.py).

A round is paired once: the transaction that pairs it first writes the
event's row (a no-op update, which holds that row on PostgreSQL and the
database's one write lock on SQLite until it commits), then checks that the
round is still the one to pair, and inserts the round's row, whose primary key
(tournament, round) refuses a second. A game's match is made after, by any
process, and claimed by filling the game's empty `match_id` in the match's
own transaction, so a game never gets two matches.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, select, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from app.db.account_models import ratings
from app.db.models import matches
from app.db.swiss_models import swiss_events as events
from app.db.swiss_models import swiss_games as games
from app.db.swiss_models import swiss_players as players
from app.db.swiss_models import swiss_rounds as rounds_paired
from app.db.tournament_models import tournaments

from .dutch import Board
from .record import Entrant, Game

KIND = "swiss"


class Lost(Exception):
    """Another process made this game's match first."""


@dataclass(frozen=True, slots=True)
class Event:
    id: str
    name: str
    variant: str
    time_control: str  # "5+3", or "3d": correspondence, days a move
    rated: bool
    starts_ms: int
    rounds: int
    round_interval_seconds: int
    round: int  # the last round paired
    next_round_ms: int
    finished_ms: int | None


def _event(row: Any) -> Event:
    return Event(row.id, row.name, row.variant, row.time_control, row.rated, row.starts_ms, row.rounds,
                 row.round_interval_seconds, row.round, row.next_round_ms, row.finished_ms)


def _joined() -> Any:
    return (select(tournaments, events.c.rounds, events.c.round_interval_seconds, events.c.round,
                   events.c.next_round_ms, events.c.finished_ms)
            .select_from(tournaments.join(events, events.c.tournament_id == tournaments.c.id)))


async def create(engine: AsyncEngine, event: Event, created_by: int, now_ms: int) -> None:
    async with engine.begin() as conn:
        # ends_ms is the start: the arenas' statements, which run what lies between start and end, never see it
        await conn.execute(tournaments.insert().values(
            id=event.id, kind=KIND, name=event.name, variant=event.variant, time_control=event.time_control,
            rated=event.rated, starts_ms=event.starts_ms, ends_ms=event.starts_ms, created_by=created_by,
            created_ms=now_ms))
        await conn.execute(events.insert().values(
            tournament_id=event.id, rounds=event.rounds, round_interval_seconds=event.round_interval_seconds,
            round=0, next_round_ms=event.starts_ms, finished_ms=None))


async def event(engine: AsyncEngine, tournament_id: str) -> Event | None:
    async with engine.connect() as conn:
        row = (await conn.execute(_joined().where(tournaments.c.id == tournament_id))).first()
    return None if row is None else _event(row)


async def events_among(engine: AsyncEngine, ids: Sequence[str]) -> dict[str, Event]:
    if not ids:
        return {}
    async with engine.connect() as conn:
        rows = (await conn.execute(_joined().where(tournaments.c.id.in_(list(ids))))).all()
    return {r.id: _event(r) for r in rows}


async def unfinished(engine: AsyncEngine, now_ms: int) -> list[str]:
    """The events begun and not over: the ones a tick moves on."""
    async with engine.connect() as conn:
        return list((await conn.execute(select(events.c.tournament_id).where(
            events.c.finished_ms.is_(None), events.c.next_round_ms <= now_ms))).scalars()) + list(
            (await conn.execute(select(games.c.tournament_id).where(games.c.status == "pending").distinct()))
            .scalars())


async def rating_of(engine: AsyncEngine, account_id: int, variant: str) -> float | None:
    async with engine.connect() as conn:
        return (await conn.execute(select(ratings.c.rating).where(
            ratings.c.account_id == account_id, ratings.c.variant == variant))).scalar_one_or_none()


async def join(engine: AsyncEngine, tournament_id: str, account_id: int, name: str, rating: float,
               now_ms: int) -> None:
    """The account plays from the next round paired on (again, after a withdrawal)."""
    async with engine.begin() as conn:
        done = await conn.execute(update(players).where(players.c.tournament_id == tournament_id,
                                                        players.c.account_id == account_id)
                                  .values(active=True, name=name))
        if not done.rowcount:
            await conn.execute(players.insert().values(tournament_id=tournament_id, account_id=account_id,
                                                       name=name, rating=rating, active=True, joined_ms=now_ms))


async def withdraw(engine: AsyncEngine, tournament_id: str, account_id: int) -> bool:
    """Not paired again (a game under way is played out). False: never joined."""
    async with engine.begin() as conn:
        done = await conn.execute(update(players).where(players.c.tournament_id == tournament_id,
                                                        players.c.account_id == account_id).values(active=False))
    return bool(done.rowcount)


async def players_of(engine: AsyncEngine, tournament_id: str) -> list[Any]:
    async with engine.connect() as conn:
        return list((await conn.execute(select(players).where(players.c.tournament_id == tournament_id)
                                        .order_by(players.c.id))).all())


async def games_of(engine: AsyncEngine, tournament_id: str, conn: AsyncConnection | None = None) -> list[Any]:
    """The event's games, round by round, board by board."""
    query = select(games).where(games.c.tournament_id == tournament_id).order_by(games.c.round, games.c.board)
    if conn is not None:
        return list((await conn.execute(query)).all())
    async with engine.connect() as c:
        return list((await c.execute(query)).all())


def entrant(row: Any) -> Entrant:
    return Entrant(row.account_id, row.name, round(row.rating))


def game(row: Any) -> Game:
    return Game(row.round, row.white, row.black, row.result if row.status == "finished" else None)


Pairer = Callable[[list[Entrant], list[Game], set[int]], list[Board]]


async def pair_round(engine: AsyncEngine, tournament_id: str, expected: int, pairer: Pairer, now_ms: int) -> bool:
    """Pair round `expected` + 1 once: False when another process has paired it
    already, or a game of the round before is still on. `pairer` (the players,
    the games, those present) answers the boards."""
    async with engine.begin() as conn:
        await conn.execute(update(events).where(events.c.tournament_id == tournament_id)
                           .values(round=events.c.round))  # holds the event (see the module's words)
        row = (await conn.execute(select(events).where(events.c.tournament_id == tournament_id))).one()
        if row.round != expected or row.finished_ms is not None:
            return False
        rows = await games_of(engine, tournament_id, conn)
        if any(r.status != "finished" for r in rows):
            return False
        joined = list((await conn.execute(select(players).where(players.c.tournament_id == tournament_id))).all())
        # The Dutch pairing is pure Python and takes a good part of a second for
        # 64 players (bench/swiss_pairing.py): a thread keeps the event loop serving
        boards = await asyncio.to_thread(pairer, [entrant(r) for r in joined], [game(r) for r in rows],
                                         {r.account_id for r in joined if r.active})
        number = expected + 1
        await conn.execute(rounds_paired.insert().values(tournament_id=tournament_id, round=number,
                                                         paired_ms=now_ms))
        for board, b in enumerate(boards, start=1):
            bye = b.black is None
            await conn.execute(games.insert().values(
                tournament_id=tournament_id, round=number, board=board, match_id=None, white=b.white,
                black=b.black, status="finished" if bye else "pending", result="bye" if bye else None,
                made_ms=now_ms, ended_ms=now_ms if bye else None))
        await conn.execute(update(events).where(events.c.tournament_id == tournament_id).values(
            round=number, next_round_ms=now_ms + row.round_interval_seconds * 1000))
    return True


async def finish(engine: AsyncEngine, tournament_id: str, now_ms: int) -> None:
    async with engine.begin() as conn:
        await conn.execute(update(events).where(events.c.tournament_id == tournament_id,
                                                events.c.finished_ms.is_(None)).values(finished_ms=now_ms))


async def pending(engine: AsyncEngine, tournament_id: str) -> list[Any]:
    """Games paired whose match is not made yet, with both players' names."""
    white, black = players.alias("w"), players.alias("b")
    query = (select(games.c.id, games.c.white, games.c.black, white.c.name.label("white_name"),
                    black.c.name.label("black_name"))
             .select_from(games
                          .join(white, and_(white.c.tournament_id == games.c.tournament_id,
                                            white.c.account_id == games.c.white))
                          .join(black, and_(black.c.tournament_id == games.c.tournament_id,
                                            black.c.account_id == games.c.black)))
             .where(games.c.tournament_id == tournament_id, games.c.status == "pending").order_by(games.c.board))
    async with engine.connect() as conn:
        return list((await conn.execute(query)).all())


async def claim(conn: AsyncConnection, game_id: int, match_id: str) -> None:
    """In the match's own transaction: the game is this match's, or Lost."""
    done = await conn.execute(update(games).where(games.c.id == game_id, games.c.status == "pending",
                                                  games.c.match_id.is_(None))
                              .values(match_id=match_id, status="playing"))
    if not done.rowcount:
        raise Lost(f"game {game_id} has its match already")


async def ended(engine: AsyncEngine, tournament_id: str | None = None, match_id: str | None = None) -> list[Any]:
    """Games still playing whose match is over."""
    query = (select(games.c.id, games.c.tournament_id, matches.c.result)
             .select_from(games.join(matches, matches.c.id == games.c.match_id))
             .where(games.c.status == "playing", matches.c.status == "finished"))
    if tournament_id is not None:
        query = query.where(games.c.tournament_id == tournament_id)
    if match_id is not None:
        query = query.where(games.c.match_id == match_id)
    async with engine.connect() as conn:
        return list((await conn.execute(query)).all())


async def settle(engine: AsyncEngine, game_id: int, result: str, now_ms: int) -> bool:
    """A game's result written once (False: another process did)."""
    async with engine.begin() as conn:
        done = await conn.execute(update(games).where(games.c.id == game_id, games.c.status == "playing")
                                  .values(status="finished", result=result, ended_ms=now_ms))
    return bool(done.rowcount)

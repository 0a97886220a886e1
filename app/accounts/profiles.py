"""What anyone may read of a player: the profile, the ratings per variant and
their history, wins, draws and losses, the matches played, and each
variant's leaderboard. Read queries only, each bounded, one statement each;
nothing here changes a row, and nothing secret (a password's or a token's
hash, an address) is ever selected.

A rating is shown as it stands now: its RD grown for the days since its
player's last rated match (app.ratings.as_of, lichess's 0.21436 rating
periods a day, at most 500), so a player idle for months shows as
provisional again ("1500?") and leaves the leaderboard, as on lichess. The
profile, the leaderboard and the API say the same number. Provisional while
RD > 110 (app.ratings).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypedDict

from sqlalchemy import and_, func, or_, select
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.account_models import accounts, rating_changes, ratings
from app.db.models import matches, seats
from app.ratings import NEW, PROVISIONAL_RD, Rating, as_of

from .names import NAME
from .titles import title_of

HISTORY_POINTS = 200  # the latest rated matches a variant's chart shows
MAX_PAGE = 100  # matches per page, as the match list
LEADERS = 50  # ratings a variant's leaderboard shows
# Settled ratings read for a leaderboard before the idle ones drop out: enough
# for LEADERS unless most of the best players have been away for months.
LEADER_CANDIDATES = 20 * LEADERS


class RatingView(TypedDict):
    """A rating in a public state: whole points, RD, and whether it is provisional."""

    rating: int
    rd: int
    provisional: bool


@dataclass(frozen=True, slots=True)
class Shown:
    """A rating as players see it: whole points and RD, provisional while RD > 110."""

    rating: int
    rd: int
    provisional: bool
    games: int = 0

    @property
    def text(self) -> str:
        return f"{self.rating}?" if self.provisional else str(self.rating)

    def public(self) -> RatingView:
        return {"rating": self.rating, "rd": self.rd, "provisional": self.provisional}


def shown(rating: float, rd: float, games: int = 0) -> Shown:
    """Whole points, halves rounded up (as app.ratings.Rating.shown does)."""
    return Shown(math.floor(rating + 0.5), math.floor(rd + 0.5), rd > PROVISIONAL_RD, games)


NEW_SHOWN = shown(NEW.rating, NEW.rd)


def shown_now(row: Any, now: datetime) -> Shown:
    """A stored rating (a row with rating, rd, volatility, games, last_rated_at)
    as it stands at `now`: its RD grown for the days since its last rated match."""
    stands = as_of(Rating(row.rating, row.rd, row.volatility, row.games, row.last_rated_at), now)
    return shown(stands.rating, stands.rd, stands.games)


@dataclass(frozen=True, slots=True)
class Profile:
    id: int
    name: str
    created_at: datetime
    last_seen: datetime | None
    closed: bool
    computer: str | None  # the bot level a computer's account plays as; None: a person
    title: str | None = None  # "BOT": a bot account (titles.py)


@dataclass(frozen=True, slots=True)
class Point:
    """A rating after one rated match: the history chart's point."""

    at: datetime
    rating: int
    match_id: str


@dataclass(frozen=True, slots=True)
class Results:
    wins: int = 0
    draws: int = 0
    losses: int = 0


@dataclass(frozen=True, slots=True)
class Played:
    """One match an account played, as its profile lists it."""

    id: str
    variant: str
    status: str  # waiting | active | finished
    rated: bool
    colour: str  # the account's side
    created_at: datetime
    finished_at: datetime | None
    outcome: str | None  # won | drawn | lost | aborted; None while it runs
    reason: str | None  # the result's reason
    opponent: str | None  # the opponent seat's name (None: nobody joined yet)
    opponent_account: str | None  # the opponent's account (None: a guest)
    opponent_computer: bool
    rating_change: int | None  # what this match did to the account's rating (None: nothing)
    opponent_title: str | None = None
    counted: bool = True  # false: a claimed seat of a match against oneself, left out of `results`  # "BOT": the opponent is a bot account


@dataclass(frozen=True, slots=True)
class Leader:
    name: str
    rating: Shown
    computer: str | None = None
    variant: str = ""
    title: str | None = None  # "BOT": a bot account, ranked with the people and marked


# A stored rating's columns: what `shown_now` ages.
_STANDING = (ratings.c.rating, ratings.c.rd, ratings.c.volatility, ratings.c.games, ratings.c.last_rated_at)


def _outcome(status: str, result: dict[str, Any] | None, colour: str) -> str | None:
    if status != "finished" or not result:
        return None
    if result.get("reason") == "aborted":
        return "aborted"
    winner = result.get("winner")
    return "drawn" if winner is None else "won" if winner == colour else "lost"


class Profiles:
    """The read side of the players: what the profile page, the leaderboard and
    the users API show."""

    def __init__(self, engine: AsyncEngine, clock: Callable[[], float] = time.time) -> None:
        self.engine = engine
        self.clock = clock  # seconds since the epoch: a rating's RD grows with it

    def now(self) -> datetime:
        return datetime.fromtimestamp(self.clock(), UTC)

    async def profile(self, name: object) -> Profile | None:
        """The account of this name, whatever its case; None for no such account."""
        if not isinstance(name, str) or not NAME.fullmatch(name):
            return None
        query = select(accounts.c.id, accounts.c.name, accounts.c.created_at, accounts.c.last_seen,
                       accounts.c.closed_at, accounts.c.computer, accounts.c.bot_at).where(accounts.c.name_lower == name.lower())
        async with self.engine.connect() as conn:
            row = (await conn.execute(query)).first()
        if row is None:
            return None
        return Profile(row.id, row.name, row.created_at, row.last_seen, row.closed_at is not None, row.computer,
                       title_of(row.bot_at))

    async def ratings(self, account_id: int) -> dict[str, Shown]:
        """{variant: rating as it stands now} for each variant the account has played rated."""
        query = select(ratings.c.variant, *_STANDING).where(
            ratings.c.account_id == account_id).order_by(ratings.c.variant)
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        now = self.now()
        return {row.variant: shown_now(row, now) for row in rows}

    async def history(self, account_id: int, points: int = HISTORY_POINTS) -> dict[str, list[Point]]:
        """{variant: the rating after each of its latest `points` rated matches, oldest first}."""
        latest = func.row_number().over(partition_by=rating_changes.c.variant,
                                        order_by=(rating_changes.c.at.desc(), rating_changes.c.match_id.desc()))
        ranked = select(rating_changes.c.variant, rating_changes.c.at, rating_changes.c.rating_after,
                        rating_changes.c.match_id, latest.label("back")).where(
            rating_changes.c.account_id == account_id).subquery()
        query = select(ranked).where(ranked.c.back <= points).order_by(
            ranked.c.variant, ranked.c.at, ranked.c.match_id)
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        found: dict[str, list[Point]] = {}
        for row in rows:
            found.setdefault(row.variant, []).append(Point(row.at, shown(row.rating_after, 0).rating, row.match_id))
        return found

    async def results(self, account_id: int) -> Results:
        """Wins, draws and losses over every finished match the account played,
        rated or casual; an aborted match is none of them."""
        winner = matches.c.result["winner"].as_string()
        reason = matches.c.result["reason"].as_string()
        counted = and_(matches.c.status == "finished", or_(reason.is_(None), reason != "aborted"), seats.c.counted)
        query = select(
            func.count().filter(and_(counted, winner == seats.c.colour)).label("wins"),
            func.count().filter(and_(counted, winner.is_(None))).label("draws"),
            func.count().filter(and_(counted, winner.is_not(None), winner != seats.c.colour)).label("losses"),
        ).select_from(seats.join(matches, matches.c.id == seats.c.match_id)).where(seats.c.account_id == account_id)
        async with self.engine.connect() as conn:
            row = (await conn.execute(query)).one()
        return Results(int(row.wins), int(row.draws), int(row.losses))

    async def matches(self, account_id: int, limit: int = 20,
                      after: tuple[datetime, str] | None = None) -> tuple[list[Played], bool]:
        """The account's matches newest first, `limit` at a time from `after`
        (the (created_at, id) of the last one shown: app.kernel.cursor's keyset),
        and whether more follow."""
        limit = max(1, min(limit, MAX_PAGE))
        mine = seats.alias("mine")
        theirs = seats.alias("theirs")
        opponent = accounts.alias("opponent")
        query = (
            select(matches.c.id, matches.c.variant, matches.c.status, matches.c.rated, matches.c.created_at,
                   matches.c.finished_at, matches.c.result, mine.c.colour, theirs.c.name.label("opponent"),
                   theirs.c.bot, opponent.c.name.label("opponent_account"), opponent.c.computer,
                   opponent.c.bot_at, mine.c.counted,
                   rating_changes.c.rating_before, rating_changes.c.rating_after)
            .select_from(
                mine.join(matches, matches.c.id == mine.c.match_id)
                .outerjoin(theirs, and_(theirs.c.match_id == mine.c.match_id, theirs.c.colour != mine.c.colour))
                .outerjoin(opponent, opponent.c.id == theirs.c.account_id)
                .outerjoin(rating_changes, and_(rating_changes.c.match_id == mine.c.match_id,
                                                rating_changes.c.colour == mine.c.colour)))
            .where(mine.c.account_id == account_id)
        )
        if after is not None:
            at, last_id = after
            query = query.where(or_(matches.c.created_at < at,
                                    and_(matches.c.created_at == at, matches.c.id < last_id)))
        query = query.order_by(matches.c.created_at.desc(), matches.c.id.desc()).limit(limit + 1)
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        played = [Played(
            id=r.id, variant=r.variant, status=r.status, rated=bool(r.rated), colour=r.colour,
            created_at=r.created_at, finished_at=r.finished_at, outcome=_outcome(r.status, r.result, r.colour),
            reason=(r.result or {}).get("reason"), opponent=r.opponent, opponent_account=r.opponent_account,
            opponent_computer=r.bot is not None or r.computer is not None,
            rating_change=None if r.rating_after is None else change_of(r.rating_before, r.rating_after),
            opponent_title=title_of(r.bot_at), counted=bool(r.counted),
        ) for r in rows[:limit]]
        return played, len(rows) > limit

    async def leaderboard(self, variant: str, limit: int = LEADERS) -> list[Leader]:
        """The best non-provisional ratings of people in `variant` as they stand
        now (open accounts; the computer levels are listed apart: `computers`).
        A stored RD only grows with idle time, so the settled rows stored are a
        superset of those settled now: read the best of them, age each, keep
        the settled ones."""
        limit = max(1, min(limit, MAX_PAGE))
        query = (
            select(accounts.c.name, accounts.c.bot_at, *_STANDING)
            .select_from(ratings.join(accounts, accounts.c.id == ratings.c.account_id))
            .where(ratings.c.variant == variant, ratings.c.rd <= PROVISIONAL_RD,
                   accounts.c.computer.is_(None), accounts.c.closed_at.is_(None))
            .order_by(ratings.c.rating.desc(), accounts.c.name_lower).limit(LEADER_CANDIDATES)
        )
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        now = self.now()
        standing = (Leader(r.name, shown_now(r, now), None, variant, title_of(r.bot_at)) for r in rows)
        return [leader for leader in standing if not leader.rating.provisional][:limit]

    async def computers(self) -> list[Leader]:
        """Every computer level's rating in each variant it has played rated, and
        a level with none at all once, unrated (variant ""): provisional or not."""
        query = (
            select(accounts.c.name, accounts.c.computer, ratings.c.variant, *_STANDING)
            .select_from(accounts.outerjoin(ratings, ratings.c.account_id == accounts.c.id))
            .where(accounts.c.computer.is_not(None))
            .order_by(ratings.c.variant, ratings.c.rating.desc(), accounts.c.name_lower)
        )
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        now = self.now()
        return [Leader(r.name, NEW_SHOWN if r.variant is None else shown_now(r, now), r.computer,
                       r.variant or "") for r in rows]

async def ratings_in(engine: AsyncEngine, account_ids: list[int], variant: str
                     ) -> dict[int, tuple[str, Shown, str | None]]:
    """{account: (its name, its rating in `variant`: a new player's for one never
    rated in it, its title: "BOT" for a bot account)}, in one statement: what a
    seat taken by an account shows."""
    if not account_ids:
        return {}
    query = (select(accounts.c.id, accounts.c.name, accounts.c.bot_at, ratings.c.rating, ratings.c.rd,
                    ratings.c.games)
             .select_from(accounts.outerjoin(ratings, and_(ratings.c.account_id == accounts.c.id,
                                                           ratings.c.variant == variant)))
             .where(accounts.c.id.in_(sorted(set(account_ids)))))
    async with engine.connect() as conn:
        rows = (await conn.execute(query)).all()
    return {r.id: (r.name, NEW_SHOWN if r.rating is None else shown(r.rating, r.rd, r.games), title_of(r.bot_at))
            for r in rows}


def change_of(before: float, after: float) -> int:
    """A change as players see it: the difference of the two shown ratings, so
    that "1500 +12" always reads as 1512 afterwards."""
    return shown(after, 0).rating - shown(before, 0).rating


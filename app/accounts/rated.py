"""A rated match's change of ratings, written in the transaction that ends it.

The match service calls `rate_ending` from inside the transaction whose
conditional UPDATE (on the match's version) ends the match, so the change
lands with the ending or not at all: however many processes race to end a
match, one ending lands and with it one change. The key of `rating_changes`
(match, colour) is the database's own guard behind that.

Two matches of the same player ending at once each read that player's rating
under a row lock (locked in the order of the accounts' ids, so two endings
never wait on each other in a circle), so neither change is lost. This
module sits below app.matches (app/layers.py) so that the service can call
it; it reads the match's log but never changes a match.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from app.db.account_models import accounts, rating_changes, ratings
from app.db.models import actions
from app.ratings import NEW, Rating, finished, rate_match, scores
from app.ratings.outcome import TURN_ACTIONS

from .fairplay import judge_ending

log = logging.getLogger(__name__)
COLOURS = ("white", "black")


@dataclass(frozen=True, slots=True)
class Change:
    colour: str
    account_id: int
    score: float
    before: Rating
    after: Rating


def _rating(row: Any) -> Rating:
    return Rating(row.rating, row.rd, row.volatility, row.games, row.last_rated_at)


async def turn_actions(conn: AsyncConnection, match_id: str) -> list[tuple[str | None, str, bool]]:
    """Each side's own turn actions, at most one row per side and type: all that
    `both_sides_acted` needs of the log (which may be long)."""
    kind = actions.c.action["type"].as_string()
    rows = (await conn.execute(
        select(actions.c.player, kind).distinct()
        .where(actions.c.match_id == match_id, actions.c.automatic.is_(False), kind.in_(sorted(TURN_ACTIONS))))).all()
    return [(player, str(k), False) for player, k in rows]


async def rate_ending(conn: AsyncConnection, match_id: str, variant: str, result: Mapping[str, Any],
                      seats: Mapping[str, int | None], when: datetime,
                      origins: Mapping[str, str | None] | None = None) -> list[Change]:
    """Apply the rated match's change of ratings, in the caller's transaction
    (the one that ends the match, after its log entries are written). Answers
    the changes, none when the ending moves no rating (an abort, an ending
    before both sides acted: app.ratings.outcome), a seat has no account, or
    either account is closed, or fair play stops it (app/accounts/fairplay.py).
    `origins`: where each seat was taken from (app/kernel/origins.py)."""
    white, black = seats.get("white"), seats.get("black")
    if white is None or black is None or white == black:
        return []
    # Read under a share lock: a closing that commits first is seen here (it
    # holds the row), and one that comes after waits for this ending to land.
    players = (await conn.execute(
        select(accounts.c.id, accounts.c.closed_at).where(accounts.c.id.in_(sorted({white, black})))
        .order_by(accounts.c.id).with_for_update(read=True))).all()
    if any(row.closed_at is not None for row in players):  # a closed account's rating never moves again
        return []
    try:
        summary = finished(True, result, await turn_actions(conn, match_id))
    except ValueError:  # a result no rating rule knows: the match must end all the same
        log.exception("match %s ended with a result ratings do not know: %r", match_id, result)
        return []
    scored = scores(summary)
    if scored is None:
        return []
    ids = {"white": white, "black": black}
    verdict = await judge_ending(conn, match_id, ids, result.get("winner"), origins or {}, when)
    if not verdict.moves:
        return []
    insert = pg_insert if conn.dialect.name == "postgresql" else sqlite_insert
    for account in sorted(ids.values()):  # a first rated match in the variant starts from NEW
        await conn.execute(insert(ratings).values(
            account_id=account, variant=variant, rating=NEW.rating, rd=NEW.rd, volatility=NEW.volatility,
            games=0, last_rated_at=None).on_conflict_do_nothing(index_elements=["account_id", "variant"]))
    rows = (await conn.execute(
        select(ratings).where(ratings.c.variant == variant, ratings.c.account_id.in_(sorted(ids.values())))
        .order_by(ratings.c.account_id).with_for_update())).all()
    now = {row.account_id: _rating(row) for row in rows}
    after = dict(zip(COLOURS, rate_match(now[white], now[black], scored.white, when), strict=True))
    score = {"white": scored.white, "black": scored.black}
    changes = [Change(c, ids[c], score[c], now[ids[c]], after[c]) for c in COLOURS]
    for change in changes:
        new = change.after
        await conn.execute(ratings.update().where(
            ratings.c.account_id == change.account_id, ratings.c.variant == variant).values(
            rating=new.rating, rd=new.rd, volatility=new.volatility, games=new.games,
            last_rated_at=new.last_rated_at))
    await conn.execute(rating_changes.insert(), [
        {"match_id": match_id, "colour": c.colour, "account_id": c.account_id, "variant": variant,
         "score": c.score, "rating_before": c.before.rating, "rd_before": c.before.rd,
         "rating_after": c.after.rating, "rd_after": c.after.rd, "at": when} for c in changes])
    return changes


async def ratings_of(engine: AsyncEngine, account_id: int) -> dict[str, Rating]:
    """The account's rating in each variant it has played rated (NEW elsewhere)."""
    async with engine.connect() as conn:
        rows = (await conn.execute(select(ratings).where(ratings.c.account_id == account_id))).all()
    return {row.variant: _rating(row) for row in rows}


async def changes_of(engine: AsyncEngine, match_id: str) -> list[Any]:
    """The rows of `rating_changes` a match made (none, or one per colour)."""
    async with engine.connect() as conn:
        return list((await conn.execute(select(rating_changes).where(rating_changes.c.match_id == match_id)
                                        .order_by(rating_changes.c.colour))).all())


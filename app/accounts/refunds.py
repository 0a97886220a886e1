"""Points given back when an account is closed for cheating: each player who
lost rating to it in its last `GAMES` rated matches within `DAYS` days gets
back what they lost, at most `MOST` points per player and variant (lichess's
figures). Done in one transaction with the ratings locked; each refund is a
row of `rating_refunds` that the player's profile shows.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.account_models import rating_changes, ratings
from app.db.playban_models import rating_refunds

GAMES = 40
DAYS = 5
MOST = 150


@dataclass(frozen=True, slots=True)
class Refund:
    account_id: int
    variant: str
    points: int


async def refund_victims(engine: AsyncEngine, cheater_id: int, now: datetime) -> list[Refund]:
    """Give back what the cheater's recent opponents lost to it; answers the refunds made."""
    since = now - timedelta(days=DAYS)
    async with engine.begin() as conn:
        recent = (await conn.execute(
            select(rating_changes.c.match_id).where(rating_changes.c.account_id == cheater_id,
                                                    rating_changes.c.at > since)
            .order_by(rating_changes.c.at.desc()).limit(GAMES))).scalars().all()
        if not recent:
            return []
        theirs = (await conn.execute(select(rating_changes).where(
            rating_changes.c.match_id.in_(recent), rating_changes.c.account_id != cheater_id))).all()
        lost: dict[tuple[int, str], float] = defaultdict(float)
        for row in theirs:
            if row.rating_after < row.rating_before:
                lost[(row.account_id, row.variant)] += row.rating_before - row.rating_after
        made: list[Refund] = []
        for (account_id, variant), points in sorted(lost.items()):
            back = min(round(points), MOST)
            if back <= 0:
                continue
            await conn.execute(select(ratings.c.account_id).where(
                ratings.c.account_id == account_id, ratings.c.variant == variant).with_for_update())
            await conn.execute(ratings.update().where(ratings.c.account_id == account_id,
                                                      ratings.c.variant == variant)
                               .values(rating=ratings.c.rating + back))
            await conn.execute(rating_refunds.insert().values(account_id=account_id, variant=variant, points=back,
                                                              cheater_id=cheater_id, at=now))
            made.append(Refund(account_id, variant, back))
    return made


async def refunds_of(engine: AsyncEngine, account_id: int) -> list[tuple[str, int, datetime]]:
    """(variant, points, when) of each refund the account received, newest first."""
    async with engine.connect() as conn:
        rows = (await conn.execute(select(rating_refunds).where(rating_refunds.c.account_id == account_id)
                                   .order_by(rating_refunds.c.at.desc()))).all()
    return [(r.variant, r.points, r.at) for r in rows]

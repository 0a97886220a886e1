"""The site's use of Glicko-2: lichess's parameters, each finished rated match
its own rating period, the RD grown for the time since a player's last rated
match, and the limits every new rating is held to.

    >>> from datetime import datetime, timezone
    >>> from app.ratings.rating import NEW
    >>> when = datetime(2026, 11, 22, tzinfo=timezone.utc)
    >>> white, black = rate_match(NEW, NEW, 1.0, when)
    >>> white.shown(), black.shown(), white.games, white.last_rated_at == when
    ('1742?', '1258?', 1, True)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from . import glicko2
from .glicko2 import CENTRE, SCALE
from .rating import Rating

SECONDS_A_DAY = 86_400.0


@dataclass(frozen=True, slots=True)
class Policy:
    tau: float = 0.75  # how far a volatility may move in one period
    min_rd: float = 45.0
    max_rd: float = 500.0
    max_volatility: float = 0.1
    max_change: float = 700.0  # rating points one period may move a rating, either way
    periods_a_day: float = 0.21436  # how fast an idle player's RD grows back


LICHESS = Policy()


@dataclass(frozen=True, slots=True)
class Result:
    """One result of the period: `score` (1 won, 0.5 drawn, 0 lost) against `opponent`."""

    opponent: Rating
    score: float

    def __post_init__(self) -> None:
        if not 0.0 <= self.score <= 1.0:
            raise ValueError(f"a score is between 0 (lost) and 1 (won), not {self.score!r}")


def aged(rating: Rating, days: float, policy: Policy = LICHESS) -> Rating:
    """`rating` as it stands `days` after its last rated match: each idle rating
    period adds the volatility's square to the RD's (on the Glicko-2 scale, as
    the paper's step 6 does for one period), up to the policy's largest RD.
    Rating and volatility stay as they were."""
    periods = max(0.0, days) * policy.periods_a_day
    if periods == 0.0:
        return rating
    sigma_points = rating.volatility * SCALE  # the volatility in rating points
    rd = math.sqrt(rating.rd * rating.rd + periods * sigma_points * sigma_points)
    return replace(rating, rd=min(policy.max_rd, rd))


def as_of(rating: Rating, when: datetime, policy: Policy = LICHESS) -> Rating:
    """`rating` as it stands at `when`: aged since its last rated match (a
    rating never rated yet, or stamped later than `when`, is taken as it is)."""
    if rating.last_rated_at is None:
        return rating
    days = (when - rating.last_rated_at).total_seconds() / SECONDS_A_DAY
    return aged(rating, days, policy)


def rate(rating: Rating, results: Sequence[Result], policy: Policy = LICHESS,
         when: datetime | None = None) -> Rating:
    """`rating` after one rating period holding `results`, within the policy's
    limits; `when` (if given) becomes its last_rated_at. The ratings given are
    taken as they stand at the match: age them first (`as_of`)."""
    games = [glicko2.Game((r.opponent.rating - CENTRE) / SCALE, r.opponent.rd / SCALE, r.score)
             for r in results]
    mu = (rating.rating - CENTRE) / SCALE
    mu_after, phi, sigma = glicko2.period(mu, rating.rd / SCALE, rating.volatility, games, policy.tau)
    # The change from the two mu's, not by converting mu_after back: the round
    # trip through the scale would leave float dust on a draw between equals,
    # which must change nothing at all.
    change = (mu_after - mu) * SCALE
    change = max(-policy.max_change, min(policy.max_change, change))
    return Rating(
        rating=rating.rating + change,
        rd=max(policy.min_rd, min(policy.max_rd, phi * SCALE)),
        volatility=min(policy.max_volatility, sigma),
        games=rating.games + len(results),
        last_rated_at=rating.last_rated_at if when is None else when,
    )


def rate_match(white: Rating, black: Rating, white_score: float, when: datetime,
               policy: Policy = LICHESS) -> tuple[Rating, Rating]:
    """Both sides' ratings after one rated match that ended at `when` with
    `white_score` (1, 0.5 or 0) for White. Each side is rated against the
    other as both stood when the match ended, neither against the other's new
    rating: the order of the two updates cannot matter.

    The idle time that grows each RD is counted up to the match's end, not its
    start: in correspondence play another rated match of the same player may
    well have ended in between, and counting to the end never counts a day
    twice."""
    white_now, black_now = as_of(white, when, policy), as_of(black, when, policy)
    return (rate(white_now, [Result(black_now, white_score)], policy, when),
            rate(black_now, [Result(white_now, 1.0 - white_score)], policy, when))

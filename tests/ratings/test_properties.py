"""Property tests over any ratings the site can hold: the new ratings stay
finite and within the limits, the winner never loses points nor the loser
gains any, and the package agrees with the plain second implementation (the
limits applied to it) wherever that one's arithmetic holds."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from app.ratings import LICHESS, Rating, Result, aged, rate, rate_match

from .reference import reference

FLOAT_DUST = 1e-9  # rating points: far below anything shown or stored as meaningful

WHEN = datetime(2026, 11, 22, tzinfo=UTC)

points = st.floats(min_value=-2000.0, max_value=6000.0)
rds = st.floats(min_value=LICHESS.min_rd, max_value=LICHESS.max_rd)
volatilities = st.floats(min_value=0.001, max_value=LICHESS.max_volatility)
idle_days = st.none() | st.floats(min_value=0.0, max_value=3650.0)
result_scores = st.sampled_from([0.0, 0.5, 1.0])


@st.composite
def ratings(draw: st.DrawFn, rating: st.SearchStrategy[float] = points) -> Rating:
    days = draw(idle_days)
    last = None if days is None else WHEN - timedelta(days=days)
    return Rating(draw(rating), draw(rds), draw(volatilities), draw(st.integers(0, 10_000)), last)


def _within_limits(before: Rating, after: Rating) -> None:
    assert math.isfinite(after.rating) and math.isfinite(after.rd) and math.isfinite(after.volatility)
    assert LICHESS.min_rd <= after.rd <= LICHESS.max_rd
    assert 0 < after.volatility <= LICHESS.max_volatility
    # The change is clamped to exactly 700; subtracting two ratings again can
    # leave float dust (700.0000000000005, found by hypothesis in CI).
    assert abs(after.rating - before.rating) <= LICHESS.max_change + FLOAT_DUST
    assert after.games == before.games + 1 and after.last_rated_at == WHEN


@given(ratings(), ratings(), result_scores)
def test_new_ratings_are_finite_and_within_the_limits(white: Rating, black: Rating, score: float) -> None:
    new_white, new_black = rate_match(white, black, score, WHEN)
    _within_limits(white, new_white)
    _within_limits(black, new_black)


@given(ratings(), ratings())
def test_the_winner_never_loses_points_nor_the_loser_gains(winner: Rating, loser: Rating) -> None:
    new_winner, new_loser = rate_match(winner, loser, 1.0, WHEN)
    assert new_winner.rating >= winner.rating
    assert new_loser.rating <= loser.rating
    new_loser, new_winner = rate_match(loser, winner, 0.0, WHEN)
    assert new_winner.rating >= winner.rating and new_loser.rating <= loser.rating


@given(ratings(), ratings())
def test_a_draw_moves_the_higher_rating_down_and_the_lower_up(white: Rating, black: Rating) -> None:
    new_white, new_black = rate_match(white, black, 0.5, WHEN)
    if white.rating > black.rating:
        assert new_white.rating <= white.rating and new_black.rating >= black.rating
    elif white.rating < black.rating:
        assert new_white.rating >= white.rating and new_black.rating <= black.rating
    else:  # equals: nothing moves, whatever the RDs and volatilities
        assert new_white.rating == white.rating and new_black.rating == black.rating


@given(ratings(st.floats(min_value=500.0, max_value=3000.0)), st.floats(min_value=500.0, max_value=3000.0),
       rds, result_scores)
def test_rate_is_the_plain_formulas_within_the_limits(player: Rating, opponent_rating: float,
                                                      opponent_rd: float, score: float) -> None:
    after = rate(player, [Result(Rating(opponent_rating, opponent_rd, 0.06), score)])
    r, rd, sigma = reference(player.rating, player.rd, player.volatility,
                             [(opponent_rating, opponent_rd, score)], tau=LICHESS.tau)
    # The package finds the volatility to the paper's tolerance (about
    # sigma * 1e-6), the reference to the float's; what follows from it
    # inherits that much, some 1e-5 of a point at most.
    change = max(-700.0, min(700.0, r - player.rating))
    assert after.rating - player.rating == _near(change, 1e-4)
    assert after.rd == _near(max(45.0, min(500.0, rd)), 1e-4)
    assert after.volatility == _near(min(0.1, sigma), 1e-7)


@given(ratings(), st.lists(st.tuples(ratings(), result_scores), min_size=1, max_size=12))
def test_a_period_of_many_results_stays_within_the_limits(player: Rating, games) -> None:
    after = rate(player, [Result(opponent, score) for opponent, score in games], when=WHEN)
    assert math.isfinite(after.rating) and LICHESS.min_rd <= after.rd <= LICHESS.max_rd
    assert 0 < after.volatility <= LICHESS.max_volatility
    assert abs(after.rating - player.rating) <= LICHESS.max_change + FLOAT_DUST
    assert after.games == player.games + len(games)


@given(ratings(), st.floats(min_value=0.0, max_value=36_500.0), st.floats(min_value=0.0, max_value=36_500.0))
def test_the_rd_grows_with_time_and_never_past_500(rating: Rating, days: float, more: float) -> None:
    sooner, later = aged(rating, days), aged(rating, days + more)
    assert rating.rd <= sooner.rd <= later.rd <= LICHESS.max_rd
    assert (later.rating, later.volatility, later.games) == (rating.rating, rating.volatility, rating.games)


class _near:
    """Equal to within `tolerance` (pytest.approx's relative part would hide
    small absolute slips near 0)."""

    def __init__(self, value: float, tolerance: float) -> None:
        self.value, self.tolerance = value, tolerance

    def __eq__(self, other: object) -> bool:
        return isinstance(other, float) and abs(other - self.value) <= self.tolerance

    def __repr__(self) -> str:
        return f"{self.value} ± {self.tolerance}"

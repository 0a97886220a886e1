"""The site's limits on a rating (RD within [45, 500], volatility at most 0.1,
a change of at most 700), the RD grown with idle days, provisional ratings and
how a rating is shown, and rate_match for one finished match."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import pytest

from app.ratings import LICHESS, NEW, PROVISIONAL_RD, Rating, Result, aged, as_of, rate, rate_match

from .reference import reference

WHEN = datetime(2026, 11, 22, 13, 2, 45, tzinfo=UTC)


# ---- the limits -----------------------------------------------------------------

def test_a_change_is_at_most_700_points_either_way() -> None:
    # A new player beating a settled 3000 would gain 1423.5 points unlimited.
    favourite = Rating(3000.0, 45.0, 0.06)
    unlimited = reference(1500.0, 500.0, 0.09, [(3000.0, 45.0, 1.0)], tau=0.75)[0]
    assert unlimited - 1500.0 > 1400
    assert rate(NEW, [Result(favourite, 1.0)]).rating == 2200.0
    # And the mirror: a new 3000-rated player losing to a settled 1500.
    assert rate(Rating(3000.0, 500.0, 0.09), [Result(Rating(1500.0, 45.0, 0.06), 0.0)]).rating == 2300.0


def test_the_rd_is_never_below_45() -> None:
    # Two settled, steady players draw: unlimited the RD would fall to 44.67.
    steady = Rating(1500.0, 45.0, 0.01)
    assert reference(1500.0, 45.0, 0.01, [(1500.0, 45.0, 0.5)], tau=0.75)[1] == pytest.approx(44.667, abs=0.001)
    assert rate(steady, [Result(steady, 0.5)]).rd == 45.0


def test_the_rd_is_never_above_500() -> None:
    # A result against a most uncertain opponent hardly narrows the RD; the
    # period's own volatility would then carry it past 500.
    wide = Rating(1500.0, 500.0, 0.1)
    assert reference(1500.0, 500.0, 0.1, [(4000.0, 500.0, 0.0)], tau=0.75)[1] > 500
    assert rate(wide, [Result(Rating(4000.0, 500.0, 0.09), 0.0)]).rd == 500.0


def test_the_volatility_is_at_most_0_1() -> None:
    # At the limit already, a great surprise would push it over.
    player = Rating(1500.0, 500.0, 0.1)
    unlimited = reference(1500.0, 500.0, 0.1, [(3000.0, 45.0, 1.0)], tau=0.75)[2]
    assert unlimited > 0.1
    assert rate(player, [Result(Rating(3000.0, 45.0, 0.06), 1.0)]).volatility == 0.1


def test_a_result_inside_the_limits_is_untouched() -> None:
    player, opponent = Rating(1700.0, 60.0, 0.06), Rating(1500.0, 80.0, 0.06)
    after = rate(player, [Result(opponent, 0.0)])
    r, rd, sigma = reference(1700.0, 60.0, 0.06, [(1500.0, 80.0, 0.0)], tau=0.75)
    assert (after.rating, after.rd, after.volatility) == pytest.approx((r, rd, sigma), abs=1e-6)


# ---- the RD grows with idle days ---------------------------------------------------

def test_the_rd_grows_with_the_days_since_the_last_rated_match() -> None:
    settled = Rating(1800.0, 45.0, 0.06, games=300)
    # A year idle is 365 * 0.21436 = 78.2414 periods, each adding the
    # volatility's square: RD = sqrt(45^2 + 78.2414 * (0.06 * 173.7178)^2)
    # = sqrt(2025 + 78.2414 * 108.6404) = sqrt(10525.1) = 102.59.
    year = aged(settled, 365)
    assert year.rd == pytest.approx(102.59, abs=0.01)
    assert (year.rating, year.volatility, year.games) == (1800.0, 0.06, 300)
    # A day: sqrt(2025 + 0.21436 * 108.6404) = 45.26.
    assert aged(settled, 1).rd == pytest.approx(45.26, abs=0.01)
    assert aged(settled, 30).rd < aged(settled, 31).rd


def test_the_grown_rd_stops_at_500() -> None:
    assert aged(Rating(1800.0, 45.0, 0.06), 365 * 100).rd == 500.0
    assert aged(NEW, 10).rd == 500.0


def test_no_time_and_time_backwards_grow_nothing() -> None:
    settled = Rating(1800.0, 45.0, 0.06, last_rated_at=WHEN)
    assert aged(settled, 0) == settled
    assert aged(settled, -3) == settled
    assert as_of(settled, WHEN - timedelta(days=2)) == settled


def test_as_of_counts_the_days_from_the_last_rated_match() -> None:
    settled = Rating(1800.0, 45.0, 0.06, games=10, last_rated_at=WHEN)
    assert as_of(settled, WHEN + timedelta(days=365)).rd == pytest.approx(aged(settled, 365).rd)
    assert as_of(settled, WHEN + timedelta(hours=12)).rd == pytest.approx(aged(settled, 0.5).rd)
    # Never rated: nothing to count from.
    assert as_of(NEW, WHEN) == NEW


def test_rate_match_grows_both_rds_before_the_match() -> None:
    long_ago = WHEN - timedelta(days=200)
    white, black = Rating(1600.0, 50.0, 0.06, 20, long_ago), Rating(1600.0, 50.0, 0.06, 20, WHEN)
    new_white, new_black = rate_match(white, black, 0.5, WHEN)
    # The idle side is less certain, so its rating moves further and its RD stays wider.
    grown = aged(white, 200).rd
    r, rd, _ = reference(1600.0, grown, 0.06, [(1600.0, 50.0, 0.5)], tau=0.75)
    assert new_white.rd == pytest.approx(rd, abs=1e-6) and new_white.rd > new_black.rd


# ---- provisional, and shown ------------------------------------------------------------

def test_provisional_while_the_rd_is_above_110() -> None:
    assert PROVISIONAL_RD == 110.0
    assert Rating(1500.0, 110.0001, 0.06).provisional
    assert not Rating(1500.0, 110.0, 0.06).provisional
    assert NEW.provisional


def test_a_rating_is_shown_in_whole_points_with_a_mark_while_provisional() -> None:
    assert NEW.shown() == "1500?" and str(NEW) == "1500?"
    assert Rating(1500.0, 110.0, 0.06).shown() == "1500"
    assert Rating(1500.0, 110.5, 0.06).shown() == "1500?"
    assert Rating(1612.5, 60.0, 0.06).shown() == "1613"  # halves go up
    assert Rating(1612.49, 60.0, 0.06).shown() == "1612"
    assert Rating(-3.5, 60.0, 0.06).shown() == "-3"


def test_a_new_rating_is_lichesss() -> None:
    assert (NEW.rating, NEW.rd, NEW.volatility, NEW.games, NEW.last_rated_at) == (1500.0, 500.0, 0.09, 0, None)
    assert (LICHESS.tau, LICHESS.min_rd, LICHESS.max_rd, LICHESS.max_volatility, LICHESS.max_change,
            LICHESS.periods_a_day) == (0.75, 45.0, 500.0, 0.1, 700.0, 0.21436)


@pytest.mark.parametrize("bad", [
    dict(rating=math.nan), dict(rating=math.inf), dict(rd=0.0), dict(rd=-5.0), dict(volatility=0.0),
    dict(games=-1), dict(last_rated_at=datetime(2026, 11, 22)),
])
def test_a_rating_that_cannot_be_is_refused(bad) -> None:
    fields = dict(rating=1500.0, rd=100.0, volatility=0.06) | bad
    with pytest.raises(ValueError):
        Rating(**fields)


@pytest.mark.parametrize("score", [-0.5, 1.5, math.nan])
def test_a_score_outside_0_to_1_is_refused(score) -> None:
    with pytest.raises(ValueError):
        Result(NEW, score)


# ---- one finished match -----------------------------------------------------------------

def test_a_draw_between_equals_moves_neither_rating() -> None:
    for player in (NEW, Rating(1843.0, 72.0, 0.058, 40, WHEN - timedelta(days=3))):
        white, black = rate_match(player, player, 0.5, WHEN)
        assert white.rating == player.rating and black.rating == player.rating
        assert white == black  # the same in every field
        assert white.rd < as_of(player, WHEN).rd or white.rd == LICHESS.min_rd


def test_a_win_between_equals_moves_both_by_the_same_points() -> None:
    white, black = rate_match(NEW, NEW, 1.0, WHEN)
    assert white.rating - 1500.0 == pytest.approx(1500.0 - black.rating)
    assert white.rd == black.rd


def test_rate_match_is_the_same_whichever_side_is_white() -> None:
    a, b = Rating(1720.0, 80.0, 0.06, 12, WHEN - timedelta(days=9)), Rating(1540.0, 230.0, 0.07, 3, None)
    a_white, b_black = rate_match(a, b, 0.0, WHEN)
    b_white, a_black = rate_match(b, a, 1.0, WHEN)
    assert (a_white, b_black) == (a_black, b_white)


def test_rate_match_counts_the_match_and_stamps_its_end() -> None:
    white, black = rate_match(NEW, NEW, 0.0, WHEN)
    assert white.games == black.games == 1
    assert white.last_rated_at == black.last_rated_at == WHEN
    assert white.rating < 1500.0 < black.rating

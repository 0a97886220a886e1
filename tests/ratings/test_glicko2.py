"""Glicko-2 against Glickman's worked example and against hand-computed single
matches with lichess's parameters (tau 0.75, a new player 1500/500/0.09)."""

from __future__ import annotations

import math

import pytest

from app.ratings import LICHESS, NEW, Policy, Rating, Result, rate
from app.ratings.glicko2 import EPSILON, SCALE, Game, estimates, new_volatility, period, weight

from .reference import reference

# ---- the paper's example -------------------------------------------------------
# A player 1500/200/0.06 meets 1400/30 (wins), 1550/100 (loses), 1700/300
# (loses) in one period, tau 0.5. The paper prints its steps rounded to four
# places and carries the rounded figures on: mu' = -0.2069, phi' = 0.8722,
# sigma' = 0.05999, hence r' = 1500 - 0.2069 * 173.7178 = 1464.06 and
# RD' = 0.8722 * 173.7178 = 151.52. Unrounded throughout, r' is 1464.0507: the
# tolerances below are the paper's rounding, no looser.

PLAYER = (1500.0, 200.0, 0.06)
OPPONENTS = [(1400.0, 30.0, 1.0), (1550.0, 100.0, 0.0), (1700.0, 300.0, 0.0)]
PAPER = Policy(tau=0.5)


def _games() -> list[Game]:
    return [Game((r - 1500) / SCALE, rd / SCALE, s) for r, rd, s in OPPONENTS]


def test_the_papers_step_2_converts_to_the_glicko2_scale() -> None:
    # The paper's mu_j and phi_j: -0.5756/0.1727, 0.2878/0.5756, 1.1513/1.7269.
    got = [(round(g.mu, 4), round(g.phi, 4)) for g in _games()]
    assert got == [(-0.5756, 0.1727), (0.2878, 0.5756), (1.1513, 1.7269)]


def test_the_papers_steps_3_and_4_estimates() -> None:
    # g(phi_j): 0.9955, 0.9531, 0.7242; v = 1.7785 and delta = -0.4834 in the
    # paper, from its rounded E's; unrounded they are 1.77898 and -0.48393.
    assert [round(weight(g.phi), 4) for g in _games()] == [0.9955, 0.9531, 0.7242]
    v, delta = estimates(0.0, _games())
    assert v == pytest.approx(1.7785, abs=0.001)
    assert delta == pytest.approx(-0.4834, abs=0.001)


def test_the_papers_step_5_volatility() -> None:
    v, delta = estimates(0.0, _games())
    sigma = new_volatility(0.06, 200 / SCALE, v, delta, tau=0.5)
    assert sigma == pytest.approx(0.05999, abs=0.00001)


def test_the_papers_example_on_the_glicko2_scale() -> None:
    mu, phi, sigma = period(0.0, 200 / SCALE, 0.06, _games(), tau=0.5)
    assert mu == pytest.approx(-0.2069, abs=0.0001)
    assert phi == pytest.approx(0.8722, abs=0.0001)
    assert sigma == pytest.approx(0.05999, abs=0.00001)


def test_the_papers_example_as_ratings() -> None:
    after = rate(Rating(*PLAYER), [Result(Rating(r, rd, 0.06), s) for r, rd, s in OPPONENTS], PAPER)
    assert after.rating == pytest.approx(1464.06, abs=0.02)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)
    assert after.games == 3
    # And to the second implementation's full precision.
    r, rd, sigma = reference(*PLAYER, OPPONENTS, tau=0.5)
    assert (after.rating, after.rd) == pytest.approx((r, rd), abs=1e-6)
    assert after.volatility == pytest.approx(sigma, abs=1e-8)


def test_tau_is_a_parameter_that_matters() -> None:
    # The same period with a larger surprise: tau decides how far the volatility moves.
    games = [Game(2.0, 0.3, 1.0)]
    loose = period(0.0, 1.0, 0.06, games, tau=1.2)[2]
    tight = period(0.0, 1.0, 0.06, games, tau=0.3)[2]
    assert loose > tight > 0.06


def test_the_volatility_converges_within_the_papers_tolerance() -> None:
    # sigma = exp(x / 2) with x found to EPSILON: sigma is right to about sigma * EPSILON.
    v, delta = estimates(0.0, _games())
    exact = reference(*PLAYER, OPPONENTS, tau=0.5)[2]
    assert abs(new_volatility(0.06, 200 / SCALE, v, delta, 0.5) - exact) <= 0.06 * EPSILON


# ---- single matches with lichess's parameters ------------------------------------
# Worked by hand, for a new player beating a new player (1500/500/0.09 each):
#   phi = 500 / 173.7178 = 2.87823, phi^2 = 8.28422
#   g = 1 / sqrt(1 + 3 * 8.28422 / pi^2) = 1 / sqrt(3.51810) = 0.533146
#   E = 0.5 (equal strengths)
#   v = 1 / (g^2 * 0.25) = 1 / 0.0710611 = 14.0724
#   delta = v * g * (1 - 0.5) = 3.75132; delta^2 = 14.0724 < phi^2 + v = 22.3566,
#   so the volatility barely moves: to 0.0899983 (the root of the paper's f,
#   found here by the reference's bisection, not by hand)
#   phi* = sqrt(8.28422 + 0.0899983^2) = 2.87964, phi*^2 = 8.29231
#   phi' = 1 / sqrt(1 / 8.29231 + 1 / 14.0724) = 1 / sqrt(0.191655) = 2.28423
#   mu' = 0 + phi'^2 * g * 0.5 = 5.21772 * 0.266573 = 1.39090
#   rating' = 1500 + 1.39090 * 173.7178 = 1741.62;  RD' = 2.28423 * 173.7178 = 396.81
# The loser mirrors it: 1258.38, RD the same.

CASES = [
    # (player, opponent (rating, RD), score, expected (rating, RD, volatility))
    ((1500.0, 500.0, 0.09), (1500.0, 500.0), 1.0, (1741.62, 396.81, 0.089998)),
    ((1500.0, 500.0, 0.09), (1500.0, 500.0), 0.0, (1258.38, 396.81, 0.089998)),
    ((1500.0, 500.0, 0.09), (1500.0, 500.0), 0.5, (1500.00, 396.81, 0.089995)),
    ((1700.0, 60.0, 0.06), (1500.0, 80.0), 0.0, (1684.74, 60.26, 0.060010)),
    ((1500.0, 150.0, 0.06), (1800.0, 50.0), 0.5, None),  # reference only
    ((2100.0, 110.0, 0.05), (1300.0, 300.0), 1.0, None),
]


@pytest.mark.parametrize(("player", "opponent", "score", "expected"), CASES)
def test_single_matches_agree_with_the_hand_and_the_reference(player, opponent, score, expected) -> None:
    after = rate(Rating(*player), [Result(Rating(*opponent, 0.06), score)], LICHESS)
    r, rd, sigma = reference(*player, [(*opponent, score)], tau=LICHESS.tau)
    assert (after.rating, after.rd) == pytest.approx((r, rd), abs=1e-6)
    assert after.volatility == pytest.approx(sigma, abs=1e-8)
    if expected is not None:
        assert after.rating == pytest.approx(expected[0], abs=0.005)
        assert after.rd == pytest.approx(expected[1], abs=0.005)
        assert after.volatility == pytest.approx(expected[2], abs=0.0000005)


def test_a_new_players_first_win_by_hand() -> None:
    after = rate(NEW, [Result(NEW, 1.0)])
    assert round(after.rating, 2) == 1741.62 and round(after.rd, 2) == 396.81
    assert after.games == 1 and after.shown() == "1742?"


def test_a_period_without_games_only_widens_the_rd() -> None:
    mu, phi, sigma = period(0.5, 1.0, 0.06, [], tau=0.75)
    assert (mu, sigma) == (0.5, 0.06)
    assert phi == pytest.approx(math.sqrt(1.0 + 0.06 ** 2))


def test_results_so_far_apart_they_tell_nothing_do_not_break_the_maths() -> None:
    # 130,000 points apart on the Glicko-2 scale: E is 1 to the float's precision.
    mu, phi, sigma = period(0.0, 1.0, 0.06, [Game(-750.0, 0.3, 1.0)], tau=0.75)
    assert (mu, sigma) == (0.0, 0.06) and math.isfinite(phi)

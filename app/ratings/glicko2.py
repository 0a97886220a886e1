"""One rating period of Glicko-2 on its own scale, step by step as Mark
Glickman sets it out in "Example of the Glicko-2 system" (glicko.net).

A player is (mu, phi, sigma): strength, the uncertainty of that strength,
and how erratic the player's results are. Nothing here clamps or rounds:
the site's limits are policy.py's, so this module can be checked against the
paper's worked example exactly.

    >>> mu, phi, sigma = period(0.0, 1.1513, 0.06,
    ...     [Game(-0.5756, 0.1727, 1.0), Game(0.2878, 0.5756, 0.0), Game(1.1513, 1.7269, 0.0)], tau=0.5)
    >>> round(mu, 4), round(phi, 4), round(sigma, 6)
    (-0.2069, 0.8722, 0.059996)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178  # rating points per unit of the Glicko-2 scale (the paper's constant)
CENTRE = 1500.0  # the rating that is 0 on the Glicko-2 scale
EPSILON = 0.000001  # the paper's tolerance for the volatility's root
# The Illinois steps converge in well under twenty; a bound keeps a
# pathological input from looping for ever. The root stays bracketed
# throughout, so stopping early still answers a value inside the bracket.
MAX_STEPS = 200


@dataclass(frozen=True, slots=True)
class Game:
    """One result of the period, against an opponent on the Glicko-2 scale."""

    mu: float  # the opponent's strength
    phi: float  # the opponent's uncertainty
    score: float  # 1 a win, 0.5 a draw, 0 a loss


def weight(phi: float) -> float:
    """The paper's g(phi): how much a result against an opponent this uncertain tells."""
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _logistic(z: float) -> float:
    # Written both ways so that no exponent can overflow, however far apart
    # the two strengths are.
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


def expected(mu: float, game: Game) -> float:
    """The paper's E: the score a player of strength `mu` is expected to make in `game`."""
    return _logistic(weight(game.phi) * (mu - game.mu))


def estimates(mu: float, games: Sequence[Game]) -> tuple[float, float]:
    """The paper's v (the variance of the strength estimated from the results
    alone) and delta (the improvement those results suggest).

    v is infinite when the results tell nothing (opponents so far away that a
    result was certain, to the float's precision)."""
    information = 0.0
    surprise = 0.0  # the sum of g * (score - E)
    for game in games:
        g = weight(game.phi)
        z = g * (mu - game.mu)
        # E * (1 - E) from both tails, so that it never rounds to 0 before it must.
        information += g * g * _logistic(z) * _logistic(-z)
        surprise += g * (game.score - _logistic(z))
    if information == 0.0:
        return math.inf, 0.0
    v = 1.0 / information
    return v, v * surprise


def new_volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the volatility after the period, the root of the paper's f
    found by the Illinois variant of regula falsi, to EPSILON."""
    a = math.log(sigma * sigma)
    phi2, delta2, tau2 = phi * phi, delta * delta, tau * tau

    def f(x: float) -> float:
        ex = math.exp(x)
        spread = phi2 + v + ex
        return ex * (delta2 - phi2 - v - ex) / (2.0 * spread * spread) - (x - a) / tau2

    # The bracket: f(low) > 0 >= f(high) with low = a, as the paper opens it.
    low = a
    if delta2 > phi2 + v:
        high = math.log(delta2 - phi2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        high = a - k * tau
    f_low, f_high = f(low), f(high)
    for _ in range(MAX_STEPS):
        if abs(high - low) <= EPSILON or f_high == f_low:
            break
        guess = low + (low - high) * f_low / (f_high - f_low)
        f_guess = f(guess)
        # "<= 0", not "< 0": when the guess lands on the root exactly (f = 0)
        # the old end must still move, or the bracket would never close.
        if f_guess * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2.0  # Illinois: halve the stale end's value so it gets replaced
        high, f_high = guess, f_guess
    return math.exp(low / 2.0)


def period(mu: float, phi: float, sigma: float, games: Sequence[Game], tau: float) -> tuple[float, float, float]:
    """(mu, phi, sigma) after one rating period with `games` in it.

    A period without a game that tells anything only lets the uncertainty grow
    by one period's volatility (the paper's rule for a player who did not play).
    """
    v, delta = estimates(mu, games) if games else (math.inf, 0.0)
    if math.isinf(v):
        return mu, math.sqrt(phi * phi + sigma * sigma), sigma
    sigma_after = new_volatility(sigma, phi, v, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma_after * sigma_after)  # step 6
    phi_after = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)  # step 7
    mu_after = mu + phi_after * phi_after * delta / v  # delta / v: the sum of g * (score - E)
    return mu_after, phi_after, sigma_after

"""A second Glicko-2, written as plainly as the paper reads and independent of
app/ratings: the tests hold the package to it. Formulas in one piece each, and
the volatility found by plain bisection over a wide bracket, not by the
package's Illinois steps, so a slip in either shows as a disagreement."""

from __future__ import annotations

import math

SCALE = 173.7178


def reference(rating: float, rd: float, volatility: float,
              games: list[tuple[float, float, float]], tau: float) -> tuple[float, float, float]:
    """(rating, RD, volatility) after one period of `games`, each (opponent's
    rating, opponent's RD, score), with no limits applied."""
    mu, phi = (rating - 1500) / SCALE, rd / SCALE
    opponents = [((r - 1500) / SCALE, d / SCALE, s) for r, d, s in games]

    def g(p: float) -> float:
        return 1 / math.sqrt(1 + 3 * p ** 2 / math.pi ** 2)

    def e(mu_j: float, phi_j: float) -> float:
        return 1 / (1 + math.exp(-g(phi_j) * (mu - mu_j)))

    v = 1 / sum(g(p) ** 2 * e(m, p) * (1 - e(m, p)) for m, p, _ in opponents)
    total = sum(g(p) * (s - e(m, p)) for m, p, s in opponents)
    delta = v * total
    a = math.log(volatility ** 2)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta ** 2 - phi ** 2 - v - ex) / (2 * (phi ** 2 + v + ex) ** 2) - (x - a) / tau ** 2

    low, high = -60.0, 60.0  # f falls through zero once between these
    for _ in range(200):
        middle = (low + high) / 2
        if f(middle) > 0:
            low = middle
        else:
            high = middle
    sigma = math.exp(low / 2)
    phi_star = math.sqrt(phi ** 2 + sigma ** 2)
    phi_new = 1 / math.sqrt(1 / phi_star ** 2 + 1 / v)
    mu_new = mu + phi_new ** 2 * total
    return mu_new * SCALE + 1500, phi_new * SCALE, sigma

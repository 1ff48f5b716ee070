"""Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2013): one rating period.

Pure arithmetic on floats, no I/O: the server calls ``update`` once per rated game for
each player (a rating period of one game, as lichess does). The steps are numbered as in
the paper; the volatility is found with the Illinois algorithm of step 5.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178  # Glicko ↔ Glicko-2 scale
TAU = 0.5  # constrains the change of volatility over time (the paper's example value)
EPSILON = 0.000001
START_RATING = 1500.0
START_RD = 350.0
START_VOLATILITY = 0.06


@dataclass(frozen=True)
class Rating:
    rating: float = START_RATING
    rd: float = START_RD
    volatility: float = START_VOLATILITY


@dataclass(frozen=True)
class Result:
    opponent: Rating
    score: float  # 1 win, 0.5 draw, 0 loss


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def update(player: Rating, results: Sequence[Result], tau: float = TAU) -> Rating:
    """The player's rating after one rating period with these results."""
    # Step 2: to the Glicko-2 scale.
    mu = (player.rating - START_RATING) / SCALE
    phi = player.rd / SCALE
    sigma = player.volatility
    if not results:  # Step 6 only: the deviation grows with time
        return Rating(player.rating, math.sqrt(phi * phi + sigma * sigma) * SCALE, sigma)
    # Steps 3 and 4: estimated variance and improvement.
    v_inv = 0.0
    delta_sum = 0.0
    for result in results:
        mu_j = (result.opponent.rating - START_RATING) / SCALE
        phi_j = result.opponent.rd / SCALE
        expected = _e(mu, mu_j, phi_j)
        g = _g(phi_j)
        v_inv += g * g * expected * (1 - expected)
        delta_sum += g * (result.score - expected)
    v = 1 / v_inv
    delta = v * delta_sum
    # Step 5: the new volatility (Illinois algorithm).
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (
            2 * (phi * phi + v + ex) ** 2
        ) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    new_sigma = math.exp(big_a / 2)
    # Steps 6 and 7: new deviation and rating.
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    new_mu = mu + new_phi * new_phi * delta_sum
    # Step 8: back to the Glicko scale.
    return Rating(new_mu * SCALE + START_RATING, new_phi * SCALE, new_sigma)

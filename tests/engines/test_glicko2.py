"""Glicko-2 reproduces the worked example of Glickman's paper exactly."""

from __future__ import annotations

import math

from engines.core.glicko2 import SCALE, Rating, Result, update


def test_the_paper_example() -> None:
    """The paper works on values rounded to four decimals (mu' = -0.2069, phi' = 0.8722;
    sigma' = 0.05999 is cut at five) and converts those: 1464.06 and 151.52. Unrounded,
    the rating is 1464.0507; its Glicko-2 values round to the paper's, and converting
    the paper's rounded mu' gives the paper's 1464.06 exactly."""
    player = Rating(1500, 200, 0.06)
    results = [
        Result(Rating(1400, 30), 1),
        Result(Rating(1550, 100), 0),
        Result(Rating(1700, 300), 0),
    ]
    after = update(player, results, tau=0.5)
    mu, phi = (after.rating - 1500) / SCALE, after.rd / SCALE
    assert (round(mu, 4), round(phi, 4)) == (-0.2069, 0.8722)
    assert f"{after.volatility:.6f}" == "0.059996"  # the paper writes 0.05999
    assert math.floor(after.volatility * 1e5) / 1e5 == 0.05999
    assert round(SCALE * round(mu, 4) + 1500, 2) == 1464.06
    assert abs(after.rating - 1464.06) < 0.01
    assert round(after.rd, 2) == 151.52


def test_a_win_against_an_equal_raises_a_new_player_and_no_games_widen_the_deviation() -> None:
    new = Rating()
    won = update(new, [Result(Rating(), 1)])
    lost = update(new, [Result(Rating(), 0)])
    assert won.rating > 1500 > lost.rating
    assert round(won.rating - 1500, 6) == round(1500 - lost.rating, 6)
    assert won.rd < 350
    idle = update(Rating(1500, 50, 0.06), [])
    assert idle.rating == 1500 and idle.rd > 50

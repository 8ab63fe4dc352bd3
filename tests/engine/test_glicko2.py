"""Glicko-2 against the worked example of Glickman's paper ("Example of the Glicko-2 system")."""

from __future__ import annotations

import pytest

from skatschule.engine.glicko2 import Rating, Result, play, update


def test_the_papers_example() -> None:
    # a player rated 1500 (RD 200, sigma 0.06) plays three games, tau 0.5
    player = Rating(1500, 200, 0.06)
    results = [
        Result(Rating(1400, 30), 1.0),
        Result(Rating(1550, 100), 0.0),
        Result(Rating(1700, 300), 0.0),
    ]
    new = update(player, results, tau=0.5)
    # the paper: r' = 1464.06, RD' = 151.52, sigma' = 0.05999
    assert new.rating == pytest.approx(1464.06, abs=0.01)
    assert new.deviation == pytest.approx(151.52, abs=0.01)
    assert new.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_period_without_games_only_widens_the_deviation() -> None:
    player = Rating(1700, 100, 0.06)
    new = update(player, [])
    assert new.rating == 1700
    assert new.deviation > 100


def test_an_attempt_moves_both_sides() -> None:
    learner = Rating()
    puzzle = Rating(1600, 80)
    up, harder = play(learner, puzzle, solved=True)
    assert up.rating > learner.rating and harder.rating < puzzle.rating
    down, easier = play(learner, puzzle, solved=False)
    assert down.rating < learner.rating and easier.rating > puzzle.rating
    # the settled puzzle moves less than the new learner
    assert abs(harder.rating - puzzle.rating) < abs(up.rating - learner.rating)


def test_the_deviation_keeps_its_floor() -> None:
    learner = Rating(1500, 46)
    for _ in range(50):
        learner, _ = play(learner, Rating(1500, 46), solved=True)
    assert learner.deviation >= 45

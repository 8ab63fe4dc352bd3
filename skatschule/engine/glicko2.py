"""Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2 system", 2013).

Every attempt at a puzzle is one game between the learner and the puzzle: the learner
scores 1 when right, 0 when wrong, and the puzzle the other way round. Both ratings move,
as on lichess. A :class:`Rating` is an immutable value on the Glicko scale (1500 / 350);
:func:`update` computes a player's new rating after one rating period from the games of
that period, step by step as the paper lays it out (steps 1-8). ``tests/engine/test_glicko2``
checks it against the paper's worked example.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Rating", "Result", "update", "play", "SCALE", "TAU", "DEFAULT", "PUZZLE_DEVIATION"]

SCALE = 173.7178
"""Converts between the Glicko scale and the Glicko-2 scale (the paper's 173.7178)."""
TAU = 0.5
"""The system constant: how much the volatility may change (the paper suggests 0.3 to 1.2)."""
_EPSILON = 0.000001
"""Convergence tolerance of the volatility iteration (step 5)."""
MIN_DEVIATION = 45.0
"""A rating deviation never falls below this (lichess keeps a floor, so ratings stay lively)."""
MAX_DEVIATION = 350.0
PUZZLE_DEVIATION = 120.0
"""A new puzzle's deviation. Its rating is the engine's estimate of its difficulty, not an unknown
(a new learner's 350): one attempt moves it by some 30 points, not by 180, and it settles with plays."""


@dataclass(frozen=True, slots=True)
class Rating:
    """A rating on the Glicko scale: ``rating`` (r), ``deviation`` (RD) and ``volatility`` (sigma)."""

    rating: float = 1500.0
    deviation: float = 350.0
    volatility: float = 0.06

    @property
    def mu(self) -> float:
        return (self.rating - 1500.0) / SCALE

    @property
    def phi(self) -> float:
        return self.deviation / SCALE

    def rounded(self) -> int:
        return round(self.rating)


DEFAULT = Rating()


@dataclass(frozen=True, slots=True)
class Result:
    """One game of the period: the opponent's rating and the score (1 win, 0.5 draw, 0 loss)."""

    opponent: Rating
    score: float


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _volatility(phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    """Step 5: the new volatility by the Illinois algorithm, as the paper gives it."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a = f(big_a)
    f_b = f(big_b)
    while abs(big_b - big_a) > _EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a = f_a / 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def update(
    player: Rating, results: Sequence[Result], *, tau: float = TAU, floor: float = 0.0, ceiling: float = MAX_DEVIATION
) -> Rating:
    """The player's rating after one rating period with ``results`` (steps 1-8 of the paper).

    Without games only the deviation grows (step 6). ``floor`` and ``ceiling`` bound the new
    deviation (the paper has neither: 0 and 350 leave its example untouched).
    """
    mu = player.mu
    phi = player.phi
    sigma = player.volatility
    if not results:
        new_phi = math.sqrt(phi * phi + sigma * sigma)
        return Rating(player.rating, min(max(new_phi * SCALE, floor), ceiling), sigma)
    inv_v = 0.0
    delta_sum = 0.0
    for result in results:
        mu_j = result.opponent.mu
        phi_j = result.opponent.phi
        e = _expected(mu, mu_j, phi_j)
        g = _g(phi_j)
        inv_v += g * g * e * (1.0 - e)
        delta_sum += g * (result.score - e)
    v = 1.0 / inv_v
    delta = v * delta_sum
    new_sigma = _volatility(phi, sigma, delta, v, tau)
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * delta_sum
    deviation = min(max(new_phi * SCALE, floor), ceiling)
    return Rating(new_mu * SCALE + 1500.0, deviation, new_sigma)


def play(learner: Rating, puzzle: Rating, solved: bool) -> tuple[Rating, Rating]:
    """One attempt as one game (one rating period each side): the new learner and puzzle ratings."""
    score = 1.0 if solved else 0.0
    new_learner = update(learner, [Result(puzzle, score)], floor=MIN_DEVIATION)
    new_puzzle = update(puzzle, [Result(learner, 1.0 - score)], floor=MIN_DEVIATION)
    return new_learner, new_puzzle

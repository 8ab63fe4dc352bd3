"""Issue 33, L6: a fixed number typed into "Reizen, wie hoch?" is right about as often as chance.

The level's plausible answers are the different right numbers it asks over many seeds (``k``);
no single number may be the right one in more than ``SPREAD / k`` of them. The generator used to
draw the game first: at level 1 a fixed 22 was right in 13 % against 1/11, at level 2 36 in 11 %
against 1/21. (tests/training/test_guessing.py allows ten points above chance for every type.)
Plain pytest, no database; the answers come from the engine (``correct_answer``).
"""

from __future__ import annotations

from collections import Counter

import pytest

from skatschule.exercises import REGISTRY

SEEDS = 3000
SPREAD = 1.3


@pytest.mark.parametrize("level", [1, 2, 3])
def test_no_fixed_bid_is_right_much_more_often_than_chance(level: int) -> None:
    exercise = REGISTRY["reizen_hoehe"]
    answers = Counter(tuple(exercise.correct_answer(exercise.generate(level, seed))) for seed in range(SEEDS))
    k = len(answers)
    answer, hits = answers.most_common(1)[0]
    assert k >= 10
    assert hits / SEEDS <= SPREAD / k, f"{answer} is right in {hits / SEEDS:.1%} of level {level}, chance is 1/{k}"

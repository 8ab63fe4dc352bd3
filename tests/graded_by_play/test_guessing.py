"""The Drücken exercise reveals nothing by its layout: no fixed pair of places in the shown hand
is among the best discards much more often than chance, and the hands of a level vary.

The cards are shown sorted as before a declaration (no game), the games always in the same order;
a level names its theme openly (level 2: Grand hands), so only the places are a guess to check.
Graded with few deals (quick), which is noisy but does not favour any place.
"""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from skatschule.engine import GameType
from skatschule.graded_by_play.work import TYPE

SEEDS = range(16)


@pytest.fixture(autouse=True)
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(TYPE, "deals", 12)
    monkeypatch.setattr(TYPE, "screen", 4)


@pytest.mark.django_db
@pytest.mark.parametrize("level", [1, 2, 3])
def test_no_fixed_places_find_the_best_discard(level: int) -> None:
    hits: Counter[tuple[int, int]] = Counter()
    chance = 0.0
    for seed in SEEDS:
        question = TYPE.generate(level, seed)
        best_game = GameType(TYPE.correct_answer(question)[2])
        grading = TYPE.grading(question, best_game).chosen
        top = grading.grades[2].total
        good = {frozenset(c.code for c in g.cards) for g in grading.grades if g.total >= top}
        chance += len(good) / 66
        codes = list(question.cards)
        for i, j in itertools.combinations(range(12), 2):
            hits[(i, j)] += frozenset((codes[i], codes[j])) in good
    places, most = hits.most_common(1)[0]
    rate = most / len(SEEDS)
    # 66 pairs of places are tried at once: the best of them may beat chance by luck, not by a third
    assert rate <= chance / len(SEEDS) + 1 / 3, f"level {level}: places {places} right in {most}/{len(SEEDS)}"


@pytest.mark.parametrize("level", [1, 2, 3])
def test_every_level_deals_many_different_hands(level: int) -> None:
    hands = {TYPE.generate(level, seed).cards for seed in range(200)}
    assert len(hands) == 200

"""Reizen, am Spiel gemessen, cannot be guessed: no fixed answer is right much more often than
chance, and the hands of a level vary.

The generic guessing test (tests/training/test_guessing.py) asks the types graded by a job but
cannot grade them (seconds each); this one grades with few deals (noisy, but the noise favours no
answer). A fixed answer (always "passen", always 18, always 48 ...) is right where the graded bid
is that answer or the step above it; with ``k`` different graded bids on a level, chance for a
fixed answer is ``2 / k``. Sixty hands per level are a small sample, so the margin is 15 points.
"""

from __future__ import annotations

from collections import Counter

import pytest

from skatschule.engine.bidplay import LADDER
from skatschule.exercises.reizen_gespielt import PASS
from skatschule.graded_by_play.work import BID_TYPE

SEEDS = range(60)
MARGIN = 0.15


@pytest.fixture(autouse=True)
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(BID_TYPE, "deals", 16)


@pytest.mark.django_db
@pytest.mark.parametrize("level", [1, 2, 3])
def test_no_fixed_bid_beats_chance(level: int) -> None:
    graded: Counter[int] = Counter()
    questions = []
    for seed in SEEDS:
        question = BID_TYPE.generate(level, seed)
        answer = BID_TYPE.correct_answer(question)[0]
        graded[0 if answer == PASS else int(answer)] += 1
        questions.append(question)
    k = len(graded)
    assert k >= 6, f"level {level}: only {k} different graded bids"
    right: Counter[int] = Counter()
    for bid, count in graded.items():
        step = LADDER.index(bid)
        right[bid] += count
        if step:
            right[LADDER[step - 1]] += count
    bid, hits = right.most_common(1)[0]
    assert hits / len(SEEDS) <= 2 / k + MARGIN, f"level {level}: always {bid or PASS} is right in {hits}/{len(SEEDS)}"
    # the tally is the grader's: the most successful fixed answer is right exactly that often
    answer = str(bid) if bid else PASS
    assert sum(BID_TYPE.grade(q, [answer]).correct for q in questions) == hits


@pytest.mark.parametrize("level", [1, 2, 3])
def test_every_level_deals_many_different_hands_in_every_seat(level: int) -> None:
    questions = [BID_TYPE.generate(level, seed) for seed in range(200)]
    assert len({q.cards for q in questions}) == 200
    seats = Counter(q.prompt.de.split(" und ")[0] for q in questions)
    assert len(seats) == 3 and min(seats.values()) > 40

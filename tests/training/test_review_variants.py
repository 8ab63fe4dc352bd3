"""The review queue brings a missed exercise back as a fresh variant, not as the same question.

"DA + SK = 15" can simply be remembered: a review asks the same type, level and rule with
another seed. Real exercise types, graded by the engine.
"""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from skatschule.exercises import REGISTRY
from skatschule.owners import Owner
from skatschule.training.models import IssuedExercise, ReviewItem
from skatschule.training.services import variants
from skatschule.training.services.issuing import issue, question_for, submit


def _wrong(kind: str, issued: IssuedExercise) -> list[str]:
    question = question_for(issued)
    exercise = REGISTRY[kind]
    right = exercise.correct_answer(question)
    if question.widget == "number":
        return [str(int(right[0]) + 1)]
    return [next(o.value for o in question.options if o.value != right[0])] + right[1:]


@pytest.mark.parametrize(
    "kind,level", [("augen", 1), ("regelverstoss", 1), ("regelverstoss", 3), ("spitzen", 2), ("stich", 2), ("fall", 2)]
)
def test_variant_is_another_question_of_the_same_type_level_and_rules(kind: str, level: int) -> None:
    exercise = REGISTRY[kind]
    rng = random.Random(7)
    for seed in (3, 1234, 98765):
        new = variants.variant_seed(kind=kind, difficulty=level, seed=seed, rng=rng)
        old_q, new_q = exercise.generate(level, seed), exercise.generate(level, new)
        assert new != seed
        assert (new_q.kind, new_q.difficulty) == (kind, level)
        assert (new_q.prompt.de, new_q.facts, new_q.cards, new_q.trick) != (
            old_q.prompt.de,
            old_q.facts,
            old_q.cards,
            old_q.trick,
        )
        if kind == "fall":  # the casebook: another case citing a rule of the missed one
            assert set(new_q.rule_ids) & set(old_q.rule_ids)
        else:
            assert set(new_q.rule_ids) == set(old_q.rule_ids)
        assert exercise.grade(new_q, exercise.correct_answer(new_q)).correct


@pytest.mark.django_db
def test_missed_exercise_comes_back_as_a_fresh_variant_that_reviews_its_card(owner: Owner) -> None:
    issued = issue(kind="regelverstoss", difficulty=2, owner=owner)
    submitted = submit(issued=issued, owner=owner, values=_wrong("regelverstoss", issued))
    attempt, feedback = submitted.attempt, submitted.feedback
    assert not feedback.correct
    item = ReviewItem.objects.get()
    assert item.seed == attempt.seed
    ReviewItem.objects.update(due=timezone.now() - timedelta(seconds=1))
    item.refresh_from_db()

    variant = variants.issued_for_review(owner=owner, item=item)
    assert variant.seed != item.seed and variant.review_item == item
    assert (variant.kind, variant.difficulty) == (item.kind, item.difficulty)
    missed, fresh = question_for(issued), question_for(variant)
    assert fresh.facts != missed.facts
    assert set(fresh.rule_ids) == set(missed.rule_ids)

    right = REGISTRY["regelverstoss"].correct_answer(fresh)
    before = dict(item.card)
    submit(issued=variant, owner=owner, values=right)
    item.refresh_from_db()
    assert item.reviews == 1 and item.card != before
    assert ReviewItem.objects.count() == 1  # the variant does not open a card of its own

    ReviewItem.objects.update(due=timezone.now() - timedelta(seconds=1))
    item.refresh_from_db()
    again = variants.issued_for_review(owner=owner, item=item)
    assert again.seed not in (item.seed, variant.seed)

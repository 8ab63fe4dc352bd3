"""Fresh variants for spaced repetition: what the review page shows for a due card.

The review page never shows the missed question again (its answer could simply be
remembered): it issues a new seed of the same type and level whose question cites the same
rules (:func:`variant_seed`), linked to the card (``IssuedExercise.review_item``). The cards
themselves are kept by :mod:`.review`; issuing comes from :mod:`.issuing`.
"""

from __future__ import annotations

import random
import secrets

from django.db import transaction

from skatschule.exercises.base import Question
from skatschule.owners import Owner

from ..models import IssuedExercise, ReviewItem
from .issuing import SEED_LIMIT, check_difficulty, exercise_type, issue

__all__ = ["issued_for_review", "variant_seed", "VARIANT_TRIES"]

VARIANT_TRIES = 40
"""Seeds tried for a fresh variant with exactly the same rules before settling for shared ones."""


def _content(question: Question) -> tuple[object, ...]:
    """What the learner reads of a question (not its seed, not the order of its options)."""
    return (
        question.prompt.de,
        question.facts,
        question.cards,
        question.trick,
        question.skat,
        frozenset(o.value for o in question.options),
    )


def variant_seed(*, kind: str, difficulty: int, seed: int, rng: random.Random | None = None) -> int:
    """A new seed for the exercise ``(kind, difficulty, seed)``: same type and level, another question.

    Preferred is a question citing exactly the same rules (``Question.rule_ids``); after
    :data:`VARIANT_TRIES` seeds one sharing a rule will do, and failing that any other
    question of the type and level. The seed is never the old one, and the question never
    reads the same as the old one when another can be found.
    """
    draw = rng or random.Random(secrets.randbits(64))
    exercise = exercise_type(kind=kind)
    old = exercise.generate(difficulty, seed)
    rules = set(old.rule_ids)
    shared: int | None = None
    other: int | None = None
    for tries in range(3 * VARIANT_TRIES):
        candidate = draw.randrange(SEED_LIMIT)
        if candidate == seed:
            continue
        question = exercise.generate(difficulty, candidate)
        if _content(question) == _content(old):
            continue
        if set(question.rule_ids) == rules:
            return candidate
        if shared is None and rules & set(question.rule_ids):
            shared = candidate
        other = candidate if other is None else other
        if shared is not None and tries >= VARIANT_TRIES:
            break
    if shared is not None:
        return shared
    if other is not None:
        return other
    return (seed + 1) % SEED_LIMIT  # pragma: no cover - a type with a single question


def issued_for_review(*, owner: Owner, item: ReviewItem) -> IssuedExercise:
    """The exercise to show for a review item: an unanswered variant already issued, else a new one.

    A new one is a fresh variant (:func:`variant_seed`), never the missed question itself.
    """
    check_difficulty(
        kind=exercise_type(kind=item.kind), difficulty=item.difficulty
    )  # BadDifficulty for a level that is gone
    existing = (
        IssuedExercise.objects.owned_by(owner)
        .filter(review_item=item, mode=IssuedExercise.Mode.REVIEW, attempt__isnull=True)
        .order_by("-issued_at")
        .first()
    )
    if existing is not None:
        return existing
    seed = variant_seed(kind=item.kind, difficulty=item.difficulty, seed=item.seed)
    with transaction.atomic():
        issued = issue(
            kind=item.kind, difficulty=item.difficulty, owner=owner, seed=seed, mode=IssuedExercise.Mode.REVIEW
        )
        IssuedExercise.objects.filter(pk=issued.pk).update(review_item=item)
    issued.review_item = item
    return issued

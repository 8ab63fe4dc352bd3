"""Spaced repetition with FSRS (the ``fsrs`` package).

A missed exercise ``(kind, difficulty, seed)`` becomes a :class:`ReviewItem` holding an
fsrs card (``Card.to_dict()``) and its due time. The review page never shows the missed
question again (its answer could simply be remembered): it issues a FRESH VARIANT, a new
seed of the same type and level whose question cites the same rules
(:func:`.variants.variant_seed`), linked to the item (``IssuedExercise.review_item``). Answering
that variant, or the original exercise again, reviews the card: ``Rating.Again`` when
wrong, ``Rating.Good`` when right.
"""

from __future__ import annotations

from datetime import UTC, datetime

from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone
from fsrs import Card, Rating, Scheduler

from skatschule.owners import Owner

from ..models import Attempt, ReviewItem

__all__ = [
    "scheduler",
    "record_answer",
    "due_items",
    "due_count",
    "next_due",
    "pending_count",
]

scheduler = Scheduler()


def _rating(correct: bool) -> Rating:
    return Rating.Good if correct else Rating.Again


def record_answer(
    *, owner: Owner, attempt: Attempt, now: datetime | None = None, _retry: bool = False
) -> ReviewItem | None:
    """Create or review the owner's card for the attempt's exercise (call inside the submit transaction).

    - wrong answer, no card yet: a new card reviewed with ``Again`` (due again in minutes);
    - any answer to an exercise that has a card: the card is reviewed (``Again``/``Good``);
    - right answer, no card: nothing to do.
    """
    # fsrs takes UTC only; an aware time in the learner's zone is the same instant
    now = (now or attempt.created_at or timezone.now()).astimezone(UTC)
    item = None
    linked = getattr(attempt.issued, "review_item_id", None) if attempt.issued_id else None
    if linked is not None:  # the fresh variant of a missed exercise reviews that exercise's card
        item = ReviewItem.objects.select_for_update().owned_by(owner).filter(pk=linked).first()
    if item is None:
        item = (
            ReviewItem.objects.select_for_update()
            .owned_by(owner)
            .filter(kind=attempt.kind, difficulty=attempt.difficulty, seed=attempt.seed)
            .first()
        )
    if item is None and attempt.correct:
        return None
    card = Card.from_dict(item.card) if item is not None else Card(due=now)
    card, _log = scheduler.review_card(card, _rating(attempt.correct), review_datetime=now)
    if item is None:
        try:
            with transaction.atomic():
                return ReviewItem.objects.create(
                    **owner.fields(),
                    kind=attempt.kind,
                    difficulty=attempt.difficulty,
                    seed=attempt.seed,
                    card=card.to_dict(),
                    due=card.due,
                    reviews=0,
                    created_at=now,
                    updated_at=now,
                )
        except IntegrityError:
            # A concurrent answer to the same question created the card first: review that one.
            if _retry:
                raise
            return record_answer(owner=owner, attempt=attempt, now=now, _retry=True)
    item.card = card.to_dict()
    item.due = card.due
    item.reviews += 1
    item.updated_at = now
    item.save(update_fields=["card", "due", "reviews", "updated_at"])
    return item


def due_items(*, owner: Owner, now: datetime | None = None) -> QuerySet[ReviewItem]:
    return ReviewItem.objects.owned_by(owner).filter(due__lte=now or timezone.now()).order_by("due", "pk")


def due_count(*, owner: Owner, now: datetime | None = None) -> int:
    return due_items(owner=owner, now=now).count()


def pending_count(*, owner: Owner) -> int:
    """All review items of the owner, due or not."""
    return ReviewItem.objects.owned_by(owner).count()


def next_due(*, owner: Owner, now: datetime | None = None) -> ReviewItem | None:
    return due_items(owner=owner, now=now).first()


def next_scheduled(*, owner: Owner) -> ReviewItem | None:
    return ReviewItem.objects.owned_by(owner).order_by("due", "pk").first()

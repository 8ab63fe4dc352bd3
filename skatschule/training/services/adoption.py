"""Moving an anonymous session's practice to the user who signs up or logs in."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction

from ..models import Attempt, IssuedExercise, ReviewItem

__all__ = ["adopt_session"]


def adopt_session(*, session_key: str, user: User | None) -> dict[str, int]:
    """Move an anonymous session's exercises, attempts and review items to ``user``.

    Idempotent (a second call finds nothing to move). If the user already has a review
    item for the same exercise, the user's item is kept and the session's is dropped.
    Returns how many rows of each kind were moved.
    """
    if not session_key or user is None or user.pk is None:
        return {"issued": 0, "attempts": 0, "reviews": 0}
    with transaction.atomic():
        issued = IssuedExercise.objects.filter(user__isnull=True, session_key=session_key).update(
            user=user, session_key=""
        )
        attempts = Attempt.objects.filter(user__isnull=True, session_key=session_key).update(user=user, session_key="")
        moved = 0
        for item in ReviewItem.objects.select_for_update().filter(user__isnull=True, session_key=session_key):
            clash = ReviewItem.objects.filter(
                user=user, kind=item.kind, difficulty=item.difficulty, seed=item.seed
            ).exists()
            if clash:
                item.delete()
                continue
            ReviewItem.objects.filter(pk=item.pk).update(user=user, session_key="")
            moved += 1
    return {"issued": issued, "attempts": attempts, "reviews": moved}

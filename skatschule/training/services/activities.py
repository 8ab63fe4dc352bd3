"""Recording an activity (:class:`~skatschule.training.lessons.Activity`) as progress.

A lesson's progress is a function of the owner's attempts (:mod:`.progress`). An activity done
on another page (a game finished at the table) enters it the same way as an answer: one
:class:`~..models.IssuedExercise` and its one :class:`~..models.Attempt`, at the step of each
lesson that lists the activity, folded into the progress summary in the same transaction.

- The attempt is right: it is recorded only once the app that runs the activity has checked
  that it was done (the table: a game played to its end, every move checked by the engine).
- Once per activity: ``key`` (the table: the stored game's id) is the issued exercise's seed,
  and a second call with the same owner, kind and key records nothing and returns the first
  attempt. The caller runs it in the transaction that stores the activity itself.
- Activity attempts are not in the progress export: an import grades every answer again with
  the engine, and a finished activity is not a question it could grade.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from skatschule.owners import Owner

from ..lessons import get_activity, get_lessons
from ..models import Attempt, IssuedExercise
from . import progress_summary

__all__ = ["record_activity", "activity_steps"]


def activity_steps(kind: str) -> list[tuple[str, int]]:
    """The lessons (slug) and levels at which ``kind`` is a step."""
    return [(lesson.slug, step.level) for lesson in get_lessons() for step in lesson.steps if step.kind == kind]


def record_activity(owner: Owner, kind: str, *, key: int, now: datetime | None = None) -> Attempt | None:
    """Record one finished ``kind`` (a registered activity) for ``owner``; see the module text.

    Returns the attempt (``created`` False when ``key`` was recorded before), or None when no
    lesson lists the activity.
    """
    if get_activity(kind) is None:
        raise ValueError(f"unknown activity {kind!r}")
    if not 0 <= key < 2**31:
        raise ValueError("the key must fit an exercise seed")
    steps = activity_steps(kind)
    if not steps:
        return None
    slug, level = steps[0]
    now = now or timezone.now()
    with transaction.atomic():
        previous = Attempt.objects.owned_by(owner).filter(kind=kind, seed=key).first()
        if previous is not None:
            previous.created = False
            return previous
        issued = IssuedExercise.objects.create(
            **owner.fields(),
            kind=kind,
            difficulty=level,
            seed=key,
            lesson=slug,
            mode=IssuedExercise.Mode.LESSON,
            issued_at=now,
        )
        attempt = Attempt.objects.create(
            issued=issued,
            **owner.fields(),
            kind=kind,
            difficulty=level,
            seed=key,
            lesson=slug,
            answer=[],
            normalized="",
            correct=True,
            time_taken_ms=0,
            rule_ids=[],
            created_at=now,
        )
        attempt.progress_state = progress_summary.record(owner, attempt)
    attempt.created = True
    return attempt

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

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from skatschule.owners import Owner

from ..lessons import get_activity, get_lessons
from ..models import Attempt, IssuedExercise
from . import progress_summary

__all__ = ["record_activity", "activity_steps", "Recorded"]


def activity_steps(*, kind: str) -> list[tuple[str, int]]:
    """The lessons (slug) and levels at which ``kind`` is a step."""
    return [(lesson.slug, step.level) for lesson in get_lessons() for step in lesson.steps if step.kind == kind]


@dataclass(frozen=True)
class Recorded:
    """What :func:`record_activity` did: the attempt (the first one, ``created`` False, when the
    key was recorded before) and the progress state written with it (None when nothing was written)."""

    attempt: Attempt
    created: bool
    progress_state: dict[str, Any] | None = None


def record_activity(*, owner: Owner, kind: str, key: int, now: datetime | None = None) -> Recorded | None:
    """Record one finished ``kind`` (a registered activity) for ``owner``; see the module text.

    Returns what was recorded, or None when no lesson lists the activity.
    """
    if get_activity(kind) is None:
        raise ValueError(f"unknown activity {kind!r}")
    if not 0 <= key < 2**31:
        raise ValueError("the key must fit an exercise seed")
    steps = activity_steps(kind=kind)
    if not steps:
        return None
    slug, level = steps[0]
    now = now or timezone.now()
    with transaction.atomic():
        previous: Attempt | None = Attempt.objects.owned_by(owner).filter(kind=kind, seed=key).first()
        if previous is not None:
            return Recorded(previous, created=False)
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
        state = progress_summary.record(owner=owner, attempt=attempt)
    return Recorded(attempt, created=True, progress_state=state)

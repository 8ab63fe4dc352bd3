"""Teachers' grading (issue 28 §2): a manual override of one item's score.

- ``override_score(*, answer, teacher, credit, comment, now=None) -> ScoreOverride``: the teacher of
  the quiz sets the item's credit (0 to 1) with a comment the student sees. Every override is
  kept as a :class:`ScoreOverride` row (who, when); the newest is copied onto the answer and the
  attempt's points are summed again, all in one transaction; after the commit ``attempt_regraded``
  tells other apps (the LMS gets the new score). Raises ``QuizError`` (400) for a
  credit out of range or a too long comment, ``QuizClosed`` (409) for an attempt not yet submitted,
  ``NotFound`` for someone else's quiz.
- ``override_item_score(*, attempt, item, teacher, credit, comment) -> ScoreOverride``: the
  same for an item by its place in a submitted attempt, answered or not. As in Moodle's manual
  grading, an item the student left unanswered can be graded too (0, or part credit after an
  oral answer): it gets a row with ``answered=False`` that holds only the grade. Only the teacher
  of the quiz, only once the attempt is submitted (the student can no longer answer then, so the
  row never meets an answer of the student).
"""

from __future__ import annotations

import math
from datetime import datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from skatschule.core.notfound import NotFound

from ..errors import QuizClosed, QuizError
from ..models import QuizAnswer, QuizAttempt, QuizItem, ScoreOverride
from ..signals import attempt_regraded
from .attempts import attempt_points

MAX_COMMENT = 1000


def override_item_score(
    *, attempt: QuizAttempt, item: QuizItem, teacher: User, credit: float, comment: str
) -> ScoreOverride:
    if item.quiz_id != attempt.quiz_id:
        raise NotFound("no such item")
    comment = _allowed(attempt, teacher, credit, comment)  # before a grade-only row is made
    now = timezone.now()
    with transaction.atomic():
        answer, _created = QuizAnswer.objects.get_or_create(
            attempt=attempt, item=item, defaults={"answered": False, "values": [], "answered_at": now}
        )
        return _record(answer, teacher, credit, comment, now)


def override_score(
    *, answer: QuizAnswer, teacher: User, credit: float, comment: str, now: datetime | None = None
) -> ScoreOverride:
    comment = _allowed(answer.attempt, teacher, credit, comment)
    return _record(answer, teacher, credit, comment, now or timezone.now())


def _allowed(attempt: QuizAttempt, teacher: User, credit: float, comment: str) -> str:
    """The comment, stripped, once the override is allowed: ``NotFound`` for someone else's quiz,
    ``QuizError`` for a bad credit or comment, ``QuizClosed`` for an attempt not yet submitted."""
    if attempt.quiz.owner_id != teacher.pk:
        raise NotFound("no such answer")
    comment = _checked(credit, comment)
    if attempt.submitted_at is None:
        raise QuizClosed("Dieser Versuch ist noch nicht abgegeben.", "This attempt has not been submitted yet.")
    return comment


def _record(answer: QuizAnswer, teacher: User, credit: float, comment: str, now: datetime) -> ScoreOverride:
    """Write the override, the answer's current grade and the attempt's points; tell other apps."""
    attempt = answer.attempt
    with transaction.atomic():
        override = ScoreOverride.objects.create(answer=answer, credit=credit, comment=comment, by=teacher, at=now)
        QuizAnswer.objects.filter(pk=answer.pk).update(override_credit=credit, override_comment=comment)
        QuizAttempt.objects.filter(pk=attempt.pk).update(points=attempt_points(attempt_pk=attempt.pk))
        transaction.on_commit(lambda: attempt_regraded.send(sender=QuizAttempt, attempt=attempt))
    answer.refresh_from_db()
    return override


def _checked(credit: float, comment: str) -> str:
    """The comment, stripped; ``QuizError`` for a credit out of 0 to 1 or a too long comment."""
    if not math.isfinite(credit) or not 0 <= credit <= 1:
        raise QuizError("Die Punkte müssen zwischen 0 und 1 liegen.", "The points must be between 0 and 1.")
    comment = comment.strip()
    if len(comment) > MAX_COMMENT:
        raise QuizError(
            f"Der Kommentar ist zu lang (höchstens {MAX_COMMENT} Zeichen).",
            f"The comment is too long (at most {MAX_COMMENT} characters).",
        )
    return comment

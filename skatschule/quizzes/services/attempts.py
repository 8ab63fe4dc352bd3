"""Taking a quiz: start an attempt, save answers (graded by the engine), submit, finalize expired.

Keyword-only entry points:

- ``start_attempt(*, quiz, student, now=None) -> QuizAttempt``: the open attempt, or a new one.
- ``save_answer(*, attempt, item, values, now=None) -> SavedAnswer``: grade ``values`` (the raw
  ``answer`` form values) with the engine and store them, one row per (attempt, item).
  Raises ``AnswerError`` (400, nothing stored) for an unreadable answer, ``QuizClosed`` (409)
  when the attempt is submitted, past its timer or the quiz is closed, ``NotFound`` for an item
  of another quiz.
- ``submit(*, attempt, now=None) -> tuple[QuizAttempt, bool]``: submit once; the bool is False when
  it had been submitted before (a double click, a concurrent request). The attempt row is
  locked by a conditional ``UPDATE ... WHERE submitted_at IS NULL`` first, so concurrent
  submits and saves serialise on it (row lock on PostgreSQL, write lock on SQLite).

The server's clock decides: an attempt's cut-off is the earlier of its deadline (start + time
limit) and the quiz's close time. Attempts left open past it are submitted with the answers
saved before it (:func:`finalize_expired`).

No answer key is ever stored: :func:`skatschule.quizzes.selectors.taking.answer_key` asks each exercise type's
``correct_answer`` and ``grade`` for it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import FloatField, QuerySet, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone

from skatschule.core.notfound import NotFound
from skatschule.exercises.base import Feedback

from ..errors import QuizClosed, QuizError
from ..grading import credit
from ..models import LiveReveal, LiveSession, Quiz, QuizAnswer, QuizAttempt, QuizItem
from ..questions import cutoff, grade_values, is_open, question_for, quiz_state
from ..signals import attempt_submitted


def _live_now(quiz: Quiz) -> QuizClosed:
    return QuizClosed(
        "Dieses Quiz läuft gerade live in der Klasse: antworte auf der Live-Seite. Danach geht es hier weiter.",
        "This quiz is running live in class: answer on the live page. After the round you can go on here.",
    )


def start_attempt(*, quiz: Quiz, student: User, now: datetime | None = None, live: bool = False) -> QuizAttempt:
    """The student's open attempt, or a new one if the quiz is open and attempts are left.

    ``QuizClosed`` while a live round of the quiz runs, unless the attempt is for that round
    (``live``, :func:`.live.answer_live`): the projector shows the answers as they are revealed.

    The quiz row is locked (``select_for_update``) while the attempt is made, the same lock
    :func:`update_quiz` takes: an edit either commits first (the new attempt gets its items
    and rules) or waits until this attempt exists (and then may no longer change the items).
    """
    now = now or timezone.now()
    finalize_expired(attempts=quiz.attempts.filter(student=student), now=now)
    used = 0
    try:
        with transaction.atomic():
            locked = Quiz.objects.select_for_update().filter(pk=quiz.pk).first()
            if locked is None:
                raise NotFound("no such quiz")
            # One query after the lock: either a concurrent start's attempt is in it (and is
            # returned) or it is not (and creating the same number again hits the unique constraint).
            if not live and LiveSession.objects.filter(quiz=locked, ended_at__isnull=True).exists():
                raise _live_now(locked)
            mine = list(locked.attempts.filter(student=student))
            current = next((a for a in mine if a.submitted_at is None), None)
            if current is not None:
                return current
            state = quiz_state(locked, now)
            if state == "upcoming":
                raise QuizError("Dieses Quiz hat noch nicht begonnen.", "This quiz has not started yet.")
            if state == "closed":
                raise QuizClosed("Dieses Quiz ist beendet.", "This quiz has ended.")
            used = max((a.number for a in mine), default=0)
            if used >= locked.max_attempts:
                raise QuizClosed(
                    "Du hast alle erlaubten Versuche schon gemacht.", "You have used all the attempts allowed."
                )
            deadline = _deadline(now, locked.time_limit_minutes, locked.closes_at)
            return QuizAttempt.objects.create(
                quiz=locked, student=student, number=used + 1, started_at=now, updated_at=now, deadline=deadline
            )
    except IntegrityError:  # a concurrent start (double click) created it: use that one
        found = quiz.attempts.filter(student=student, number=used + 1).first()
        if found is None:
            raise
        return found


def _deadline(started_at: datetime, minutes: int | None, closes_at: datetime | None) -> datetime | None:
    """An attempt's own deadline: start plus time limit, capped by the close time (None without a limit)."""
    if not minutes:
        return None
    deadline = started_at + timedelta(minutes=minutes)
    return min(deadline, closes_at) if closes_at else deadline


def _closed_message(attempt: QuizAttempt, now: datetime) -> QuizClosed:
    if attempt.submitted_at is not None:
        return QuizClosed(
            "Dieser Versuch ist schon abgegeben; Antworten lassen sich nicht mehr ändern.",
            "This attempt has been submitted; answers can no longer be changed.",
        )
    if attempt.quiz.closes_at and now >= attempt.quiz.closes_at:
        return QuizClosed(
            "Das Quiz ist beendet; diese Antwort kam zu spät und wurde nicht gespeichert.",
            "The quiz has ended; this answer came too late and was not saved.",
        )
    return QuizClosed(
        "Die Zeit ist abgelaufen; diese Antwort wurde nicht mehr gespeichert.",
        "Time is up; this answer was not saved.",
    )


@dataclass
class SavedAnswer:
    answer: QuizAnswer
    feedback: Feedback
    created: bool
    changed: bool = True
    """False when the policy shows answers right away and the item had been answered already."""


def _claim(attempt: QuizAttempt, now: datetime) -> bool:
    """Lock the open attempt's row (first statement of the transaction is a write)."""
    limit = cutoff(attempt)
    if limit is not None and now >= limit:
        return False
    return QuizAttempt.objects.filter(pk=attempt.pk, submitted_at__isnull=True).update(updated_at=now) == 1


def save_answer(
    *, attempt: QuizAttempt, item: QuizItem, values: Sequence[str], now: datetime | None = None, live: bool = False
) -> SavedAnswer:
    """Grade and store the answer to ``item`` in ``attempt`` (see the module docstring).

    Outside a live round (``live``) no answer is taken while one runs; an answer to an item a
    live round has revealed earns nothing (credit 0, not counted as right): its right answer was
    on the projector for everyone."""
    now = now or timezone.now()
    quiz = attempt.quiz
    if item.quiz_id != quiz.pk:
        raise NotFound("no such item")
    if not live and LiveSession.objects.filter(quiz=quiz, ended_at__isnull=True).exists():
        raise _live_now(quiz)
    raw = [str(v) for v in values]
    question = question_for(quiz, item, attempt.student_id, attempt.number)
    feedback = grade_values(question, raw)  # AnswerError: nothing stored
    with transaction.atomic():
        if not _claim(attempt, now):
            attempt.refresh_from_db()
            raise _closed_message(attempt, now)
        existing = QuizAnswer.objects.filter(attempt=attempt, item=item).first()
        if existing is not None and quiz.show_answers == Quiz.ShowAnswers.IMMEDIATELY:
            # The right answer has been shown: the first answer counts.
            shown = grade_values(question_for(quiz, item, attempt.student_id, attempt.number), existing.values)
            return SavedAnswer(existing, shown, created=False, changed=False)
        revealed = LiveReveal.objects.filter(item=item, revealed_at__lte=now).exists()
        fields = {
            "values": raw,
            "normalized": (feedback.normalized or feedback.given.de or "")[:500],
            "correct": bool(feedback.correct) and not revealed,
            "credit": 0.0 if revealed else credit(question, feedback, quiz.partial_credit),
            "answered_at": now,
        }
        if existing is None:
            answer = QuizAnswer.objects.create(attempt=attempt, item=item, **fields)
            return SavedAnswer(answer, feedback, created=True)
        QuizAnswer.objects.filter(pk=existing.pk).update(**fields)
        existing.refresh_from_db()
        return SavedAnswer(existing, feedback, created=False)


def submit(*, attempt: QuizAttempt, now: datetime | None = None) -> tuple[QuizAttempt, bool]:
    """Submit the attempt exactly once. Returns (attempt, True) for the one call that did it."""
    now = now or timezone.now()
    with transaction.atomic():
        locked = QuizAttempt.objects.filter(pk=attempt.pk, submitted_at__isnull=True).update(updated_at=now)
        if locked:
            limit = cutoff(attempt)
            when = min(now, limit) if limit else now
            score = QuizAnswer.objects.filter(attempt_id=attempt.pk, correct=True).count()
            done = QuizAttempt.objects.filter(pk=attempt.pk, submitted_at__isnull=True).update(
                submitted_at=when, score=score, points=attempt_points(attempt_pk=attempt.pk)
            )
        else:
            done = 0
    attempt.refresh_from_db()
    if done:  # once per attempt, after the commit (the LTI app sends the score on)
        transaction.on_commit(lambda: attempt_submitted.send(sender=QuizAttempt, attempt=attempt))
    return attempt, bool(done)


def attempt_points(*, attempt_pk: int) -> float:
    """The attempt's points: each answer's credit, or the teacher's override where there is one."""
    effective = Coalesce("override_credit", "credit", output_field=FloatField())
    total = QuizAnswer.objects.filter(attempt_id=attempt_pk).aggregate(p=Sum(effective))["p"]
    return round(float(total or 0.0), 4)


def finalize_expired(*, attempts: QuerySet[QuizAttempt], now: datetime | None = None) -> int:
    """Submit the open attempts whose time is over (with the answers saved before). Returns how many.

    Each :func:`submit` is its own transaction, so one attempt never waits for the others' locks.
    """
    now = now or timezone.now()
    count = 0
    for attempt in attempts.filter(submitted_at__isnull=True).select_related("quiz"):
        if not is_open(attempt, now):
            count += submit(attempt=attempt, now=now)[1]
    return count


def finalize_if_expired(*, attempt: QuizAttempt, now: datetime | None = None) -> QuizAttempt:
    """Submit this attempt if its time is over; returns it fresh from the database.

    An attempt that is still open by the fields just read (the caller has read it in this
    request) is returned as it is, without a query: only a deadline or close that has passed
    sends it to the database."""
    if is_open(attempt, now):
        return attempt
    finalize_expired(attempts=QuizAttempt.objects.filter(pk=attempt.pk), now=now)
    attempt.refresh_from_db()
    return attempt


def finalize_students_attempts(*, quiz: Quiz, student: User, now: datetime | None = None) -> int:
    """Submit the student's attempts at the quiz whose time is over. Returns how many."""
    return finalize_expired(attempts=quiz.attempts.filter(student=student), now=now)

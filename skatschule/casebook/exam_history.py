"""Exam history (issue 18): every finished exam of a signed-in user with date, questions,
score, time per question and the pass mark's verdict; the trend over the exams. Reads only,
except :func:`start_practice_exam`, which starts an exam with the creator's pass mark, and
:func:`adopt_session_exams`, which moves a visitor's exams to the account they sign in to.

- **Pass mark**: ``Exam.pass_percent`` (80 by default), set by whoever creates the exam (the
  referee for a practice exam, the trainer for a group exam). Passed means
  ``right * 100 >= pass_percent * total``: exactly 80 % passes at 80.
- **Time per question**: the questions are answered in order (the page always shows the
  first open one), so a question's time is its ``answered_at`` minus the previous
  answer's (the first one's: minus the start). Unanswered questions have none.
- **Trend**: the change from the mean of the earlier exams to the mean of the latest three
  (``None`` with fewer than two exams).

Practice only: the result sheet states that it is not a certificate of the DSkV.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import User
from django.db.models import Count, Q

from skatschule.core.errors import UserError
from skatschule.owners import Owner

from . import services
from .models import Exam

__all__ = [
    "DEFAULT_PASS_PERCENT",
    "adopt_session_exams",
    "ExamSummary",
    "history",
    "passed",
    "question_times",
    "start_practice_exam",
    "summary",
    "trend",
]

DEFAULT_PASS_PERCENT = 80
RECENT = 3


def parse_pass_percent(value: object) -> int:
    """A pass mark from a form (empty: the default); 400 for anything but 1 .. 100."""
    text = str(value if value is not None else "").strip()
    if not text:
        return DEFAULT_PASS_PERCENT
    if not services.is_number(text=text) or not 1 <= int(text) <= 100:
        raise UserError("Die Bestehensgrenze liegt zwischen 1 und 100 %.", "The pass mark is between 1 and 100 %.")
    return int(text)


def start_practice_exam(*, owner: Owner, size: int, pass_percent: int = DEFAULT_PASS_PERCENT) -> Exam:
    """A practice exam (``services.start_exam``) with the creator's pass mark."""
    if not 1 <= pass_percent <= 100:
        raise UserError("Die Bestehensgrenze liegt zwischen 1 und 100 %.", "The pass mark is between 1 and 100 %.")
    exam = services.start_exam(owner=owner, size=size)
    if pass_percent != exam.pass_percent:
        Exam.objects.filter(pk=exam.pk).update(pass_percent=pass_percent)
        exam.pass_percent = pass_percent
    return exam


def adopt_session_exams(*, session_key: str, user: User) -> int:
    """Give the exams an anonymous visitor took in this browser to the account they sign up
    for or log in to (as their practice is), so they appear in the history. Returns how many."""
    if not session_key or user.pk is None:
        return 0
    return Exam.objects.filter(user__isnull=True, session_key=session_key).update(user=user, session_key="")


def passed(right: int, total: int, pass_percent: int) -> bool:
    return total > 0 and right * 100 >= pass_percent * total


def question_times(exam: Exam) -> list[int | None]:
    """Seconds spent on each question, by position (None: not answered)."""
    times: list[int | None] = []
    previous: datetime = exam.started_at
    for answered_at in exam.questions.order_by("position").values_list("answered_at", flat=True):
        if answered_at is None:
            times.append(None)
            continue
        times.append(max(0, round((answered_at - previous).total_seconds())))
        previous = answered_at
    return times


@dataclass(frozen=True)
class ExamSummary:
    exam: Exam
    right: int
    answered: int
    total: int

    @property
    def percent(self) -> int:
        return round(100 * self.right / self.total) if self.total else 0

    @property
    def passed(self) -> bool:
        return passed(self.right, self.total, self.exam.pass_percent)

    @property
    def seconds(self) -> int | None:
        if self.exam.finished_at is None:
            return None
        return max(0, round((self.exam.finished_at - self.exam.started_at).total_seconds()))

    @property
    def duration(self) -> str:
        """The time taken as minutes and seconds (``"6:05"``); "" while not finished."""
        seconds = self.seconds
        return "" if seconds is None else f"{seconds // 60}:{seconds % 60:02d}"


def summary(exam: Exam) -> ExamSummary:
    counts = exam.questions.aggregate(
        right=Count("pk", filter=Q(correct=True)), answered=Count("pk", filter=Q(answered_at__isnull=False))
    )
    return ExamSummary(exam, counts["right"] or 0, counts["answered"] or 0, exam.size)


def history(user: User) -> list[ExamSummary]:
    """The user's finished exams, newest first (one query)."""
    if not user.is_authenticated:
        return []
    for open_exam in Exam.objects.filter(user=user, finished_at__isnull=True):
        if services.is_over(open_exam):  # out of time without a last visit: it is over all the same
            services.finish_exam(exam=open_exam)
    exams = (
        Exam.objects.filter(user=user, finished_at__isnull=False)
        .select_related("group")
        .annotate(
            right=Count("questions", filter=Q(questions__correct=True)),
            answered=Count("questions", filter=Q(questions__answered_at__isnull=False)),
        )
        .order_by("-finished_at", "-pk")
    )
    return [ExamSummary(e, e.right, e.answered, e.size) for e in exams]


def trend(rows: list[ExamSummary]) -> int | None:
    """Percentage points from the earlier exams' mean to the latest three's (``rows`` newest first)."""
    if len(rows) < 2:
        return None
    recent = rows[:RECENT] if len(rows) > RECENT else rows[:1]
    earlier = rows[len(recent) :]

    def mean(part: list[ExamSummary]) -> float:
        return sum(r.percent for r in part) / len(part)

    return round(mean(recent) - mean(earlier))

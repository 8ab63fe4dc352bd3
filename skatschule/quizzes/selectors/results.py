"""Reads for the results: the teacher's results table (a page at a time, or every line for the
streamed CSV), the grades under the quiz's grading policy and the teacher's overrides.

One write stays here on purpose: the results first submit the attempts whose time is over
(:func:`~skatschule.quizzes.services.attempts.finalize_expired`), so a table never shows an
attempt as running after its end.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Case, CharField, QuerySet, Value, When
from django.db.models.functions import Concat

from skatschule.core.db import streaming_reads
from skatschule.core.people import DELETED_PREFIX, shown_name

from ..grading import policy_result, shown_points
from ..models import Quiz, QuizAnswer, QuizAttempt, ScoreOverride
from ..services.attempts import finalize_expired
from .taking import item_count


@dataclass
class ResultRow:
    attempt: QuizAttempt
    answers: dict[int, QuizAnswer]
    total: int

    @property
    def seconds(self) -> int | None:
        if self.attempt.submitted_at is None:
            return None
        return max(0, int((self.attempt.submitted_at - self.attempt.started_at).total_seconds()))

    @property
    def duration(self) -> str:
        seconds = self.seconds
        if seconds is None:
            return "–"
        return f"{seconds // 60}:{seconds % 60:02d}"

    @property
    def percent(self) -> int:
        return round(100 * (self.attempt.score or 0) / self.total) if self.total else 0


_BY_NAME = (
    Case(When(student__username__startswith=DELETED_PREFIX, then=Value(1)), default=Value(0)),
    "student__username",
)
"""Attempts by student name, deleted accounts last (their name reads differently per language)."""


def student_results(quiz: Quiz, *, now: datetime | None = None) -> list[ResultRow]:
    """One row per attempt (submitted or not), by student name and attempt number."""
    finalize_expired(attempts=quiz.attempts.all(), now=now)
    positions = dict(quiz.items.values_list("pk", "position"))
    attempts = list(quiz.attempts.select_related("student").order_by(*_BY_NAME, "number"))
    by_attempt: dict[int, dict[int, QuizAnswer]] = {a.pk: {} for a in attempts}
    for answer in QuizAnswer.objects.filter(attempt__quiz=quiz, answered=True):
        by_attempt.setdefault(answer.attempt_id, {})[positions[answer.item_id]] = answer
    return [ResultRow(a, by_attempt[a.pk], len(positions)) for a in attempts]


RESULTS_PER_PAGE = 50
"""Attempts per page of the teacher's results table (the page stays the same size for any class)."""


@dataclass(frozen=True)
class ResultLine:
    """One attempt as the results table and the CSV show it: only the columns they use."""

    pk: int
    username: str
    number: int
    started_at: datetime
    submitted_at: datetime | None
    score: int | None
    total: int
    cells: tuple[float | None, ...]
    """Per item in position order: the credit it earns (the teacher's override where there is
    one, else the grade, 0 to 1), or None if not answered and not graded."""
    given: tuple[str, ...] = ()
    """Per item the normalised answer ("" if none); only filled for the CSV."""
    points: float | None = None
    """The graded result (partial credit and overrides); None while running."""
    full_name: str = ""
    """The name the person goes by (an LMS sends it), if known."""

    @property
    def name(self) -> str:
        """The person as a page names them (the full name where known, else the username)."""
        return shown_name(self.username, full_name=self.full_name)

    @property
    def shown_points(self) -> str:
        return shown_points(self.points)

    @property
    def seconds(self) -> int | None:
        if self.submitted_at is None:
            return None
        return max(0, int((self.submitted_at - self.started_at).total_seconds()))

    @property
    def duration(self) -> str:
        seconds = self.seconds
        return "–" if seconds is None else f"{seconds // 60}:{seconds % 60:02d}"


ResultRowValues = tuple[int, str, int, datetime, datetime | None, int | None, float | None, str]

_FULL_NAME = Concat("student__first_name", Value(" "), "student__last_name", output_field=CharField())


def _result_attempts(quiz: Quiz) -> QuerySet[QuizAttempt, ResultRowValues]:
    return (
        quiz.attempts.order_by(*_BY_NAME, "number", "pk")
        .annotate(full_name=_FULL_NAME)
        .values_list("pk", "student__username", "number", "started_at", "submitted_at", "score", "points", "full_name")
    )


def _result_lines(
    rows: Sequence[ResultRowValues], items: Sequence[tuple[int, int]], *, with_given: bool
) -> list[ResultLine]:
    """ResultLines for attempt rows from :func:`_result_attempts`; one query for their answers."""
    index = {item_pk: i for i, (item_pk, _position) in enumerate(items)}
    cells: dict[int, list[float | None]] = {row[0]: [None] * len(items) for row in rows}
    given: dict[int, list[str]] = {row[0]: [""] * len(items) for row in rows} if with_given else {}
    answers = QuizAnswer.objects.filter(attempt_id__in=list(cells)).order_by()
    fields = ("attempt_id", "item_id", "answered", "credit", "override_credit", "normalized")
    for attempt_id, item_id, answered, earned, override, normalized in answers.values_list(*fields):
        if item_id in index:
            if answered or override is not None:  # an unanswered item the teacher graded counts too
                cells[attempt_id][index[item_id]] = float(earned if override is None else override)
            if with_given and answered:
                given[attempt_id][index[item_id]] = normalized
    return [
        ResultLine(
            pk,
            username,
            number,
            started,
            submitted,
            score,
            len(items),
            tuple(cells[pk]),
            tuple(given.get(pk, ())),
            points,
            full_name,
        )
        for pk, username, number, started, submitted, score, points, full_name in rows
    ]


def results_page(
    quiz: Quiz, *, page: int | str | None = 1, now: datetime | None = None
) -> tuple[Any, list[ResultLine]]:
    """One page of the results table (:data:`RESULTS_PER_PAGE` attempts) and its lines.

    A page number that is not a number or out of range gives the first or last page.
    """
    from django.core.paginator import Paginator

    finalize_expired(attempts=quiz.attempts.all(), now=now)
    items = list(quiz.items.order_by("position").values_list("pk", "position"))
    shown = Paginator(_result_attempts(quiz), RESULTS_PER_PAGE).get_page(page)
    return shown, _result_lines(list(shown.object_list), items, with_given=False)


def result_lines(quiz: Quiz, *, now: datetime | None = None, chunk: int = 200) -> Iterator[ResultLine]:
    """Every attempt's line, read in chunks (for the streamed CSV)."""
    finalize_expired(attempts=quiz.attempts.all(), now=now)
    items = list(quiz.items.order_by("position").values_list("pk", "position"))
    batch: list[ResultRowValues] = []
    # the first batch about fills the first 4 kB (a browser starts the download then), the next
    # ones double: the start does not wait for a whole chunk, whatever the class size
    size = min(30, chunk)
    with streaming_reads():
        for row in _result_attempts(quiz).iterator(chunk_size=100):
            batch.append(row)
            if len(batch) == size:
                yield from _result_lines(batch, items, with_given=True)
                batch, size = [], min(2 * size, chunk)
        if batch:
            yield from _result_lines(batch, items, with_given=True)


@dataclass(frozen=True)
class StudentGrade:
    """One student's result under the quiz's grading policy."""

    username: str
    attempts: tuple[float, ...]
    """The submitted attempts' points, in attempt order."""
    result: float | None
    total: int
    full_name: str = ""

    @property
    def name(self) -> str:
        """The person as a page names them (the full name where known, else the username)."""
        return shown_name(self.username, full_name=self.full_name)

    @property
    def shown(self) -> str:
        return shown_points(self.result)

    @property
    def shown_attempts(self) -> list[str]:
        return [shown_points(p) for p in self.attempts]


GRADES_PER_PAGE = 50
"""Students a page of the results' grades table shows (a class's table no longer grows with the class)."""


def student_grades(quiz: Quiz, *, students: Iterable[int] | None = None) -> list[StudentGrade]:
    """Per student (by name, deleted accounts last; only ``students`` if given): the points of
    each submitted attempt and the result under ``quiz.grading_policy``."""
    total = item_count(quiz)
    points: dict[str, list[float]] = {}
    names: dict[str, str] = {}
    rows = quiz.attempts.filter(submitted_at__isnull=False)
    if students is not None:
        rows = rows.filter(student_id__in=list(students))
    ordered = rows.order_by(*_BY_NAME, "number").annotate(full_name=_FULL_NAME)
    for username, value, full_name in ordered.values_list("student__username", "points", "full_name"):
        points.setdefault(username, []).append(float(value or 0.0))
        names[username] = full_name
    return [
        StudentGrade(username, tuple(values), policy_result(values, quiz.grading_policy), total, names[username])
        for username, values in points.items()
    ]


def grades_page(quiz: Quiz, *, page: int | str | None = 1) -> tuple[Any, list[StudentGrade]]:
    """One page of :func:`student_grades` (:data:`GRADES_PER_PAGE` students, in the same order).

    A page number that is not a number or out of range gives the first or last page."""
    from django.core.paginator import Paginator

    students = (
        quiz.attempts.filter(submitted_at__isnull=False)
        .order_by(*_BY_NAME, "student_id")
        .values_list("student_id", flat=True)
        .distinct()  # one row per student: the ordering's columns are the student's too
    )
    shown = Paginator(students, GRADES_PER_PAGE).get_page(page)
    return shown, student_grades(quiz, students=list(shown.object_list))


def graded_result(quiz: Quiz, *, student_id: int) -> float | None:
    """The student's result under the quiz's grading policy (None before a submitted attempt)."""
    rows = quiz.attempts.filter(student_id=student_id, submitted_at__isnull=False).order_by("number")
    return policy_result([float(p or 0.0) for p in rows.values_list("points", flat=True)], quiz.grading_policy)


def overrides_of(answer: QuizAnswer) -> list[ScoreOverride]:
    """Every override of the answer, oldest first, with who made it."""
    return list(answer.overrides.select_related("by"))


def newest_overrides(*, attempt_ids: Iterable[int]) -> dict[int, ScoreOverride]:
    """Per attempt id: the newest override of any of its answers (attempts without one are left out)."""
    newest: dict[int, ScoreOverride] = {}
    for override in ScoreOverride.objects.filter(answer__attempt_id__in=list(attempt_ids)).select_related("answer"):
        attempt_id = override.answer.attempt_id
        if attempt_id not in newest or override.pk > newest[attempt_id].pk:
            newest[attempt_id] = override
    return newest

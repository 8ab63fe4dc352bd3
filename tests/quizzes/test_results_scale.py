"""The results page, the CSV and the quiz list at class size (issue 17, §1): paginated, a fixed
number of queries however many students, the CSV streamed."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from skatschule.classrooms.models import Membership
from skatschule.quizzes.models import Quiz, QuizAnswer, QuizAttempt
from skatschule.quizzes.selectors import analysis, results
from skatschule.quizzes.services import attempts
from tests.people import client_for
from tests.responses import streamed

pytestmark = pytest.mark.django_db


def _students(quiz: Quiz, count: int, start: int = 0) -> None:
    """``count`` students who submitted ``quiz``: item 1 right, the others wrong."""
    User = get_user_model()
    items = list(quiz.items.order_by("position"))
    now = timezone.now()
    for n in range(start, start + count):
        user = User.objects.create_user(f"s{n:03d}")
        Membership.objects.create(classroom=quiz.classroom, student=user)
        attempt = QuizAttempt.objects.create(quiz=quiz, student=user, started_at=now, submitted_at=now, score=1)
        for item in items:
            first = item.position == 1
            QuizAnswer.objects.create(
                attempt=attempt,
                item=item,
                values=["1"],
                normalized="1" if first else f"w{n % 2}",
                correct=first,
                credit=1.0 if first else 0.0,
            )


def _queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
        assert response.status_code == 200
        if response.streaming:
            streamed(response)
    return len(queries)


def test_results_are_paginated_with_a_fixed_number_of_queries(make_quiz: Callable[..., Quiz], teacher: User) -> None:
    quiz = make_quiz(count=3)
    client = client_for(teacher)
    url = reverse("quizzes:results", args=[quiz.pk])
    _students(quiz, 5)
    small = _queries(client, url)
    _students(quiz, results.RESULTS_PER_PAGE + 10, start=5)
    assert _queries(client, url) == small
    first = client.get(url).content.decode()
    assert first.count('class="result-row"') == results.RESULTS_PER_PAGE and "?seite=2" in first
    second = client.get(url + "?seite=2").content.decode()
    total = QuizAttempt.objects.filter(quiz=quiz).count()
    assert second.count('class="result-row"') == total - results.RESULTS_PER_PAGE
    assert client.get(url + "?seite=kaputt").status_code == 200  # not a number: the first page
    stats = analysis.item_stats(quiz)
    assert [(s.answered, s.correct) for s in stats] == [(total, total), (total, 0), (total, 0)]
    assert dict(stats[1].wrong) == {"w0": (total + 1) // 2, "w1": total // 2}


def test_item_stats_follow_a_new_submission(make_quiz: Callable[..., Quiz], teacher: User) -> None:
    quiz = make_quiz(count=2)
    _students(quiz, 3)
    assert analysis.item_stats(quiz)[0].answered == 3
    _students(quiz, 1, start=3)
    assert analysis.item_stats(quiz)[0].answered == 4  # a new fingerprint, counted again


def test_csv_streams_every_attempt_with_fixed_queries(make_quiz: Callable[..., Quiz], teacher: User) -> None:
    quiz = make_quiz(count=2)
    client = client_for(teacher)
    url = reverse("quizzes:results_csv", args=[quiz.pk])
    _students(quiz, 3)
    small = _queries(client, url)
    _students(quiz, 120, start=3)
    response = client.get(url)
    assert response.streaming
    rows = list(csv.reader(io.StringIO(streamed(response).decode("utf-8-sig"))))
    assert len(rows) == 1 + 123 and rows[1][0] == "s000" and rows[-1][0] == "s122"
    assert rows[2][7:] == ["1", "1", "w1", "0"]  # per item the answer and its points
    assert _queries(client, url) <= small + 2  # one more answer query per batch of attempts


def test_quiz_list_queries_do_not_grow_with_quizzes(
    make_quiz: Callable[..., Quiz], teacher: User, student: User
) -> None:
    teacher_client, student_client = client_for(teacher), client_for(student)
    make_quiz(count=1)
    one = (_queries(teacher_client, reverse("quizzes:index")), _queries(student_client, reverse("quizzes:index")))
    for _ in range(4):
        quiz = make_quiz(count=1)
        attempts.start_attempt(quiz=quiz, student=student)
    assert (
        _queries(teacher_client, reverse("quizzes:index")),
        _queries(student_client, reverse("quizzes:index")),
    ) == one
    page = teacher_client.get(reverse("quizzes:index")).content.decode()
    assert page.count("Probe") >= 5


def test_grades_are_paginated_by_student_in_name_order(make_quiz: Callable[..., Quiz], teacher: User) -> None:
    """The grades table covered every student of the class on one page (issue 36)."""
    quiz = make_quiz(count=2)
    client = client_for(teacher)
    url = reverse("quizzes:results", args=[quiz.pk])
    extra = 7
    _students(quiz, results.GRADES_PER_PAGE + extra)
    second_try = QuizAttempt.objects.get(quiz=quiz, student__username="s001")
    QuizAttempt.objects.create(quiz=quiz, student=second_try.student, number=2, submitted_at=timezone.now(), score=0)
    first = client.get(url).content.decode()
    assert first.count('class="grade-row"') == results.GRADES_PER_PAGE
    assert "noten=2#grades-title" in first
    second = client.get(url + "?noten=2").content.decode()
    assert second.count('class="grade-row"') == extra  # the student with two attempts is one row
    names = [
        line.split('data-student="')[1].split('"')[0]
        for page in (first, second)
        for line in page.splitlines()
        if 'class="grade-row"' in line
    ]
    assert names == [f"s{n:03d}" for n in range(results.GRADES_PER_PAGE + extra)]
    assert client.get(url + "?noten=kaputt").status_code == 200


def test_csv_batches_start_small_and_double(
    make_quiz: Callable[..., Quiz], teacher: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The second batch was a whole chunk (200 attempts): the first 4 kB of a large class's CSV
    waited for it, so the download started later the larger the class (issue 36)."""
    quiz = make_quiz(count=1)
    _students(quiz, 100)
    sizes: list[int] = []
    real = results._result_lines

    def counted(rows: Any, *args: Any, **kwargs: Any) -> Any:
        sizes.append(len(rows))
        return real(rows, *args, **kwargs)

    monkeypatch.setattr(results, "_result_lines", counted)
    assert len(list(results.result_lines(quiz, chunk=50))) == 100
    assert sizes == [30, 50, 20]

"""Issue 34 §6, exports and results: every number readable and the same everywhere.

- the class progress shows the quiz result under the grading policy (not the count of fully
  right items), on the page and in its CSV;
- the German CSV writes a decimal comma, the XLSX stores every score as a number, German pages
  show German numbers;
- per item the credit shows (part credit, a teacher's override), and the verdict follows it.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone
from openpyxl import load_workbook

from skatschule.classrooms.models import Classroom
from skatschule.quizzes.models import Quiz, QuizAnswer, QuizAttempt
from skatschule.quizzes.services import grading as grading_services
from tests.people import client_for

pytestmark = pytest.mark.django_db


def _attempt(quiz: Quiz, student: User, number: int, credits: tuple[float, float]) -> QuizAttempt:
    """A submitted attempt whose two items earned ``credits`` (1 is fully right)."""
    now = timezone.now()
    attempt = QuizAttempt.objects.create(
        quiz=quiz,
        student=student,
        number=number,
        started_at=now,
        submitted_at=now,
        score=sum(1 for c in credits if c == 1),
        points=sum(credits),
    )
    for item, earned in zip(quiz.items.order_by("position"), credits):
        QuizAnswer.objects.create(
            attempt=attempt, item=item, values=["0"], normalized="0", correct=earned == 1, credit=earned
        )
    return attempt


@pytest.fixture
def graded(make_quiz: Callable[..., Quiz], student: User) -> tuple[Quiz, QuizAttempt]:
    """Average policy; attempts of 1.5 and 1 points (one fully right item each): result 1.25."""
    quiz = make_quiz(count=2, kinds=("augen",), grading_policy=Quiz.GradingPolicy.AVERAGE)
    _attempt(quiz, student, 1, (1.0, 0.5))
    last = _attempt(quiz, student, 2, (1.0, 0.0))
    return quiz, last


def test_class_progress_shows_the_result_under_the_grading_policy(
    graded: tuple[Quiz, QuizAttempt], teacher: User, classroom: Classroom
) -> None:
    client = client_for(teacher)
    page = client.get(reverse("classrooms:progress", args=[classroom.pk])).content.decode()
    assert "1,25 / 2" in page  # the count of fully right items would say 1 / 2
    csv_text = client.get(reverse("classrooms:progress_csv", args=[classroom.pk])).content.decode("utf-8-sig")
    header, row = (line.split(";") for line in csv_text.splitlines()[:2])
    assert header[-1] == "Probe (Punkte von 2)" and row[-1] == "1,25"
    sheet = load_workbook(
        io.BytesIO(client.get(reverse("classrooms:progress_xlsx", args=[classroom.pk])).content)
    ).active
    assert sheet.cell(row=2, column=sheet.max_column).value == 1.25


def test_exports_write_numbers(graded: tuple[Quiz, QuizAttempt], teacher: User) -> None:
    quiz, _last = graded
    client = client_for(teacher)
    german = client.get(reverse("quizzes:export_csv", args=[quiz.pk])).content.decode("utf-8-sig").splitlines()
    header = german[0].split(";")
    first = german[1].split(";")
    assert first[header.index("Punkte")] == "1,5" and first[header.index("Aufgabe 2 Punkte")] == "0,5"
    comma = client.get(reverse("quizzes:export_csv", args=[quiz.pk]) + "?trenner=komma").content.decode("utf-8-sig")
    assert '"' not in comma.splitlines()[1] and ",1.5,2," in comma.splitlines()[1]
    sheet = load_workbook(io.BytesIO(client.get(reverse("quizzes:export_xlsx", args=[quiz.pk])).content)).active
    heads = [cell.value for cell in sheet[1]]
    points = [sheet.cell(row=r, column=heads.index("Punkte") + 1).value for r in (2, 3)]
    assert points == [1.5, 1] and all(isinstance(p, (int, float)) for p in points)  # SUM counts them


def test_part_credit_and_overrides_show_per_item(
    graded: tuple[Quiz, QuizAttempt], teacher: User, student: User
) -> None:
    quiz, last = graded
    client = client_for(teacher)
    results = client.get(reverse("quizzes:results", args=[quiz.pk])).content.decode()
    assert '<td class="cell-part">0,5' in results and "1,5 / 2" in results
    assert "1,25 / 2" in results  # the student's result under the average policy
    wrong = QuizAnswer.objects.get(attempt=last, item__position=2)
    grading_services.override_score(answer=wrong, teacher=teacher, credit=1, comment="mündlich richtig")
    results = client.get(reverse("quizzes:results", args=[quiz.pk])).content.decode()
    row = results[results.index(f"/ergebnisse/{last.pk}/") :]
    assert row.index("cell-right") < row.index("</tr>") and "cell-wrong" not in row[: row.index("</tr>")]
    csv_text = client.get(reverse("quizzes:export_csv", args=[quiz.pk])).content.decode("utf-8-sig").splitlines()
    header = csv_text[0].split(";")
    assert [line.split(";")[header.index("Aufgabe 2 Punkte")] for line in csv_text[1:]] == ["0,5", "1"]
    closed = timezone.now() - timedelta(minutes=1)
    Quiz.objects.filter(pk=quiz.pk).update(closes_at=closed, show_answers=Quiz.ShowAnswers.AFTER_CLOSE)
    mine = client_for(student).get(reverse("quizzes:my_result", args=[last.public_id])).content.decode()
    item_two = mine[mine.index('id="item-2"') :]
    assert "Richtig!" in item_two and "Leider nicht richtig" not in item_two and "1 / 1" in item_two
    first = QuizAttempt.objects.get(quiz=quiz, number=1)
    mine = client_for(student).get(reverse("quizzes:my_result", args=[first.public_id])).content.decode()
    item_two = mine[mine.index('id="item-2"') :]
    assert "Teilweise richtig: 0,5 von 1 Punkt." in item_two and "feedback-partial" in item_two

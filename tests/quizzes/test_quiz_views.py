"""Quiz pages: building, taking with htmx, late and malformed input, results, permissions."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from skatschule.classrooms.models import Classroom
from skatschule.quizzes.models import Quiz, QuizAnswer, QuizAttempt, QuizItem
from skatschule.quizzes.selectors.taking import answer_key
from skatschule.quizzes.services import attempts
from tests.people import client_for, make_user
from tests.present import present
from tests.responses import streamed

from .helpers import right_values, wrong_values

if TYPE_CHECKING:
    from django.test.client import _MonkeyPatchedWSGIResponse

pytestmark = pytest.mark.django_db
HTMX: dict[str, Any] = {"HTTP_HX_REQUEST": "true"}
GRADED = re.compile(r"feedback-(correct|wrong)|Richtige Antwort")


def _post_answer(
    client: Client, attempt: QuizAttempt, item: QuizItem, values: list[str], **extra: Any
) -> _MonkeyPatchedWSGIResponse:
    url = reverse("quizzes:save", kwargs={"public_id": attempt.public_id, "position": item.position})
    return client.post(url, {"answer": values}, **extra)


def test_builder_creates_a_quiz_from_mixed_sources(teacher: User, classroom: Classroom) -> None:
    client = client_for(teacher)
    page = client.get(reverse("quizzes:create") + f"?klasse={classroom.pk}")
    assert page.status_code == 200
    for slug in ("augen", "spielwert"):
        assert f'value="{slug}"' in page.content.decode()
    response = client.post(
        reverse("quizzes:create"),
        {
            "title": "Zählen und Werten",
            "classroom": classroom.pk,
            "kinds": ["augen"],
            "lessons": ["spitzen"],
            "rules": "4.1.2",
            "item_count": 6,
            "difficulty": 2,
            "variants": "random",
            "max_attempts": 2,
            "time_limit_minutes": 15,
            "show_answers": "after_submit",
        },
    )
    quiz = Quiz.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("quizzes:detail", kwargs={"pk": quiz.pk})
    assert quiz.items.count() == 6 and quiz.variants == "random" and quiz.time_limit_minutes == 15
    assert {"augen", "spitzen"} <= {item.kind for item in quiz.items.all()} | {"spitzen"}


@pytest.mark.parametrize(
    "change, message",
    [
        ({"kinds": [], "lessons": []}, "Bitte wähle"),
        ({"kinds": ["erfunden"]}, "erfunden"),
        ({"item_count": 0}, ""),
        ({"show_answers": "after_close"}, "braucht das Quiz ein Ende"),
        ({"opens_at": "2030-01-02T10:00", "closes_at": "2030-01-01T10:00"}, "nach dem Beginn"),
    ],
)
def test_builder_rejects_bad_input_with_400(
    teacher: User, classroom: Classroom, change: dict[str, object], message: str
) -> None:
    data = {
        "title": "X",
        "classroom": classroom.pk,
        "kinds": ["augen"],
        "item_count": 3,
        "difficulty": 1,
        "variants": "fixed",
        "max_attempts": 1,
        "show_answers": "after_submit",
    }
    data.update(change)
    response = client_for(teacher).post(reverse("quizzes:create"), data)
    assert response.status_code == 400
    page = response.content.decode()
    assert message in page
    assert not Quiz.objects.exists()
    # the errors open the form, where the reloaded page starts, and the keyboard starts there
    summary = page.index('id="form-errors"')
    assert summary < page.index('class="form-row"') and "autofocus" in page[page.rindex("<div", 0, summary) : summary]
    assert message in page[summary : page.index('class="form-row"')]


def test_builder_only_offers_own_classes(teacher: User, other_teacher: User, classroom: Classroom) -> None:
    from skatschule.classrooms.services import create_classroom

    create_classroom(teacher=other_teacher, name="Fremde Klasse")
    response = client_for(other_teacher).post(
        reverse("quizzes:create"),
        {
            "title": "X",
            "classroom": classroom.pk,
            "kinds": ["augen"],
            "item_count": 1,
            "difficulty": 1,
            "variants": "fixed",
            "max_attempts": 1,
            "show_answers": "after_submit",
        },
    )
    assert response.status_code == 400 and not Quiz.objects.exists()


def test_taking_with_htmx_saves_and_hides_grades(make_quiz: Callable[..., Quiz], student: User) -> None:
    quiz = make_quiz(count=3)
    client = client_for(student)
    start = client.post(reverse("quizzes:start", kwargs={"pk": quiz.pk}))
    attempt = QuizAttempt.objects.get()
    assert start["Location"] == reverse("quizzes:take", kwargs={"public_id": attempt.public_id})
    page = client.get(start["Location"]).content.decode()
    assert page.count('class="answer-form"') == 3
    item = present(quiz.items.first())
    response = _post_answer(client, attempt, item, wrong_values(quiz, item, student.pk), **HTMX)
    body = response.content.decode()
    assert response.status_code == 200 and "Gespeichert" in body
    assert "feedback-wrong" not in body and "Richtige Antwort" not in body  # policy: after submitting
    assert 'id="answered-count" hx-swap-oob="true"' in body
    response = _post_answer(client, attempt, item, right_values(quiz, item, student.pk), **HTMX)
    assert QuizAnswer.objects.get().correct
    # Reload: the saved answer is filled in, still nothing graded.
    page = client.get(reverse("quizzes:take", kwargs={"public_id": attempt.public_id})).content.decode()
    assert "Eine Antwort ist gespeichert" in page and not GRADED.search(page)


@pytest.mark.parametrize("variants", ["random", "fixed"])
def test_immediate_feedback_shows_the_grade_unless_the_key_is_shared(
    make_quiz: Callable[..., Quiz], student: User, variants: str
) -> None:
    """With random variants each student has own questions: feedback at once. A quiz "the same for
    everyone" keeps its key until it closes (issue 25 item 5): the answer is saved, nothing shown."""
    quiz = make_quiz(count=1, kinds=("augen",), show_answers="immediately", variants=variants)
    client = client_for(student)
    client.post(reverse("quizzes:start", kwargs={"pk": quiz.pk}))
    attempt = QuizAttempt.objects.get()
    item = present(quiz.items.first())
    body = _post_answer(client, attempt, item, right_values(quiz, item, student.pk), **HTMX).content.decode()
    assert QuizAnswer.objects.filter(attempt=attempt).count() == 1
    if variants == "random":
        assert "feedback-correct" in body and 'id="save-1" hx-swap-oob="true" disabled' in body
    else:
        assert "feedback-correct" not in body and "feedback-wrong" not in body


def test_without_htmx_save_redirects_back(make_quiz: Callable[..., Quiz], student: User) -> None:
    quiz = make_quiz(count=1)
    attempt = attempts.start_attempt(quiz=quiz, student=student)
    item = present(quiz.items.first())
    response = _post_answer(client_for(student), attempt, item, right_values(quiz, item, student.pk))
    assert response.status_code == 302 and response["Location"].endswith("#item-1")


@pytest.mark.parametrize("htmx", [False, True])
def test_malformed_answers_get_400_with_a_message(make_quiz: Callable[..., Quiz], student: User, htmx: bool) -> None:
    quiz = make_quiz(count=1, kinds=("augen",))
    attempt = attempts.start_attempt(quiz=quiz, student=student)
    response = _post_answer(
        client_for(student), attempt, present(quiz.items.first()), ["zwölf"], **(HTMX if htmx else {})
    )
    assert response.status_code == 400
    assert "keine ganze Zahl" in response.content.decode()
    assert not QuizAnswer.objects.exists()


def test_late_answers_get_409(make_quiz: Callable[..., Quiz], student: User) -> None:
    quiz = make_quiz(count=2, time_limit_minutes=5)
    attempt = attempts.start_attempt(quiz=quiz, student=student, now=timezone.now() - timedelta(minutes=6))
    client = client_for(student)
    item = present(quiz.items.first())
    response = _post_answer(client, attempt, item, right_values(quiz, item, student.pk), **HTMX)
    assert response.status_code == 409 and "Zeit ist abgelaufen" in response.content.decode()
    # The take page now shows the (automatically submitted) result.
    take = client.get(reverse("quizzes:take", kwargs={"public_id": attempt.public_id}))
    assert take.status_code == 302 and take["Location"].endswith("/ergebnis/")


def test_closed_quiz_rejects_answers_and_new_attempts(
    make_quiz: Callable[..., Quiz], student: User, teacher: User
) -> None:
    quiz = make_quiz(count=1)
    attempt = attempts.start_attempt(quiz=quiz, student=student)
    client_for(teacher).post(reverse("quizzes:close", kwargs={"pk": quiz.pk}))
    client = client_for(student)
    item = present(quiz.items.first())
    response = _post_answer(client, attempt, item, right_values(quiz, item, student.pk))
    assert response.status_code == 409
    assert client.post(reverse("quizzes:start", kwargs={"pk": quiz.pk})).status_code == 409
    attempt.refresh_from_db()
    assert attempt.submitted_at is not None


def test_double_submit_via_views(make_quiz: Callable[..., Quiz], student: User) -> None:
    quiz = make_quiz(count=2, variants="random")  # own questions: the score is shown at once
    client = client_for(student)
    client.post(reverse("quizzes:start", kwargs={"pk": quiz.pk}))
    attempt = QuizAttempt.objects.get()
    url = reverse("quizzes:submit", kwargs={"public_id": attempt.public_id})
    first, second = client.post(url), client.post(url)
    assert first.status_code == second.status_code == 302
    assert first["Location"] == second["Location"]
    attempt.refresh_from_db()
    assert attempt.submitted_at is not None and QuizAttempt.objects.count() == 1
    result = client.get(first["Location"]).content.decode()
    assert "Mein Ergebnis" in result and 'id="score"' in result


def test_result_hides_answers_until_the_quiz_closes(make_quiz: Callable[..., Quiz], student: User) -> None:
    quiz = make_quiz(
        count=1, kinds=("augen",), show_answers="after_close", closes_at=timezone.now() + timedelta(hours=1)
    )
    attempt = attempts.start_attempt(quiz=quiz, student=student)
    item = present(quiz.items.first())
    right = right_values(quiz, item, student.pk)
    attempts.save_answer(attempt=attempt, item=item, values=right)
    attempts.submit(attempt=attempt)
    client = client_for(student)
    page = client.get(reverse("quizzes:my_result", kwargs={"public_id": attempt.public_id})).content.decode()
    assert "nach dem Ende des Quiz" in page and not GRADED.search(page) and 'id="score"' not in page
    Quiz.objects.filter(pk=quiz.pk).update(closes_at=timezone.now() - timedelta(seconds=1), opens_at=None)
    page = client.get(reverse("quizzes:my_result", kwargs={"public_id": attempt.public_id})).content.decode()
    assert "feedback-correct" in page and 'id="score"' in page


def test_preview_stores_nothing(make_quiz: Callable[..., Quiz], teacher: User) -> None:
    quiz = make_quiz(count=2, kinds=("augen",))
    client = client_for(teacher)
    page = client.get(reverse("quizzes:preview", kwargs={"pk": quiz.pk})).content.decode()
    assert "Vorschau" in page and page.count('class="answer-form"') == 2
    item = present(quiz.items.first())
    url = reverse("quizzes:preview_answer", kwargs={"pk": quiz.pk, "position": 1})
    body = client.post(url, {"answer": right_values(quiz, item, teacher.pk)}, **HTMX).content.decode()
    assert "feedback-correct" in body
    assert client.post(url, {"answer": "x"}, **HTMX).status_code == 400
    assert not QuizAttempt.objects.exists() and not QuizAnswer.objects.exists()


def test_results_csv_and_print_sheet(
    make_quiz: Callable[..., Quiz], teacher: User, student: User, other_student: User
) -> None:
    quiz = make_quiz(count=2, kinds=("augen",), variants="random")
    for who in (student, other_student):
        attempt = attempts.start_attempt(quiz=quiz, student=who)
        for item in quiz.items.all():
            attempts.save_answer(attempt=attempt, item=item, values=right_values(quiz, item, who.pk))
        attempts.submit(attempt=attempt)
    client = client_for(teacher)
    page = client.get(reverse("quizzes:results", kwargs={"pk": quiz.pk})).content.decode()
    assert page.count('class="result-row"') == 2 and page.count('class="percent">100 %') == 2
    response = client.get(reverse("quizzes:results_csv", kwargs={"pk": quiz.pk}))
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(streamed(response).decode("utf-8-sig"))))
    assert rows[0][0] == "Benutzername" and sorted(r[0] for r in rows[1:]) == ["schueler", "schuelerin"]
    assert all(r[5] == "2" for r in rows[1:])
    sheet = client.get(reverse("quizzes:print", kwargs={"pk": quiz.pk})).content.decode()
    key = answer_key(quiz)
    assert sheet.count('class="key-entry"') == 2
    for entry in key:
        assert entry.answer in sheet
    detail = client.get(
        reverse("quizzes:attempt_detail", kwargs={"pk": quiz.pk, "attempt_pk": present(QuizAttempt.objects.first()).pk})
    )
    assert detail.status_code == 200 and "feedback-correct" in detail.content.decode()


def test_the_answer_is_not_in_the_take_page(make_quiz: Callable[..., Quiz], student: User) -> None:
    """No hidden fields but the CSRF token, nothing pre-checked, and a number answer nowhere in a form."""
    quiz = make_quiz(count=6, kinds=("augen", "spielwert", "reizen_hoehe"))
    attempt = attempts.start_attempt(quiz=quiz, student=student)
    page = client_for(student).get(reverse("quizzes:take", kwargs={"public_id": attempt.public_id})).content.decode()
    forms = re.findall(r'<form class="answer-form".*?</form>', page, re.S)
    assert len(forms) == 6
    for item, form in zip(quiz.items.all(), forms):
        assert re.findall(r'type="hidden" name="(\w+)"', form) == ["csrfmiddlewaretoken"]
        assert " checked" not in form and " selected" not in form
        assert re.search(r"answer|correct|solution|richtig", " ".join(re.findall(r"data-[\w-]+", form)), re.I) is None
        right = right_values(quiz, item, student.pk)
        assert f'value="{right[0]}"' not in form


# --- permissions: every view --------------------------------------------------------------------


def _teacher_urls(quiz: Quiz, attempt: QuizAttempt) -> list[tuple[str, str]]:
    return [
        ("get", reverse("quizzes:detail", kwargs={"pk": quiz.pk})),
        ("get", reverse("quizzes:preview", kwargs={"pk": quiz.pk})),
        ("post", reverse("quizzes:preview_answer", kwargs={"pk": quiz.pk, "position": 1})),
        ("get", reverse("quizzes:results", kwargs={"pk": quiz.pk})),
        ("get", reverse("quizzes:results_csv", kwargs={"pk": quiz.pk})),
        ("get", reverse("quizzes:attempt_detail", kwargs={"pk": quiz.pk, "attempt_pk": attempt.pk})),
        ("get", reverse("quizzes:print", kwargs={"pk": quiz.pk})),
        ("post", reverse("quizzes:close", kwargs={"pk": quiz.pk})),
    ]


def _student_urls(quiz: Quiz, attempt: QuizAttempt) -> list[tuple[str, str]]:
    return [
        ("get", reverse("quizzes:take", kwargs={"public_id": attempt.public_id})),
        ("post", reverse("quizzes:save", kwargs={"public_id": attempt.public_id, "position": 1})),
        ("get", reverse("quizzes:my_result", kwargs={"public_id": attempt.public_id})),
        ("post", reverse("quizzes:submit", kwargs={"public_id": attempt.public_id})),
    ]


def test_teachers_guessing_another_teachers_quiz_get_404(
    make_quiz: Callable[..., Quiz], student: User, other_teacher: User, other_student: User
) -> None:
    quiz = make_quiz(count=1)
    attempt = attempts.start_attempt(quiz=quiz, student=student)
    for user in (other_teacher, student, other_student):
        client = client_for(user)
        for method, url in _teacher_urls(quiz, attempt):
            assert getattr(client, method)(url).status_code == 404, (user, url)


def test_students_guessing_another_students_attempt_get_404(
    make_quiz: Callable[..., Quiz], student: User, other_student: User, teacher: User
) -> None:
    quiz = make_quiz(count=1)
    attempt = attempts.start_attempt(quiz=quiz, student=student)
    for user in (other_student, teacher):
        client = client_for(user)
        for method, url in _student_urls(quiz, attempt):
            assert getattr(client, method)(url, {"answer": "1"}).status_code == 404, (user, url)
    attempt.refresh_from_db()
    assert attempt.submitted_at is None and not QuizAnswer.objects.exists()


def test_quizzes_of_other_classes_are_404_for_students(make_quiz: Callable[..., Quiz], db: None) -> None:
    outsider = make_user("aussenseiter")
    quiz = make_quiz(count=1)
    client = client_for(outsider)
    assert client.get(reverse("quizzes:start", kwargs={"pk": quiz.pk})).status_code == 404
    assert client.post(reverse("quizzes:start", kwargs={"pk": quiz.pk})).status_code == 404
    assert "Probe" not in client.get(reverse("quizzes:index")).content.decode()
    assert client.get(reverse("quizzes:create")).status_code == 404


def test_forged_ids_are_404(make_quiz: Callable[..., Quiz], student: User, teacher: User) -> None:
    quiz = make_quiz(count=1)
    attempt = attempts.start_attempt(quiz=quiz, student=student)
    client = client_for(student)
    bad_item = reverse("quizzes:save", kwargs={"public_id": attempt.public_id, "position": 99})
    assert client.post(bad_item, {"answer": "1"}).status_code == 404
    assert client.get("/quiz/versuch/kein-uuid/").status_code == 404
    assert client_for(teacher).get(reverse("quizzes:detail", kwargs={"pk": 999999})).status_code == 404


def test_anonymous_visitors_go_to_login(make_quiz: Callable[..., Quiz], student: User) -> None:
    quiz = make_quiz(count=1)
    attempt = attempts.start_attempt(quiz=quiz, student=student)
    urls = [reverse("quizzes:index"), reverse("quizzes:create"), reverse("quizzes:start", kwargs={"pk": quiz.pk})]
    urls += [url for _, url in _teacher_urls(quiz, attempt) + _student_urls(quiz, attempt)]
    client = Client()
    for url in urls:
        response = client.get(url)
        assert response.status_code in (302, 405), url
        if response.status_code == 302:
            assert response["Location"].startswith(reverse("accounts:login") + "?next=")


def test_pages_in_english_and_nav_links(make_quiz: Callable[..., Quiz], student: User) -> None:
    make_quiz(count=1)
    client = client_for(student)
    client.cookies["django_language"] = "en"
    page = client.get(reverse("quizzes:index")).content.decode()
    assert "Quizzes of my classes" in page and 'href="/klassen/"' in page and ">Classes<" in page
    german = client_for(student).get(reverse("quizzes:index")).content.decode()
    assert "Quizze meiner Klassen" in german and 'href="/quiz/"' in german
    assert 'href="/quiz/"' not in Client().get("/").content.decode()  # not for anonymous visitors


def test_a_locked_database_is_retried_not_a_500(
    make_quiz: Callable[..., Quiz], student: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    from django.db import OperationalError

    quiz = make_quiz(count=1)
    attempt = attempts.start_attempt(quiz=quiz, student=student)
    real = attempts.submit
    calls = []

    def flaky(*, attempt: QuizAttempt, now: datetime | None = None) -> tuple[QuizAttempt, bool]:
        calls.append(1)
        if len(calls) == 1:
            raise OperationalError("database table is locked")
        return real(attempt=attempt, now=now)

    monkeypatch.setattr(attempts, "submit", flaky)
    response = client_for(student).post(reverse("quizzes:submit", kwargs={"public_id": attempt.public_id}))
    assert response.status_code == 302 and len(calls) == 2
    attempt.refresh_from_db()
    assert attempt.submitted_at is not None


def test_a_far_end_is_shown_with_its_date(make_quiz: Callable[..., Quiz], student: User, clock: object) -> None:
    """A quiz open for a week once said "Abgabe bis 18:00 Uhr (10091:23)": the day is named."""
    closes = timezone.now() + timedelta(days=7)
    quiz = make_quiz(count=1, closes_at=closes)
    attempt = attempts.start_attempt(quiz=quiz, student=student, now=timezone.now())
    page = client_for(student).get(reverse("quizzes:take", kwargs={"public_id": attempt.public_id})).content.decode()
    local = timezone.localtime(closes)
    assert f"Abgabe bis {local:%d.%m.%Y}, {local:%H:%M} Uhr" in page
    assert 'data-days="Tage"' in page and 'data-hours="Std."' in page  # the countdown's words for long spans

"""Issue 18, quizzes: drafts and publishing, copies, difficulty words, exports, the class list."""

from __future__ import annotations

import csv
import io
import xml.etree.ElementTree as ET
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone
from freezegun.api import TickingDateTimeFactory
from openpyxl import load_workbook

from skatschule.classrooms import services as classrooms
from skatschule.classrooms.models import Classroom
from skatschule.quizzes import errors, exports, publishing
from skatschule.quizzes.levels import level_choices, level_name
from skatschule.quizzes.models import Quiz
from skatschule.quizzes.services import attempts
from skatschule.training.registry import get_type
from skatschule.training.services.issuing import grade_answer
from tests.people import client_for, make_user
from tests.present import present
from tests.quizzes.helpers import right_values

pytestmark = pytest.mark.django_db

BUILD = {
    "title": "Zählen",
    "kinds": ["augen", "spielwert"],
    "item_count": 3,
    "difficulty": 1,
    "variants": "fixed",
    "max_attempts": 1,
    "show_answers": "after_submit",
}


def _build_in_builder(teacher: User, classroom: Classroom) -> Quiz:
    response = client_for(teacher).post(reverse("quizzes:create"), {**BUILD, "classroom": classroom.pk})
    assert response.status_code == 302
    return Quiz.objects.get(title="Zählen")


def _url(name: str, quiz: Quiz, **kw: object) -> str:
    return reverse(name, kwargs={"pk": quiz.pk, **kw})


# --- drafts and publishing ----------------------------------------------------------------------


def test_a_new_quiz_is_a_draft_the_class_does_not_see(teacher: User, classroom: Classroom, student: User) -> None:
    quiz = _build_in_builder(teacher, classroom)
    assert quiz.published_at is None and publishing.publication_state(quiz) == "draft"
    detail = client_for(teacher).get(_url("quizzes:detail", quiz)).content.decode()
    assert "Entwurf" in detail and "Jetzt veröffentlichen" in detail
    assert "Entwurf" in client_for(teacher).get(reverse("quizzes:index")).content.decode()
    client = client_for(student)
    assert "Zählen" not in client.get(reverse("quizzes:index")).content.decode()
    assert client.get(_url("quizzes:start", quiz)).status_code == 404
    assert client.post(_url("quizzes:start", quiz)).status_code == 404
    # the teacher previews it
    assert client_for(teacher).get(_url("quizzes:preview", quiz)).status_code == 200


def test_publish_now(teacher: User, classroom: Classroom, student: User) -> None:
    quiz = _build_in_builder(teacher, classroom)
    response = client_for(teacher).post(_url("quizzes:publish", quiz))
    assert response.status_code == 302
    quiz.refresh_from_db()
    assert publishing.publication_state(quiz) == "published"
    client = client_for(student)
    assert "Zählen" in client.get(reverse("quizzes:index")).content.decode()
    start = client.post(_url("quizzes:start", quiz))
    assert start.status_code == 302 and "/versuch/" in start["Location"]


def test_publish_at_a_set_time(
    teacher: User, classroom: Classroom, student: User, clock: TickingDateTimeFactory
) -> None:
    quiz = _build_in_builder(teacher, classroom)
    later = timezone.localtime() + timedelta(days=1)
    response = client_for(teacher).post(_url("quizzes:publish", quiz), {"at": later.strftime("%Y-%m-%dT%H:%M")})
    assert response.status_code == 302
    quiz.refresh_from_db()
    assert publishing.publication_state(quiz) == "scheduled"
    assert client_for(student).get(_url("quizzes:start", quiz)).status_code == 404
    assert publishing.publication_state(quiz, now=present(quiz.published_at) + timedelta(seconds=1)) == "published"
    Quiz.objects.filter(pk=quiz.pk).update(published_at=timezone.now() - timedelta(minutes=1))  # the time has come
    assert client_for(student).get(_url("quizzes:start", quiz)).status_code == 200


def test_publish_refuses_a_time_after_the_end(teacher: User, classroom: Classroom) -> None:
    quiz = _build_in_builder(teacher, classroom)
    quiz.closes_at = timezone.now() + timedelta(hours=1)
    quiz.save()
    with pytest.raises(errors.QuizError):
        publishing.publish(quiz=quiz, owner=teacher, at=timezone.now() + timedelta(hours=2))
    response = client_for(teacher).post(_url("quizzes:publish", quiz), {"at": "kaputt"})
    assert response.status_code == 400


def test_unpublish_only_before_anyone_started(teacher: User, classroom: Classroom, student: User) -> None:
    quiz = _build_in_builder(teacher, classroom)
    publishing.publish(quiz=quiz, owner=teacher)
    assert client_for(teacher).post(_url("quizzes:unpublish", quiz)).status_code == 302
    quiz.refresh_from_db()
    assert quiz.published_at is None
    publishing.publish(quiz=quiz, owner=teacher)
    attempts.start_attempt(quiz=quiz, student=student)
    response = client_for(teacher).post(_url("quizzes:unpublish", quiz))
    assert response.status_code == 400 and "begonnen" in response.content.decode()
    quiz.refresh_from_db()
    assert quiz.published_at is not None


def test_service_quizzes_are_published_unless_drafted(
    teacher: User, classroom: Classroom, make_quiz: Callable[..., Quiz]
) -> None:
    assert publishing.publication_state(make_quiz()) == "published"
    assert publishing.publication_state(make_quiz(draft=True)) == "draft"


@pytest.mark.parametrize(
    "name",
    [
        "quizzes:publish",
        "quizzes:unpublish",
        "quizzes:copy",
        "quizzes:export_csv",
        "quizzes:export_xlsx",
        "quizzes:export_moodle",
        "quizzes:exports",
    ],
)
def test_other_teachers_and_students_get_404(  # noqa: PLR0913 - a test helper over the budget since issue 27; to be split
    name: str, teacher: User, other_teacher: User, classroom: Classroom, student: User, make_quiz: Callable[..., Quiz]
) -> None:
    quiz = make_quiz()
    for user in (other_teacher, student):
        client = client_for(user)
        assert client.post(_url(name, quiz)).status_code in (404, 405)
        assert client.get(_url(name, quiz)).status_code in (404, 405)


# --- copies --------------------------------------------------------------------------------------


def test_copy_for_another_class_with_new_secrets(
    teacher: User, classroom: Classroom, make_quiz: Callable[..., Quiz]
) -> None:
    quiz = make_quiz(
        count=6,
        variants=Quiz.Variants.RANDOM,
        closes_at=timezone.now() + timedelta(days=1),  # any day
        show_answers=Quiz.ShowAnswers.AFTER_CLOSE,
        time_limit_minutes=15,
    )
    other_room = classrooms.create_classroom(teacher=teacher, name="Skat-AG 2027")
    client = client_for(teacher)
    page = client.get(_url("quizzes:copy", quiz)).content.decode()
    assert "Probe (Kopie)" in page
    response = client.post(_url("quizzes:copy", quiz), {"title": "Probe 2027", "classroom": other_room.pk})
    assert response.status_code == 302
    copy = Quiz.objects.get(title="Probe 2027")
    assert response["Location"] == _url("quizzes:detail", copy)
    assert copy.classroom == other_room and copy.published_at is None and copy.secret != quiz.secret
    assert (copy.variants, copy.time_limit_minutes, copy.difficulty) == (quiz.variants, 15, quiz.difficulty)
    assert copy.closes_at is None and copy.show_answers == Quiz.ShowAnswers.AFTER_SUBMIT
    old = list(quiz.items.values_list("position", "kind", "difficulty", "seed"))
    new = list(copy.items.values_list("position", "kind", "difficulty", "seed"))
    assert [o[:3] for o in old] == [n[:3] for n in new]
    assert [o[3] for o in old] != [n[3] for n in new]
    assert not copy.attempts.exists()


def test_copy_refuses_someone_elses_class(
    teacher: User, other_teacher: User, classroom: Classroom, make_quiz: Callable[..., Quiz]
) -> None:
    quiz = make_quiz()
    foreign = classrooms.create_classroom(teacher=other_teacher, name="Fremd")
    response = client_for(teacher).post(_url("quizzes:copy", quiz), {"title": "X", "classroom": foreign.pk})
    assert response.status_code == 400 and not Quiz.objects.filter(title="X").exists()


# --- difficulty in words ---------------------------------------------------------------------------


def test_difficulty_is_named_where_the_teacher_picks_it(
    teacher: User, classroom: Classroom, make_quiz: Callable[..., Quiz]
) -> None:
    assert [label for _, label in level_choices(3)] == ["leicht", "mittel", "schwer"]
    assert level_name(4) == "Stufe 4"
    page = client_for(teacher).get(reverse("quizzes:create")).content.decode()
    for n, word in ((1, "leicht"), (2, "mittel"), (3, "schwer")):
        assert f'<option value="{n}"' in page and f">{word}</option>" in page
    quiz = make_quiz(difficulty=2)
    detail = client_for(teacher).get(_url("quizzes:detail", quiz)).content.decode()
    assert "mittel" in detail and "Stufe 2" not in detail


# --- exports ----------------------------------------------------------------------------------------


@pytest.fixture
def answered_quiz(teacher: User, classroom: Classroom, student: User, make_quiz: Callable[..., Quiz]) -> Quiz:
    """A fixed quiz with one submitted attempt by a student whose name looks like a formula."""
    quiz = make_quiz(count=2, kinds=("augen",))
    evil = make_user("=HYPERLINK(1)")
    classrooms.join(student=evil, raw_code=classroom.join_code)
    for who in (student, evil):
        attempt = attempts.start_attempt(quiz=quiz, student=who)
        item = quiz.items.get(position=1)
        attempts.save_answer(attempt=attempt, item=item, values=right_values(quiz, item, who.pk))
        attempts.submit(attempt=attempt)
    return quiz


def test_csv_is_semicolon_with_bom_under_german(teacher: User, answered_quiz: Quiz) -> None:
    response = client_for(teacher).get(_url("quizzes:export_csv", answered_quiz))
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    raw = response.content
    assert raw.startswith("\ufeff".encode())
    rows = list(csv.reader(io.StringIO(raw.decode("utf-8-sig")), delimiter=";"))
    assert rows[0][0] == "Benutzername" and len(rows) == 3
    names = {row[0] for row in rows[1:]}
    assert names == {"schueler", "'=HYPERLINK(1)"}
    assert all(row[5] == "1" for row in rows[1:])  # one point each


def test_csv_separator_by_choice_and_language(teacher: User, answered_quiz: Quiz) -> None:
    client = client_for(teacher)
    comma = client.get(_url("quizzes:export_csv", answered_quiz) + "?trenner=komma").content.decode("utf-8-sig")
    assert next(csv.reader(io.StringIO(comma)))[:2] == ["Benutzername", "Versuch"]
    client.cookies["django_language"] = "en"
    english = client.get(_url("quizzes:export_csv", answered_quiz)).content.decode("utf-8-sig")
    assert english.startswith("Username,Attempt,")
    assert client.get(_url("quizzes:export_csv", answered_quiz) + "?trenner=tab").status_code == 400


def test_xlsx_opens_and_is_guarded(teacher: User, answered_quiz: Quiz) -> None:
    response = client_for(teacher).get(_url("quizzes:export_xlsx", answered_quiz))
    assert response.status_code == 200 and "spreadsheetml" in response["Content-Type"]
    assert 'filename="' in response["Content-Disposition"] and ".xlsx" in response["Content-Disposition"]
    sheet = load_workbook(io.BytesIO(response.content)).active
    rows = list(sheet.iter_rows(values_only=True))
    assert rows[0][0] == "Benutzername" and sheet.title == "Ergebnisse"
    by_name = {row[0]: row for row in rows[1:]}
    assert set(by_name) == {"schueler", "'=HYPERLINK(1)"}
    assert by_name["schueler"][5] == 1  # numbers stay numbers
    cells = [c for c in sheet["A"] if c.value == "'=HYPERLINK(1)"]
    assert cells and cells[0].data_type == "s"


def test_one_guard_for_every_export() -> None:
    """Formulas get an apostrophe, plain numbers and text stay; the quiz CSV uses the same guard."""
    from skatschule.core.spreadsheets import guard

    guarded = {
        "=1+1": "'=1+1",
        "+49 30": "'+49 30",
        "-x": "'-x",
        "@SUM(A1)": "'@SUM(A1)",
        "\tx": "'\tx",
        "harmlos": "harmlos",
        "-12": "-12",
        "7": "7",
    }
    for cell, expected in guarded.items():
        assert guard(cell) == expected


def test_moodle_xml_has_the_fixed_variants_with_engine_answers(
    teacher: User, classroom: Classroom, make_quiz: Callable[..., Quiz]
) -> None:
    quiz = make_quiz(count=4, kinds=("augen", "stich", "ueberreizt", "rangfolge"))
    response = client_for(teacher).get(_url("quizzes:export_moodle", quiz))
    assert response.status_code == 200 and "xml" in response["Content-Type"]
    text = response.content.decode()
    assert "Engine" in text and "Skatschule" in text  # the note on what stays on Skatschule
    root = ET.fromstring(response.content)
    assert root.tag == "quiz"
    questions = [q for q in root.findall("question") if q.get("type") != "category"]
    widgets = {i.position: present(get_type(i.kind)).generate(i.difficulty, i.seed).widget for i in quiz.items.all()}
    skipped = [p for p, w in sorted(widgets.items()) if w not in exports.MOODLE_TYPES]
    assert len(questions) == 4 - len(skipped)
    if skipped:  # card order has no Moodle type: named in a comment
        assert f"Aufgaben: {', '.join(map(str, skipped))}" in text
    for element in questions:
        position = int(present(present(element.find("name/text")).text).split(".")[0])
        item = quiz.items.get(position=position)
        kind = present(get_type(item.kind))
        question = kind.generate(item.difficulty, item.seed)
        right = kind.correct_answer(question)
        assert grade_answer(question=question, values=right).correct
        answers = element.findall("answer")
        if item.kind == "augen":
            assert element.get("type") == "numerical" and present(answers[0].find("text")).text == right[0]
        elif item.kind == "stich":
            assert element.get("type") == "multichoice" and present(element.find("single")).text == "true"
            winners = [a for a in answers if a.get("fraction") == "100"]
            assert len(winners) == 1 and len(answers) == len(question.options)
        else:
            assert present(element.find("single")).text == "false"
            positive = [a for a in answers if not present(a.get("fraction")).startswith("-")]
            assert len(positive) == len(right)


def test_exports_page_states_what_moodle_cannot_do(
    teacher: User, classroom: Classroom, make_quiz: Callable[..., Quiz]
) -> None:
    quiz = make_quiz(count=2, kinds=("augen", "rangfolge"))
    page = client_for(teacher).get(_url("quizzes:exports", quiz)).content.decode()
    assert 'id="moodle-note"' in page and "nur in der Skatschule" in page
    skipped = exports.skipped_positions(quiz)
    assert ('id="moodle-skipped"' in page) == bool(skipped)


# --- the student's quiz page after joining -------------------------------------------------------


def test_quiz_page_names_each_class_and_its_quizzes(
    teacher: User, classroom: Classroom, student: User, make_quiz: Callable[..., Quiz]
) -> None:
    client = client_for(student)
    page = client.get(reverse("quizzes:index")).content.decode()
    assert "Skat-AG" in page and "noch keins" in page and "Einer Klasse beitreten" not in page
    make_quiz(title="Erste Runde")
    make_quiz(title="Entwurf X", draft=True)
    page = client.get(reverse("quizzes:index")).content.decode()
    assert "Erste Runde" in page and "Entwurf X" not in page and "noch keins" not in page


def test_quiz_page_without_a_class_invites_to_join(db: None) -> None:
    page = client_for(make_user("neu")).get(reverse("quizzes:index")).content.decode()
    assert "Einer Klasse beitreten" in page and "noch keins" not in page


def test_new_pages_in_english(teacher: User, classroom: Classroom, make_quiz: Callable[..., Quiz]) -> None:
    client = client_for(teacher)
    client.cookies["django_language"] = "en"
    quiz = make_quiz(draft=True)
    builder = client.get(reverse("quizzes:create")).content.decode()
    assert ">easy</option>" in builder and ">hard</option>" in builder
    detail = client.get(_url("quizzes:detail", quiz)).content.decode()
    assert "Publish now" in detail and "Jetzt veröffentlichen" not in detail
    assert "Download Moodle XML" in client.get(_url("quizzes:exports", quiz)).content.decode()

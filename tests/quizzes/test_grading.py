"""Issue 28 §2: partial credit, grading policies and teachers' overrides.

The right options come from the exercise types (the engine); the tests pick seeds whose questions
have the shape they need (several right options, some wrong ones) by asking the engine.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import translation

from skatschule.classrooms.models import Classroom
from skatschule.exercises.base import Question
from skatschule.quizzes import grading, questions
from skatschule.quizzes.errors import QuizClosed, QuizError
from skatschule.quizzes.exports import csv_rows
from skatschule.quizzes.models import Quiz, QuizAnswer, QuizAttempt, ScoreOverride
from skatschule.quizzes.selectors.analysis import item_stats
from skatschule.quizzes.selectors.results import graded_result, overrides_of, results_page, student_grades
from skatschule.quizzes.selectors.taking import answered_count, answers_by_item
from skatschule.quizzes.services import attempts, authoring
from skatschule.quizzes.services import grading as grading_services
from tests.people import client_for

from .helpers import right_values, wrong_values

pytestmark = pytest.mark.django_db

RMW = Quiz.PartialCredit.RIGHT_MINUS_WRONG


def _seed_where(kind: str, level: int, wanted: Callable[[Question, list[str]], bool]) -> int:
    """The first seed whose question and engine key satisfy ``wanted(question, key)``."""
    kind_type = questions.exercise_type(kind)
    for seed in range(500):
        question = kind_type.generate(level, seed)
        if wanted(question, kind_type.correct_answer(question)):
            return seed
    raise AssertionError(f"no seed for {kind}")


def _one_item_quiz(make_quiz: Callable[..., Quiz], kind: str, level: int, seed: int, **options: Any) -> Quiz:
    quiz = make_quiz(count=1, kinds=(kind,), difficulty=level, **options)
    quiz.items.update(seed=seed)
    return quiz


def _answer(quiz: Quiz, student: User, values: list[str]) -> QuizAnswer:
    attempt = attempts.start_attempt(quiz=quiz, student=student)
    saved = attempts.save_answer(attempt=attempt, item=quiz.items.get(), values=values)
    return saved.answer


def _several_right_and_wrong(question: Question, key: list[str]) -> bool:
    options = [o.value for o in question.options]
    return len(key) >= 2 and len(options) - len(key) >= 1


@pytest.mark.parametrize("kind", ["zugeben", "ueberreizt"])
def test_multi_select_right_minus_wrong(
    make_quiz: Callable[..., Quiz], student: User, other_student: User, kind: str
) -> None:
    seed = _seed_where(kind, 1, _several_right_and_wrong)
    strict = _one_item_quiz(make_quiz, kind, 1, seed)
    partial = _one_item_quiz(make_quiz, kind, 1, seed, partial_credit=RMW)
    question = questions.question_for(partial, partial.items.get(), student.pk)
    key = right_values(partial, partial.items.get(), student.pk)
    wrong = next(o.value for o in question.options if o.value not in key)

    # one right pick of n right options: 1/n under right-minus-wrong, nothing all-or-nothing
    assert _answer(strict, student, key[:1]).credit == 0
    answer = _answer(partial, student, key[:1])
    assert not answer.correct and answer.credit == pytest.approx(1 / len(key))
    # all right picks and one wrong: (n - 1) / n; one right and one wrong: 0 (floored, never negative)
    answer = _answer(partial, student, [*key, wrong])
    assert answer.credit == pytest.approx((len(key) - 1) / len(key))
    answer = _answer(partial, other_student, [key[0], wrong])
    assert answer.credit == 0
    assert _answer(partial, other_student, [wrong]).credit == 0
    assert _answer(partial, other_student, key).credit == 1


def test_multi_part_case_earns_a_share_per_right_part(make_quiz: Callable[..., Quiz], student: User) -> None:
    seed = _seed_where("fall", 2, lambda q, key: q.widget == "case" and len(key) == 2)
    quiz = _one_item_quiz(make_quiz, "fall", 2, seed, partial_credit=RMW)
    choice, entry = right_values(quiz, quiz.items.get(), student.pk)
    question = questions.question_for(quiz, quiz.items.get(), student.pk)
    other_choice = next(o.value for o in question.options if o.value != choice)
    assert _answer(quiz, student, [choice, str(int(entry) + 1)]).credit == 0.5
    assert _answer(quiz, student, [other_choice, entry]).credit == 0.5
    assert _answer(quiz, student, [other_choice, str(int(entry) + 1)]).credit == 0
    assert _answer(quiz, student, [choice, entry]).credit == 1


def test_partial_credit_sums_into_the_attempts_points(make_quiz: Callable[..., Quiz], student: User) -> None:
    seed = _seed_where("zugeben", 1, _several_right_and_wrong)
    quiz = _one_item_quiz(make_quiz, "zugeben", 1, seed, partial_credit=RMW)
    key = right_values(quiz, quiz.items.get(), student.pk)
    attempt = attempts.start_attempt(quiz=quiz, student=student)
    attempts.save_answer(attempt=attempt, item=quiz.items.get(), values=key[:1])
    attempt, _ = attempts.submit(attempt=attempt)
    assert attempt.score == 0  # nothing fully right
    assert attempt.points == pytest.approx(1 / len(key))
    assert graded_result(quiz, student_id=student.pk) == pytest.approx(1 / len(key))


def test_partial_credit_is_locked_once_someone_started(
    make_quiz: Callable[..., Quiz], teacher: User, student: User
) -> None:
    quiz = make_quiz(count=1, kinds=("zugeben",))
    attempts.start_attempt(quiz=quiz, student=student)
    with pytest.raises(QuizError):
        authoring.update_quiz(quiz=quiz, editor=teacher, changes=authoring.QuizChanges(partial_credit=RMW))
    assert Quiz.objects.get(pk=quiz.pk).partial_credit == Quiz.PartialCredit.ALL_OR_NOTHING
    with pytest.raises(QuizError):
        authoring.update_quiz(quiz=quiz, editor=teacher, changes=authoring.QuizChanges(grading_policy="median"))


def _attempt_with(quiz: Quiz, student: User, rights: int) -> QuizAttempt:
    """Submit an attempt with the first ``rights`` items right and the others wrong."""
    attempt = attempts.start_attempt(quiz=quiz, student=student)
    for i, item in enumerate(quiz.items.order_by("position")):
        values = questions.question_for(quiz, item, student.pk, attempt.number)
        kind = questions.exercise_type(item.kind)
        right = kind.correct_answer(values)
        answer = right if i < rights else _wrong_for(values, right)
        attempts.save_answer(attempt=attempt, item=item, values=answer)
    return attempts.submit(attempt=attempt)[0]


def _wrong_for(question: Question, right: list[str]) -> list[str]:
    return [str(int(right[0]) + 1)]  # the number items of these tests (augen, spielwert)


def test_grading_policy_picks_the_result_and_a_change_of_policy_changes_it(
    make_quiz: Callable[..., Quiz], teacher: User, student: User
) -> None:
    quiz = make_quiz(count=3, kinds=("augen",), variants=Quiz.Variants.RANDOM, max_attempts=3)
    for rights in (2, 3, 1):
        _attempt_with(quiz, student, rights)
    expected = {"highest": 3, "last": 1, "first": 2, "average": 2}
    for policy, result in expected.items():
        quiz = authoring.update_quiz(
            quiz=quiz, editor=teacher, changes=authoring.QuizChanges(grading_policy=policy)
        )  # allowed while attempts exist
        assert graded_result(quiz, student_id=student.pk) == result
        (grade,) = student_grades(quiz)
        assert grade.attempts == (2, 3, 1) and grade.result == result


def test_policy_result_average_and_nothing() -> None:
    assert grading.policy_result([], "highest") is None
    assert grading.policy_result([1, 2, 2], "average") == 1.67
    with translation.override("de"):  # the language a previous test's request left active is no default
        assert grading.shown_points(2.0) == "2" and grading.shown_points(0.5) == "0,5"
        assert grading.shown_points(None) == "–"
    with translation.override("en"):
        assert grading.shown_points(0.5) == "0.5" and grading.shown_points(8.3333) == "8.33"


def _submitted_answer(
    make_quiz: Callable[..., Quiz], student: User, right: bool = False, variants: str = "fixed"
) -> QuizAnswer:
    quiz = make_quiz(count=1, kinds=("augen",), variants=variants)
    item = quiz.items.get()
    attempt = attempts.start_attempt(quiz=quiz, student=student)
    values = right_values(quiz, item, student.pk) if right else wrong_values(quiz, item, student.pk)
    answer = attempts.save_answer(attempt=attempt, item=item, values=values).answer
    attempts.submit(attempt=attempt)
    answer.refresh_from_db()
    return answer


def test_override_changes_points_and_keeps_every_change(
    make_quiz: Callable[..., Quiz], teacher: User, student: User
) -> None:
    answer = _submitted_answer(make_quiz, student)
    assert answer.attempt.points == 0
    grading_services.override_score(answer=answer, teacher=teacher, credit=0.5, comment="Rechenweg stimmt")
    grading_services.override_score(answer=answer, teacher=teacher, credit=1, comment="Doch voll")
    answer.refresh_from_db()
    assert answer.override_credit == 1 and answer.override_comment == "Doch voll"
    assert QuizAttempt.objects.get(pk=answer.attempt_id).points == 1
    history = list(ScoreOverride.objects.filter(answer=answer).values_list("credit", "comment", "by"))
    assert history == [(0.5, "Rechenweg stimmt", teacher.pk), (1.0, "Doch voll", teacher.pk)]
    assert graded_result(answer.attempt.quiz, student_id=student.pk) == 1


def test_override_refuses_bad_input_and_other_teachers(
    make_quiz: Callable[..., Quiz], teacher: User, other_teacher: User, student: User
) -> None:
    from skatschule.core.notfound import NotFound

    answer = _submitted_answer(make_quiz, student)
    for credit in (-0.1, 1.5, float("nan")):
        with pytest.raises(QuizError):
            grading_services.override_score(answer=answer, teacher=teacher, credit=credit, comment="")
    with pytest.raises(QuizError):
        grading_services.override_score(answer=answer, teacher=teacher, credit=1, comment="x" * 1001)
    with pytest.raises(NotFound):
        grading_services.override_score(answer=answer, teacher=other_teacher, credit=1, comment="")
    assert not ScoreOverride.objects.exists()


def test_override_of_an_open_attempt_is_refused(make_quiz: Callable[..., Quiz], teacher: User, student: User) -> None:
    quiz = make_quiz(count=1, kinds=("augen",))
    item = quiz.items.get()
    attempt = attempts.start_attempt(quiz=quiz, student=student)
    answer = attempts.save_answer(attempt=attempt, item=item, values=wrong_values(quiz, item, student.pk)).answer
    with pytest.raises(QuizClosed):
        grading_services.override_score(answer=answer, teacher=teacher, credit=1, comment="")


def test_override_page_flow_and_the_student_sees_the_comment(
    make_quiz: Callable[..., Quiz], teacher: User, other_teacher: User, student: User
) -> None:
    # random variants: the student's review is open at once (a fixed quiz opens it when it closes)
    answer = _submitted_answer(make_quiz, student, variants="random")
    quiz, attempt = answer.attempt.quiz, answer.attempt
    url = f"/quiz/{quiz.pk}/ergebnisse/{attempt.pk}/aufgabe/1/punkte/"
    teacher_client = client_for(teacher)
    page = teacher_client.get(f"/quiz/{quiz.pk}/ergebnisse/{attempt.pk}/").content.decode()
    assert url in page
    assert teacher_client.post(url, {"credit": "2", "comment": ""}).status_code == 400
    assert teacher_client.post(url, {"credit": "eins"}).status_code == 400
    assert (
        teacher_client.post(f"/quiz/{quiz.pk}/ergebnisse/{attempt.pk}/aufgabe/9/punkte/", {"credit": "1"}).status_code
        == 404
    )
    assert client_for(other_teacher).post(url, {"credit": "1"}).status_code == 404
    assert client_for(student).post(url, {"credit": "1"}).status_code == 404
    response = teacher_client.post(url, {"credit": "0.5", "comment": "Halbe Punkte für den Ansatz"})
    assert response.status_code == 302
    student_page = client_for(student).get(f"/quiz/versuch/{attempt.public_id}/ergebnis/").content.decode()
    assert "Halbe Punkte für den Ansatz" in student_page
    assert "0,5 / 1" in student_page
    results = teacher_client.get(f"/quiz/{quiz.pk}/ergebnisse/").content.decode()
    assert "0,5 / 1" in results


# --- item analysis ---

PATTERN = [(1, 1, 1), (1, 1, 0), (1, 0, 1), (1, 0, 0), (0, 1, 0), (0, 0, 0)]
"""Which items each of six students gets right; attempts rank 3, 2, 2, 1, 1, 0 points."""


def _class_of_six(make_quiz: Callable[..., Quiz], classroom: Classroom) -> tuple[Quiz, list[User]]:
    from skatschule.classrooms import services as classrooms
    from tests.people import make_user

    quiz = make_quiz(count=3, kinds=("augen",))
    items = list(quiz.items.order_by("position"))
    students = []
    for n, pattern in enumerate(PATTERN):
        person = make_user(f"schueler{n}")
        classrooms.join(student=person, raw_code=classroom.join_code)
        attempt = attempts.start_attempt(quiz=quiz, student=person)
        for item, right in zip(items, pattern):
            values = right_values(quiz, item, person.pk) if right else wrong_values(quiz, item, person.pk)
            attempts.save_answer(attempt=attempt, item=item, values=values)
        attempts.submit(attempt=attempt)
        students.append(person)
    return quiz, students


def test_facility_and_discrimination(make_quiz: Callable[..., Quiz], classroom: Classroom, teacher: User) -> None:
    quiz, students = _class_of_six(make_quiz, classroom)
    stats = item_stats(quiz)
    # facility: share of the points; discrimination: top two attempts minus bottom two
    assert [s.facility_percent for s in stats] == [67, 50, 33]
    assert [s.discrimination for s in stats] == [1.0, 0.5, 0.5]
    assert all(s.wrong for s in stats)
    # an override counts at once (the cached counts are keyed on the overrides too)
    last = QuizAnswer.objects.get(attempt__student=students[-1], item__position=1)
    grading_services.override_score(answer=last, teacher=teacher, credit=1, comment="")
    assert item_stats(quiz)[0].facility_percent == 83

    page = client_for(teacher).get(f"/quiz/{quiz.pk}/ergebnisse/").content.decode()
    assert "Trennschärfe" in page and "+0,50" in page
    csv_text = client_for(teacher).get(f"/quiz/{quiz.pk}/export/aufgabenanalyse.csv").content.decode("utf-8-sig")
    lines = csv_text.splitlines()
    assert lines[0].split(";")[:5] == ["Aufgabe", "Art", "Beantwortet", "Leichtigkeit (%)", "Trennschärfe"]
    assert lines[2].split(";")[3:5] == ["50", "0,5"]
    xlsx = client_for(teacher).get(f"/quiz/{quiz.pk}/export/aufgabenanalyse.xlsx")
    assert xlsx.status_code == 200 and xlsx.content[:2] == b"PK"
    assert client_for(students[0]).get(f"/quiz/{quiz.pk}/export/aufgabenanalyse.csv").status_code == 404


def test_discrimination_needs_three_attempts(make_quiz: Callable[..., Quiz], student: User) -> None:
    answer = _submitted_answer(make_quiz, student, right=True)
    (stat,) = item_stats(answer.attempt.quiz)
    assert stat.facility_percent == 100 and stat.discrimination is None


# --- grades of items left unanswered (Moodle's manual grading grades any question of an attempt) ---


def _half_answered(make_quiz: Callable[..., Quiz], student: User, variants: str = "fixed") -> QuizAttempt:
    """A submitted attempt with item 1 answered right and item 2 left unanswered."""
    quiz = make_quiz(count=2, kinds=("augen",), variants=variants)
    first = quiz.items.get(position=1)
    attempt = attempts.start_attempt(quiz=quiz, student=student)
    attempts.save_answer(attempt=attempt, item=first, values=right_values(quiz, first, student.pk))
    attempt, _done = attempts.submit(attempt=attempt)
    assert attempt.points == 1
    return attempt


def test_teacher_grades_an_unanswered_item_and_every_result_shows_it(
    make_quiz: Callable[..., Quiz], teacher: User, student: User
) -> None:
    from skatschule.accounts.deletion import export_account

    # random variants: the student's review is open at once
    attempt = _half_answered(make_quiz, student, variants="random")
    quiz = attempt.quiz
    url = f"/quiz/{quiz.pk}/ergebnisse/{attempt.pk}/aufgabe/2/punkte/"
    teacher_client = client_for(teacher)
    detail = teacher_client.get(f"/quiz/{quiz.pk}/ergebnisse/{attempt.pk}/").content.decode()
    assert url in detail  # the form is offered for the unanswered item too
    response = teacher_client.post(url, {"credit": "0.5", "comment": "Mündlich halb richtig"})
    assert response.status_code == 302
    assert teacher_client.post(url, {"credit": "0.75", "comment": "Mündlich fast richtig"}).status_code == 302

    row = QuizAnswer.objects.get(attempt=attempt, item__position=2)
    assert not row.answered and row.values == [] and row.credit == 0 and not row.correct
    assert row.override_credit == 0.75 and row.override_comment == "Mündlich fast richtig"
    assert [o.credit for o in overrides_of(row)] == [0.5, 0.75]
    assert QuizAttempt.objects.get(pk=attempt.pk).points == 1.75
    assert graded_result(quiz, student_id=student.pk) == 1.75

    # the results table, the CSV and the item analysis: the points count, the item stays unanswered
    results = teacher_client.get(f"/quiz/{quiz.pk}/ergebnisse/").content.decode()
    assert "1,75 / 2" in results
    header, line = csv_rows(quiz)
    assert line[header.index("Punkte")] == 1.75
    # no answer, but the teacher's grade shows (issue 34 §6)
    assert line[header.index("Aufgabe 2 Antwort") : header.index("Aufgabe 2 Punkte") + 1] == ["", 0.75]
    _shown, (result_line,) = results_page(quiz)
    assert result_line.cells == (1.0, 0.75)
    assert "0,75" in results.split('class="cell-part"')[1][:10]
    second = item_stats(quiz)[1]
    assert second.answered == 0 and second.wrong == [] and second.facility_percent == 75
    assert answers_by_item(attempt).keys() == {quiz.items.get(position=1).pk}
    assert answered_count(attempt) == 1
    assert [a["position"] for a in export_account(user=student)["quiz_attempts"][0]["answers"]] == [1]

    # the student sees the grade and the comment, and that the item was not answered
    student_page = client_for(student).get(f"/quiz/versuch/{attempt.public_id}/ergebnis/").content.decode()
    item_two = student_page[student_page.index('id="item-2"') :]
    assert "Nicht beantwortet." in item_two and "Deine Antwort" not in item_two
    assert "0,75 / 1" in item_two and "Mündlich fast richtig" in item_two
    assert "1,75 / 2" in student_page


def test_only_the_quizs_teacher_grades_an_unanswered_item_and_only_after_submission(
    make_quiz: Callable[..., Quiz], teacher: User, other_teacher: User, student: User
) -> None:
    from skatschule.core.notfound import NotFound

    attempt = _half_answered(make_quiz, student)
    quiz = attempt.quiz
    second = quiz.items.get(position=2)
    url = f"/quiz/{quiz.pk}/ergebnisse/{attempt.pk}/aufgabe/2/punkte/"
    assert client_for(student).post(url, {"credit": "1"}).status_code == 404
    assert client_for(other_teacher).post(url, {"credit": "1"}).status_code == 404
    assert client_for(teacher).post(url, {"credit": "1.5"}).status_code == 400
    with pytest.raises(NotFound):
        grading_services.override_item_score(attempt=attempt, item=second, teacher=student, credit=1, comment="")
    with pytest.raises(QuizError):
        grading_services.override_item_score(
            attempt=attempt, item=second, teacher=teacher, credit=1, comment="x" * 1001
        )
    other_quiz = make_quiz(count=1, kinds=("augen",))
    with pytest.raises(NotFound):  # an item of another quiz
        grading_services.override_item_score(
            attempt=attempt, item=other_quiz.items.get(), teacher=teacher, credit=1, comment=""
        )
    # an open attempt: the student may still answer, so no grade (and no row) yet
    running = attempts.start_attempt(quiz=make_quiz(count=1, kinds=("augen",)), student=student)
    with pytest.raises(QuizClosed):
        grading_services.override_item_score(
            attempt=running, item=running.quiz.items.get(), teacher=teacher, credit=1, comment=""
        )
    assert not QuizAnswer.objects.filter(answered=False).exists() and not ScoreOverride.objects.exists()
    assert QuizAttempt.objects.get(pk=attempt.pk).points == 1


def test_a_grade_of_an_unanswered_item_shows_nothing_before_the_answers_are_released(
    make_quiz: Callable[..., Quiz], teacher: User, student: User
) -> None:
    """Fixed items share one key: the review waits for the quiz's end. A grade of the unanswered
    item must not show the student its points, the comment or the right answer before then."""
    attempt = _half_answered(make_quiz, student)
    second = attempt.quiz.items.get(position=2)
    page_url = f"/quiz/versuch/{attempt.public_id}/ergebnis/"

    def page() -> str:  # the student's result page, without its per-response CSRF token
        html = client_for(student).get(page_url).content.decode()
        return re.sub(r'("X-CSRFToken": "|name="csrfmiddlewaretoken" value=")[^"]+', r"\1", html)

    before = page()
    grading_services.override_item_score(
        attempt=attempt, item=second, teacher=teacher, credit=1, comment="Die Lösung wäre gewesen: …"
    )
    after = page()
    assert QuizAttempt.objects.get(pk=attempt.pk).points == 2
    assert after == before
    assert "Die Lösung wäre gewesen" not in after and "Richtige Antwort" not in after
    assert "Punkte für diese Aufgabe" not in after and 'id="score"' not in after

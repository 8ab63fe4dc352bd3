"""Issue 28 §2: the live class round. Services first, then the pages (answers hidden until the reveal)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from skatschule.core.notfound import NotFound
from skatschule.quizzes.errors import QuizClosed, QuizError
from skatschule.quizzes.models import LiveSession, Quiz, QuizAnswer, QuizItem
from skatschule.quizzes.selectors.live import live_attempt, live_count, live_distribution
from skatschule.quizzes.selectors.results import graded_result, student_grades
from skatschule.quizzes.services import live
from tests.people import client_for
from tests.present import present

from .helpers import right_values, wrong_values

pytestmark = pytest.mark.django_db


@pytest.fixture
def session(make_quiz: Callable[..., Quiz], teacher: User) -> LiveSession:
    quiz = make_quiz(count=2, kinds=("augen",))
    return live.start_live(quiz=quiz, teacher=teacher)


def _item(session: LiveSession, position: int) -> QuizItem:
    return session.quiz.items.get(position=position)


def test_start_is_the_teachers_only_and_once(
    make_quiz: Callable[..., Quiz], teacher: User, other_teacher: User
) -> None:
    quiz = make_quiz(count=1)
    with pytest.raises(NotFound):
        live.start_live(quiz=quiz, teacher=other_teacher)
    first = live.start_live(quiz=quiz, teacher=teacher)
    assert live.start_live(quiz=quiz, teacher=teacher) == first  # a double click: the same round


def test_random_variants_and_drafts_cannot_go_live(make_quiz: Callable[..., Quiz], teacher: User) -> None:
    with pytest.raises(QuizError):
        live.start_live(quiz=make_quiz(count=1, variants=Quiz.Variants.RANDOM), teacher=teacher)
    with pytest.raises(QuizError):
        live.start_live(quiz=make_quiz(count=1, draft=True), teacher=teacher)


def test_answers_only_the_shown_item_once_and_before_the_reveal(
    session: LiveSession, teacher: User, student: User
) -> None:
    with pytest.raises(QuizClosed):  # nothing shown yet
        live.answer_live(session=session, student=student, position=1, values=["1"])
    live.show_item(session=session, teacher=teacher, position=1)
    with pytest.raises(QuizClosed):  # not the item shown
        live.answer_live(session=session, student=student, position=2, values=["1"])
    item = _item(session, 1)
    saved = live.answer_live(
        session=session, student=student, position=1, values=wrong_values(session.quiz, item, None)
    )
    assert not saved.answer.correct
    with pytest.raises(QuizClosed):  # once: the right answer afterwards is refused, the first one stays
        live.answer_live(session=session, student=student, position=1, values=right_values(session.quiz, item, None))
    assert QuizAnswer.objects.get(item=item).correct is False


def test_no_answer_after_the_reveal(session: LiveSession, teacher: User, student: User) -> None:
    live.show_item(session=session, teacher=teacher, position=1)
    live.reveal(session=session, teacher=teacher)
    with pytest.raises(QuizClosed):
        live.answer_live(session=session, student=student, position=1, values=["1"])
    assert not QuizAnswer.objects.exists()


def test_end_submits_into_the_quiz_results(
    session: LiveSession, teacher: User, student: User, other_student: User
) -> None:
    quiz = session.quiz
    for position in (1, 2):
        live.show_item(session=session, teacher=teacher, position=position)
        item = _item(session, position)
        live.answer_live(session=session, student=student, position=position, values=right_values(quiz, item, None))
        if position == 1:
            live.answer_live(
                session=session, student=other_student, position=position, values=wrong_values(quiz, item, None)
            )
        live.reveal(session=session, teacher=teacher)
    assert live.end_live(session=session, teacher=teacher) == 2
    assert graded_result(quiz, student_id=student.pk) == 2
    assert graded_result(quiz, student_id=other_student.pk) == 0
    assert len(student_grades(quiz)) == 2  # both are on the results page
    with pytest.raises(QuizClosed):
        live.answer_live(session=session, student=student, position=2, values=["1"])


def test_distribution_in_words_after_answers(
    session: LiveSession, teacher: User, student: User, other_student: User
) -> None:
    quiz = session.quiz
    live.show_item(session=session, teacher=teacher, position=1)
    item = _item(session, 1)
    right = right_values(quiz, item, None)
    live.answer_live(session=session, student=student, position=1, values=right)
    live.answer_live(session=session, student=other_student, position=1, values=right)
    rows = live_distribution(session, lang="de")
    assert [(n, correct) for _words, n, correct in rows] == [(2, True)]
    assert live_count(session).answered == 2


def test_pages_never_show_the_answer_before_the_reveal(session: LiveSession, teacher: User, student: User) -> None:
    quiz = session.quiz
    live.show_item(session=session, teacher=teacher, position=1)
    phone = client_for(student)
    url = reverse("quizzes:live_join", args=[quiz.pk])
    assert "live-join-button" in phone.get(url).content.decode()  # the lobby first: join
    assert phone.post(reverse("quizzes:live_join_round", args=[quiz.pk])).status_code == 302
    assert "live-send" in phone.get(url).content.decode()
    response = phone.post(reverse("quizzes:live_answer", args=[quiz.pk]), {"position": "1", "answer": ["0"]})
    assert response.status_code == 302
    page = phone.get(url).content.decode()
    assert "feedback" not in page and "Richtige Antwort" not in page
    again = phone.post(reverse("quizzes:live_answer", args=[quiz.pk]), {"position": "1", "answer": ["0"]})
    assert again.status_code == 409
    attempt = present(live_attempt(session, student=student))
    take = phone.get(reverse("quizzes:take", args=[attempt.public_id]))
    assert take.status_code == 302  # the ordinary page does not take live answers
    save = phone.post(reverse("quizzes:save", args=[attempt.public_id, 2]), {"answer": ["0"]})
    assert save.status_code == 409
    live.reveal(session=session, teacher=teacher)
    assert "feedback" in phone.get(url).content.decode()


def test_pages_refuse_strangers_and_junk(
    session: LiveSession, teacher: User, other_teacher: User, student: User
) -> None:
    quiz = session.quiz
    assert client_for(other_teacher).get(reverse("quizzes:live", args=[quiz.pk])).status_code == 404
    assert client_for(student).get(reverse("quizzes:live", args=[quiz.pk])).status_code == 404
    control = reverse("quizzes:live_control", args=[quiz.pk])
    assert client_for(teacher).post(control, {"action": "show", "position": "x"}).status_code == 404
    assert client_for(teacher).post(control, {"action": "nonsense"}).status_code == 400
    answer = reverse("quizzes:live_answer", args=[quiz.pk])
    assert client_for(student).post(answer, {"position": "1", "answer": ["1"]}).status_code == 409
    assert client_for(teacher).get(reverse("quizzes:live", args=[quiz.pk])).status_code == 200


def test_poll_asks_for_a_reload_only_after_a_change(session: LiveSession, teacher: User, student: User) -> None:
    phone = client_for(student)
    poll = reverse("quizzes:live_poll", args=[session.quiz.pk])
    stamp = f"{session.pk}:0:0:0"
    assert phone.get(poll, {"stamp": stamp}).status_code == 204
    live.show_item(session=session, teacher=teacher, position=1)
    assert phone.get(poll, {"stamp": stamp}).headers["HX-Refresh"] == "true"


def test_a_teachers_grade_of_an_unanswered_item_is_no_live_answer(
    session: LiveSession, teacher: User, student: User, other_student: User
) -> None:
    from skatschule.quizzes.services import grading

    quiz = session.quiz
    live.show_item(session=session, teacher=teacher, position=1)
    for person in (student, other_student):
        live.answer_live(
            session=session, student=person, position=1, values=right_values(quiz, _item(session, 1), None)
        )
    live.show_item(session=session, teacher=teacher, position=2)
    live.answer_live(session=session, student=student, position=2, values=right_values(quiz, _item(session, 2), None))
    live.end_live(session=session, teacher=teacher)
    skipped = session.attempts.get(student=other_student)
    grading.override_item_score(attempt=skipped, item=_item(session, 2), teacher=teacher, credit=0.5, comment="")
    assert graded_result(quiz, student_id=other_student.pk) == 1.5
    assert live_count(session).answered == 1
    assert [(n, correct) for _words, n, correct in live_distribution(session, lang="de")] == [(1, True)]

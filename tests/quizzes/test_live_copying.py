"""Issue 33, M1: the answers a live round reveals cannot be copied into an ordinary attempt.

The pen test: a class member who did not answer saw "Richtige Antwort: 14" after the reveal,
opened an ordinary attempt (``/quiz/<id>/start/``), posted the revealed answer, answered the
items not yet shown, and submitted: 2 of 3 points against an honest participant's 1 of 3. Now a
quiz with a live round running takes no ordinary attempt nor answer, and an answer to an item a
round has revealed earns nothing, also after the round."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from skatschule.quizzes.errors import QuizClosed
from skatschule.quizzes.models import LiveSession, Quiz, QuizAnswer, QuizItem
from skatschule.quizzes.selectors.results import graded_result
from skatschule.quizzes.services import attempts, live
from tests.people import client_for

from .helpers import right_values

pytestmark = pytest.mark.django_db


@pytest.fixture
def session(make_quiz: Callable[..., Quiz], teacher: User) -> LiveSession:
    return live.start_live(quiz=make_quiz(count=3, kinds=("augen",)), teacher=teacher)


def _item(quiz: Quiz, position: int) -> QuizItem:
    return quiz.items.get(position=position)


def _reveal_first(session: LiveSession, teacher: User, honest: User) -> Quiz:
    quiz = session.quiz
    live.show_item(session=session, teacher=teacher, position=1)
    live.answer_live(session=session, student=honest, position=1, values=right_values(quiz, _item(quiz, 1), None))
    live.reveal(session=session, teacher=teacher)
    return quiz


def test_no_ordinary_attempt_while_the_round_runs(
    session: LiveSession, teacher: User, student: User, other_student: User
) -> None:
    quiz = _reveal_first(session, teacher, other_student)
    with pytest.raises(QuizClosed):
        attempts.start_attempt(quiz=quiz, student=student)
    response = client_for(student).post(reverse("quizzes:start", args=[quiz.pk]))
    assert response.status_code == 409 and "live" in response.content.decode()
    assert not quiz.attempts.filter(student=student).exists()


def test_an_attempt_begun_before_the_round_takes_no_answer_during_it(
    make_quiz: Callable[..., Quiz], teacher: User, student: User, other_student: User
) -> None:
    quiz = make_quiz(count=3, kinds=("augen",))
    early = attempts.start_attempt(quiz=quiz, student=student)
    session = live.start_live(quiz=quiz, teacher=teacher)
    _reveal_first(session, teacher, other_student)
    with pytest.raises(QuizClosed):
        attempts.save_answer(attempt=early, item=_item(quiz, 1), values=right_values(quiz, _item(quiz, 1), None))
    response = client_for(student).post(
        reverse("quizzes:save", args=[early.public_id, 1]), {"answer": right_values(quiz, _item(quiz, 1), None)}
    )
    assert response.status_code == 409
    assert not QuizAnswer.objects.filter(attempt=early).exists()


def test_a_revealed_answer_earns_nothing_after_the_round(
    session: LiveSession, teacher: User, student: User, other_student: User
) -> None:
    quiz = _reveal_first(session, teacher, other_student)
    live.end_live(session=session, teacher=teacher)
    copier = client_for(student)
    assert copier.post(reverse("quizzes:start", args=[quiz.pk])).status_code == 302
    attempt = quiz.attempts.get(student=student)
    for position in (1, 2, 3):
        item = _item(quiz, position)
        saved = attempts.save_answer(attempt=attempt, item=item, values=right_values(quiz, item, None))
        assert saved.answer.credit == (0.0 if position == 1 else 1.0)
    attempts.submit(attempt=attempt)
    assert graded_result(quiz, student_id=student.pk) == 2  # items 2 and 3; the revealed one earns nothing
    assert graded_result(quiz, student_id=other_student.pk) == 1  # answered live before the reveal: counts


def test_the_ordinary_page_sends_to_the_live_round_while_it_runs(
    make_quiz: Callable[..., Quiz], teacher: User, student: User
) -> None:
    quiz = make_quiz(count=3, kinds=("augen",))
    early = attempts.start_attempt(quiz=quiz, student=student)
    live.start_live(quiz=quiz, teacher=teacher)
    response = client_for(student).get(reverse("quizzes:take", args=[early.public_id]))
    assert response.status_code == 302 and response["Location"] == reverse("quizzes:live_join", args=[quiz.pk])

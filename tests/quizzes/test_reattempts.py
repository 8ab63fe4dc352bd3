"""Quiz re-attempts: a second attempt never repeats the questions whose answers the first showed.

- Random variants: the attempt number enters the variant seed, so attempt 2 asks new questions.
- Items "the same for everyone": a second attempt would repeat them; with answers shown right
  away or after submitting, the builder refuses that combination and says why.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone

from skatschule.classrooms.models import Classroom
from skatschule.exercises.base import Question
from skatschule.quizzes import errors, questions
from skatschule.quizzes.models import Quiz
from skatschule.quizzes.questions import answers_visible
from skatschule.quizzes.services import attempts, authoring
from skatschule.training.registry import get_type
from tests.people import client_for
from tests.present import present

pytestmark = pytest.mark.django_db

KINDS = ("augen", "stich", "spitzen", "spielwert")


def _content(question: Question) -> tuple[object, ...]:
    options = tuple(sorted((o.value, o.label.de) for o in question.options))  # their order is no difference
    return (question.prompt.de, question.facts, question.cards, question.trick, question.skat, options)


def test_second_attempt_after_shown_answers_asks_new_questions(make_quiz: Callable[..., Quiz], student: User) -> None:
    quiz = make_quiz(count=8, kinds=KINDS, variants="random", max_attempts=2, show_answers="after_submit")
    items = list(quiz.items.all())
    first = attempts.start_attempt(quiz=quiz, student=student)
    for item in items:
        question = questions.question_for(quiz, item, student.pk, first.number)
        attempts.save_answer(attempt=first, item=item, values=present(get_type(item.kind)).correct_answer(question))
    first, _ = attempts.submit(attempt=first)
    assert first.score == 8 and answers_visible(first)

    second = attempts.start_attempt(quiz=quiz, student=student)
    assert second.number == 2
    seen = {item.pk: _content(questions.question_for(quiz, item, student.pk, 1)) for item in items}
    for item in items:
        again = questions.question_for(quiz, item, student.pk, second.number)
        assert _content(again) != seen[item.pk], f"item {item.position} repeats attempt 1"
        # the second attempt is graded against its own questions
        saved = attempts.save_answer(
            attempt=second, item=item, values=present(get_type(item.kind)).correct_answer(again)
        )
        assert saved.feedback.correct
    assert questions.derive_seed(quiz, items[0], student.pk, 1) == questions.derive_seed(quiz, items[0], student.pk)


def test_second_attempt_over_http_is_graded_on_its_own_questions(make_quiz: Callable[..., Quiz], student: User) -> None:
    quiz = make_quiz(
        count=4, kinds=("augen", "spielwert"), variants="random", max_attempts=2, show_answers="after_submit"
    )
    client = client_for(student)
    items = list(quiz.items.all())
    first = attempts.start_attempt(quiz=quiz, student=student)
    attempts.submit(attempt=first)
    second = attempts.start_attempt(quiz=quiz, student=student)
    assert client.get(reverse("quizzes:take", kwargs={"public_id": second.public_id})).status_code == 200
    stale = 0
    for item in items:
        old = questions.question_for(quiz, item, student.pk, 1)
        new = questions.question_for(quiz, item, student.pk, 2)
        answer = present(get_type(item.kind)).correct_answer(new)
        stale += present(get_type(item.kind)).correct_answer(old) == answer
        url = reverse("quizzes:save", kwargs={"public_id": second.public_id, "position": item.position})
        assert client.post(url, {"answer": answer}).status_code == 302
    assert stale < len(items)  # attempt 1's key would not pass attempt 2
    client.post(reverse("quizzes:submit", kwargs={"public_id": second.public_id}))
    second.refresh_from_db()
    assert second.submitted_at is not None and second.score == len(items)


@pytest.mark.parametrize("show", [Quiz.ShowAnswers.IMMEDIATELY, Quiz.ShowAnswers.AFTER_SUBMIT])
def test_fixed_items_refuse_a_second_attempt_after_shown_answers(make_quiz: Callable[..., Quiz], show: str) -> None:
    with pytest.raises(errors.QuizError, match="Zufällige Varianten je Person") as err:
        make_quiz(count=2, variants="fixed", max_attempts=2, show_answers=show)
    assert "random variants for each person" in err.value.message("en")
    assert not Quiz.objects.exists()


def test_fixed_items_allow_what_repeats_nothing_shown(make_quiz: Callable[..., Quiz]) -> None:
    later = timezone.now() + timedelta(days=1)  # any day
    make_quiz(count=2, variants="fixed", max_attempts=1, show_answers="after_submit")
    make_quiz(count=2, variants="fixed", max_attempts=3, show_answers="after_close", closes_at=later)
    make_quiz(count=2, variants="random", max_attempts=3, show_answers="immediately")
    assert Quiz.objects.count() == 3
    assert authoring.repeats_shown_answers(variants="fixed", max_attempts=2, show_answers="after_submit")
    assert not authoring.repeats_shown_answers(variants="fixed", max_attempts=2, show_answers="after_close")
    assert not authoring.repeats_shown_answers(variants="random", max_attempts=2, show_answers="after_submit")


def test_editing_refuses_a_second_attempt_for_fixed_items(make_quiz: Callable[..., Quiz], teacher: User) -> None:
    quiz = make_quiz(count=2, variants="fixed", max_attempts=1, show_answers="after_submit")
    with pytest.raises(errors.QuizError, match="einen einzigen Versuch"):
        authoring.update_quiz(quiz=quiz, editor=teacher, changes=authoring.QuizChanges(max_attempts=2))
    quiz.refresh_from_db()
    assert quiz.max_attempts == 1
    authoring.update_quiz(
        quiz=quiz, editor=teacher, changes=authoring.QuizChanges(max_attempts=2, variants="random")
    )  # allowed: new questions per attempt
    quiz.refresh_from_db()
    assert quiz.max_attempts == 2 and quiz.variants == "random"


def test_builder_explains_the_choice(teacher: User, classroom: Classroom) -> None:
    page = client_for(teacher).get(reverse("quizzes:create") + f"?klasse={classroom.pk}").content.decode()
    assert "wiederholt jeder Versuch dieselben Fragen" in page  # said before the teacher chooses
    response = client_for(teacher).post(
        reverse("quizzes:create"),
        {
            "title": "Zweimal dasselbe",
            "classroom": classroom.pk,
            "kinds": ["augen"],
            "item_count": 3,
            "difficulty": 1,
            "variants": "fixed",
            "max_attempts": 2,
            "show_answers": "after_submit",
        },
    )
    html = response.content.decode()
    assert response.status_code in (200, 400)
    assert "könnte man sie im nächsten Versuch nur abschreiben" in html
    assert not Quiz.objects.exists()


def test_no_later_attempt_repeats_an_earlier_question_for_many_students(make_quiz: Callable[..., Quiz]) -> None:
    """Two seeds can give the same question where a type has few of them; the seed of a later
    attempt skips those, for every student (ids need no account here) and every item."""
    quiz = make_quiz(count=8, kinds=KINDS, variants="random", max_attempts=3, show_answers="after_submit")
    items = list(quiz.items.all())
    for student_id in range(1, 41):
        for item in items:
            asked = [_content(questions.question_for(quiz, item, student_id, n)) for n in (1, 2, 3)]
            assert len(set(asked)) == 3, (student_id, item.kind, item.difficulty)

"""Quiz services: building, variants, saving, submitting once, timers, results, answer key."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from skatschule.classrooms.models import Classroom
from skatschule.core.notfound import NotFound
from skatschule.core.spreadsheets import guard
from skatschule.exercises.base import AnswerError
from skatschule.quizzes import errors, questions
from skatschule.quizzes.exports import csv_rows
from skatschule.quizzes.models import Quiz, QuizAnswer, QuizAttempt, QuizItem
from skatschule.quizzes.questions import answers_visible, immediate_feedback
from skatschule.quizzes.selectors.analysis import item_stats
from skatschule.quizzes.selectors.results import student_results
from skatschule.quizzes.selectors.taking import answer_key, own_attempt, student_quiz
from skatschule.quizzes.selectors.teaching import own_quiz
from skatschule.quizzes.services import attempts, authoring
from skatschule.training.lessons import get_lesson
from skatschule.training.registry import exercise_types, get_type
from tests.present import present

from .helpers import right_values, wrong_values

pytestmark = pytest.mark.django_db


def test_pool_from_kinds_lessons_and_rules() -> None:
    pool = authoring.build_pool(kinds=["augen"], difficulty=2)
    assert pool == [("augen", 2)]
    lesson = present(get_lesson("spitzen"))
    from_lesson = authoring.build_pool(lessons=["spitzen"], difficulty=3)
    assert from_lesson == [(s.kind, s.level) for s in lesson.steps if s.level == 3]
    rule = next(iter(present(get_type("spielwert")).rule_ids))
    assert ("spielwert", 1) in authoring.build_pool(rules=[rule], difficulty=1)


def test_pool_iterates_whatever_the_registry_holds() -> None:
    every = authoring.build_pool(kinds=list(exercise_types()), difficulty=1)
    assert [kind for kind, _ in every] == [k for k, t in exercise_types().items() if not t.graded_by_job]


@pytest.mark.parametrize(
    "kwargs",
    [{"kinds": ["gibt-es-nicht"]}, {"lessons": ["keine-lektion"]}, {"rules": ["x.y"]}, {"rules": ["9.9.9"]}],
)
def test_pool_rejects_unknown_sources(kwargs: dict[str, Any]) -> None:
    with pytest.raises(errors.QuizError):
        authoring.build_pool(**kwargs)


def test_items_cycle_through_the_pool(make_quiz: Callable[..., Quiz]) -> None:
    quiz = make_quiz(count=7, kinds=("augen", "stich"))
    kinds = [item.kind for item in quiz.items.all()]
    assert len(kinds) == 7 and set(kinds) == {"augen", "stich"}
    assert abs(kinds.count("augen") - kinds.count("stich")) <= 1
    assert [item.position for item in quiz.items.all()] == list(range(1, 8))


def test_fixed_variants_are_shared_random_ones_per_student(
    make_quiz: Callable[..., Quiz], student: User, other_student: User
) -> None:
    fixed = make_quiz(count=3, variants=Quiz.Variants.FIXED)
    for item in fixed.items.all():
        assert questions.derive_seed(fixed, item, student.pk) == questions.derive_seed(fixed, item, other_student.pk)
    rnd = make_quiz(count=5, variants=Quiz.Variants.RANDOM)
    items = list(rnd.items.all())
    mine = [questions.derive_seed(rnd, item, student.pk) for item in items]
    theirs = [questions.derive_seed(rnd, item, other_student.pk) for item in items]
    assert mine == [questions.derive_seed(rnd, item, student.pk) for item in items]  # stable
    assert mine != theirs
    assert all(0 <= seed < 2**31 for seed in mine + theirs)
    # Stable across a reload from the database as well.
    again = Quiz.objects.get(pk=rnd.pk)
    assert mine == [questions.derive_seed(again, item, student.pk) for item in again.items.all()]


def test_save_grades_with_the_engine_and_updates_one_row(make_quiz: Callable[..., Quiz], student: User) -> None:
    quiz = make_quiz(count=2)
    attempt = attempts.start_attempt(quiz=quiz, student=student)
    item = present(quiz.items.first())
    saved = attempts.save_answer(attempt=attempt, item=item, values=wrong_values(quiz, item, student.pk))
    assert saved.created and not saved.answer.correct
    saved = attempts.save_answer(attempt=attempt, item=item, values=right_values(quiz, item, student.pk))
    assert not saved.created and saved.answer.correct and saved.feedback.correct
    assert QuizAnswer.objects.filter(attempt=attempt, item=item).count() == 1
    assert saved.answer.normalized == saved.feedback.normalized


def test_unreadable_answer_is_not_stored(make_quiz: Callable[..., Quiz], student: User) -> None:
    quiz = make_quiz(count=1, kinds=("augen",))
    attempt = attempts.start_attempt(quiz=quiz, student=student)
    with pytest.raises(AnswerError):
        attempts.save_answer(attempt=attempt, item=present(quiz.items.first()), values=["zwölf"])
    assert not QuizAnswer.objects.exists()


def test_item_of_another_quiz_is_404(make_quiz: Callable[..., Quiz], student: User) -> None:
    quiz, other = make_quiz(count=1), make_quiz(count=1)
    attempt = attempts.start_attempt(quiz=quiz, student=student)
    with pytest.raises(NotFound):
        attempts.save_answer(attempt=attempt, item=present(other.items.first()), values=["1"])


def test_immediate_policy_keeps_the_first_answer(make_quiz: Callable[..., Quiz], student: User) -> None:
    quiz = make_quiz(count=1, kinds=("augen",), show_answers=Quiz.ShowAnswers.IMMEDIATELY)
    attempt = attempts.start_attempt(quiz=quiz, student=student)
    item = present(quiz.items.first())
    attempts.save_answer(attempt=attempt, item=item, values=wrong_values(quiz, item, student.pk))
    again = attempts.save_answer(attempt=attempt, item=item, values=right_values(quiz, item, student.pk))
    assert again.changed is False and not again.answer.correct


def test_submit_exactly_once(make_quiz: Callable[..., Quiz], student: User) -> None:
    quiz = make_quiz(count=3)
    attempt = attempts.start_attempt(quiz=quiz, student=student)
    items = list(quiz.items.all())
    attempts.save_answer(attempt=attempt, item=items[0], values=right_values(quiz, items[0], student.pk))
    attempts.save_answer(attempt=attempt, item=items[1], values=wrong_values(quiz, items[1], student.pk))
    first, done = attempts.submit(attempt=attempt)
    assert done and first.score == 1 and first.submitted_at is not None
    stamp = first.submitted_at
    second, done_again = attempts.submit(attempt=QuizAttempt.objects.get(pk=attempt.pk))
    assert not done_again and second.submitted_at == stamp and second.score == 1
    with pytest.raises(errors.QuizClosed):
        attempts.save_answer(attempt=second, item=items[2], values=right_values(quiz, items[2], student.pk))
    assert QuizAttempt.objects.filter(quiz=quiz, student=student).count() == 1


def test_a_stale_attempt_object_cannot_submit_twice(make_quiz: Callable[..., Quiz], student: User) -> None:
    """Two requests that loaded the attempt before either submitted (a double click)."""
    quiz = make_quiz(count=1)
    attempt = attempts.start_attempt(quiz=quiz, student=student)
    copy_a, copy_b = QuizAttempt.objects.get(pk=attempt.pk), QuizAttempt.objects.get(pk=attempt.pk)
    results = [attempts.submit(attempt=copy_a)[1], attempts.submit(attempt=copy_b)[1]]
    assert sorted(results) == [False, True]


def test_database_refuses_duplicates(make_quiz: Callable[..., Quiz], student: User) -> None:
    quiz = make_quiz(count=1)
    attempt = attempts.start_attempt(quiz=quiz, student=student)
    item = present(quiz.items.first())
    attempts.save_answer(attempt=attempt, item=item, values=right_values(quiz, item, student.pk))
    with pytest.raises(IntegrityError), transaction.atomic():
        QuizAnswer.objects.create(attempt=attempt, item=item, values=["1"])
    with pytest.raises(IntegrityError), transaction.atomic():
        QuizAttempt.objects.create(quiz=quiz, student=student, number=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        QuizAttempt.objects.filter(pk=attempt.pk).update(submitted_at=timezone.now())  # score missing


def test_start_returns_the_open_attempt_and_counts_attempts(make_quiz: Callable[..., Quiz], student: User) -> None:
    quiz = make_quiz(count=1, max_attempts=2, variants="random")
    first = attempts.start_attempt(quiz=quiz, student=student)
    assert attempts.start_attempt(quiz=quiz, student=student).pk == first.pk
    attempts.submit(attempt=first)
    second = attempts.start_attempt(quiz=quiz, student=student)
    assert second.number == 2
    attempts.submit(attempt=second)
    with pytest.raises(errors.QuizClosed):
        attempts.start_attempt(quiz=quiz, student=student)


def test_timer_is_enforced_by_the_server(make_quiz: Callable[..., Quiz], student: User) -> None:
    quiz = make_quiz(count=2, time_limit_minutes=10)
    start = timezone.now()
    attempt = attempts.start_attempt(quiz=quiz, student=student, now=start)
    assert attempt.deadline == start + timedelta(minutes=10)
    items = list(quiz.items.all())
    attempts.save_answer(
        attempt=attempt,
        item=items[0],
        values=right_values(quiz, items[0], student.pk),
        now=start + timedelta(minutes=9),
    )
    late = start + timedelta(minutes=10, seconds=1)
    with pytest.raises(errors.QuizClosed, match="Zeit ist abgelaufen"):
        attempts.save_answer(attempt=attempt, item=items[1], values=right_values(quiz, items[1], student.pk), now=late)
    assert QuizAnswer.objects.filter(attempt=attempt).count() == 1
    # Left open: it is submitted at its deadline with what was saved.
    assert attempts.finalize_expired(attempts=QuizAttempt.objects.filter(pk=attempt.pk), now=late) == 1
    attempt.refresh_from_db()
    assert attempt.submitted_at == attempt.deadline and attempt.score == 1


def test_closed_and_upcoming_quizzes(make_quiz: Callable[..., Quiz], student: User) -> None:
    now = timezone.now()
    upcoming = make_quiz(count=1, opens_at=now + timedelta(hours=1))
    with pytest.raises(errors.QuizError, match="noch nicht begonnen"):
        attempts.start_attempt(quiz=upcoming, student=student, now=now)
    quiz = make_quiz(count=1, closes_at=now + timedelta(minutes=5))
    attempt = attempts.start_attempt(quiz=quiz, student=student, now=now)
    item = present(quiz.items.first())
    with pytest.raises(errors.QuizClosed, match="beendet"):
        attempts.save_answer(
            attempt=attempt, item=item, values=right_values(quiz, item, student.pk), now=now + timedelta(minutes=6)
        )
    with pytest.raises(errors.QuizClosed):
        attempts.start_attempt(quiz=quiz, student=student, now=now + timedelta(minutes=6))


def test_answers_visible_follows_the_policy(make_quiz: Callable[..., Quiz], student: User) -> None:
    """With random variants (each student's own questions) the teacher's policy decides."""
    now = timezone.now()
    random = Quiz.Variants.RANDOM
    after_submit = attempts.start_attempt(quiz=make_quiz(count=1, variants=random), student=student)
    assert not answers_visible(after_submit)
    attempts.submit(attempt=after_submit)
    assert answers_visible(after_submit)
    quiz = make_quiz(
        count=1, variants=random, show_answers=Quiz.ShowAnswers.AFTER_CLOSE, closes_at=now + timedelta(hours=1)
    )
    attempt = attempts.start_attempt(quiz=quiz, student=student, now=now)
    attempts.submit(attempt=attempt, now=now)
    assert not answers_visible(attempt, now=now)
    assert answers_visible(attempt, now=now + timedelta(hours=2))
    assert answers_visible(
        attempts.start_attempt(quiz=make_quiz(count=1, variants=random, show_answers="immediately"), student=student)
    )


@pytest.mark.parametrize("policy", ["after_submit", "immediately"])
def test_a_fixed_quiz_shows_its_key_only_once_it_is_closed(
    make_quiz: Callable[..., Quiz], student: User, policy: str
) -> None:
    """Issue 25, item 5: the same questions for everyone: an empty attempt must not reveal them."""
    quiz = make_quiz(count=1, variants=Quiz.Variants.FIXED, show_answers=policy)
    attempt = attempts.start_attempt(quiz=quiz, student=student)
    assert not immediate_feedback(quiz)
    attempts.submit(attempt=attempt)
    assert not answers_visible(attempt)
    assert answers_visible(attempt, now=timezone.now() + timedelta(days=1)) is False  # any day; no end: never
    Quiz.objects.filter(pk=quiz.pk).update(closes_at=timezone.now())  # the teacher's "Beenden"
    attempt.refresh_from_db()
    assert answers_visible(attempt) and immediate_feedback(attempt.quiz) == (policy == "immediately")


def test_results_stats_and_csv(make_quiz: Callable[..., Quiz], student: User, other_student: User) -> None:
    quiz = make_quiz(count=2, kinds=("augen",), variants=Quiz.Variants.RANDOM)
    items = list(quiz.items.all())
    for who, answers in ((student, ("right", "wrong")), (other_student, ("wrong", "wrong"))):
        attempt = attempts.start_attempt(quiz=quiz, student=who)
        for item, how in zip(items, answers):
            values = right_values if how == "right" else wrong_values
            attempts.save_answer(attempt=attempt, item=item, values=values(quiz, item, who.pk))
        attempts.submit(attempt=attempt)
    rows = student_results(quiz)
    assert {(r.attempt.student.username, r.attempt.score) for r in rows} == {("schueler", 1), ("schuelerin", 0)}
    stats = item_stats(quiz)
    assert [(s.answered, s.correct, s.percent) for s in stats] == [(2, 1, 50), (2, 0, 0)]
    wrong_given = {a.normalized for a in QuizAnswer.objects.filter(item=items[1])}
    assert {value for value, _ in stats[1].wrong} == wrong_given
    table = csv_rows(quiz)
    assert table[0][:6] == ["Benutzername", "Versuch", "Beginn", "Abgabe", "Dauer (Sekunden)", "Punkte"]
    assert table[0][-2:] == ["Aufgabe 2 Antwort", "Aufgabe 2 Punkte"]
    assert sorted((r[0], r[5], r[8], r[10]) for r in table[1:]) == [
        ("schueler", 1.0, 1.0, 0.0),
        ("schuelerin", 0.0, 0.0, 0.0),
    ]


def test_csv_cells_cannot_become_formulas() -> None:
    assert guard("=HYPERLINK(1)") == "'=HYPERLINK(1)"
    assert guard("-60") == "-60"
    assert guard("+2") == "+2"


def test_answer_key_is_computed_by_the_engine(make_quiz: Callable[..., Quiz]) -> None:
    quiz = make_quiz(count=4, kinds=tuple(exercise_types()))
    key = answer_key(quiz)
    assert len(key) == 4
    for entry in key:
        kind = present(get_type(entry.item.kind))
        question = kind.generate(entry.item.difficulty, entry.item.seed)
        feedback = kind.grade(question, kind.correct_answer(question))
        assert feedback.correct and entry.answer == feedback.answer.de


def test_only_the_owner_reaches_a_quiz(
    make_quiz: Callable[..., Quiz], other_teacher: User, student: User, other_student: User
) -> None:
    quiz = make_quiz(count=1)
    assert own_quiz(quiz.owner, pk=quiz.pk) == quiz
    for user in (other_teacher, student):
        with pytest.raises(NotFound):
            own_quiz(user, pk=quiz.pk)
    attempt = attempts.start_attempt(quiz=quiz, student=student)
    with pytest.raises(NotFound):
        own_attempt(other_student, public_id=attempt.public_id)
    with pytest.raises(NotFound):
        student_quiz(other_teacher, pk=quiz.pk)


def test_create_quiz_needs_the_teachers_own_class(
    make_quiz: Callable[..., Quiz], other_teacher: User, classroom: Classroom
) -> None:
    with pytest.raises(NotFound):
        authoring.create_quiz(
            owner=other_teacher, classroom=classroom, title="Fremd", pool=[("augen", 1)], item_count=1
        )
    assert not QuizItem.objects.exists()

"""Quiz races on PostgreSQL (threads with their own connections, real transactions).

SQLite serialises writers, so these run only with ``DATABASE_URL=postgres://...`` (``make test``
does so when ``SKATSCHULE_TEST_POSTGRES`` is set).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connections

from skatschule.quizzes import errors
from skatschule.quizzes.models import Quiz, QuizAnswer, QuizAttempt, QuizItem
from skatschule.quizzes.services import attempts
from skatschule.quizzes.services.attempts import SavedAnswer
from tests.present import present

from .helpers import right_values

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _in_threads(jobs: Sequence[Callable[[], object]]) -> list[Any]:
    def run(job: Callable[[], object]) -> object:
        try:
            return job()
        except errors.QuizClosed as exc:
            return exc
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=len(jobs)) as pool:
        return list(pool.map(run, jobs))


def test_simultaneous_submits_submit_once(make_quiz: Callable[..., Quiz], student: User) -> None:
    quiz = make_quiz(count=2)
    attempt = attempts.start_attempt(quiz=quiz, student=student)
    item = present(quiz.items.first())
    attempts.save_answer(attempt=attempt, item=item, values=right_values(quiz, item, student.pk))
    results = _in_threads([lambda: attempts.submit(attempt=QuizAttempt.objects.get(pk=attempt.pk))] * 6)
    assert sorted(done for _, done in results) == [False] * 5 + [True]
    assert len({a.submitted_at for a, _ in results}) == 1 and {a.score for a, _ in results} == {1}


def test_saves_racing_a_submit_are_counted_or_rejected(make_quiz: Callable[..., Quiz], student: User) -> None:
    quiz = make_quiz(count=6, kinds=("augen",))
    attempt = attempts.start_attempt(quiz=quiz, student=student)
    items = list(quiz.items.all())

    def save(it: QuizItem) -> SavedAnswer:
        return attempts.save_answer(
            attempt=QuizAttempt.objects.get(pk=attempt.pk), item=it, values=right_values(quiz, it, student.pk)
        )

    jobs: list[Callable[[], object]] = [partial(save, it) for it in items]
    jobs.insert(3, lambda: attempts.submit(attempt=QuizAttempt.objects.get(pk=attempt.pk)))
    results = _in_threads(jobs)
    attempt.refresh_from_db()
    stored = QuizAnswer.objects.filter(attempt=attempt).count()
    rejected = sum(isinstance(r, errors.QuizClosed) for r in results)
    assert stored + rejected == 6
    assert attempt.score == stored  # every stored answer was saved before the submit and counted


def test_simultaneous_starts_make_one_attempt(make_quiz: Callable[..., Quiz], student: User) -> None:
    quiz = make_quiz(count=1, max_attempts=3, variants="random")
    results = _in_threads([lambda: attempts.start_attempt(quiz=quiz, student=student)] * 4)
    assert len({a.pk for a in results}) == 1 and QuizAttempt.objects.count() == 1

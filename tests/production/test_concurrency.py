"""Concurrency against PostgreSQL: threads with their own connections, real transactions.

SQLite serialises writers, so these only mean something on PostgreSQL (``postgres`` marker).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connections
from django.test import Client
from django.urls import reverse

from skatschule.exercises.base import Feedback, Question
from skatschule.owners import Owner
from skatschule.training.models import Attempt, IssuedExercise, ReviewItem
from skatschule.training.selectors import Progress, attempt_rows, derived_progress, progress
from skatschule.training.services import issuing
from skatschule.training.services.issuing import issue, submit
from tests.training.helpers import right_answer, wrong_answer

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _in_threads(count: int, work: Callable[[int], Any]) -> list[Any]:
    """Run ``work(i)`` in ``count`` threads at once; each closes its own connection."""

    def run(i: int) -> Any:
        try:
            return work(i)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=count) as pool:
        return list(pool.map(run, range(count)))


def _race_after_check(monkeypatch: pytest.MonkeyPatch, parties: int) -> None:
    """Make every submitting thread wait, after its "answered before?" check, for the others.

    ``submit`` grades (``grade_answer``) between that check and the insert, so all threads
    have seen "not answered yet" before any of them inserts: the unique link must decide.
    """
    barrier = threading.Barrier(parties, timeout=20)
    original = issuing.grade_answer
    local = threading.local()

    def graded_in_step(*, question: Question, values: list[str]) -> Feedback:
        if not getattr(local, "waited", False):
            local.waited = True
            barrier.wait()
        return original(question=question, values=values)

    monkeypatch.setattr(issuing, "grade_answer", graded_in_step)


@pytest.mark.parametrize("correct", [True, False])
def test_simultaneous_submits_of_one_exercise_record_one_attempt(
    monkeypatch: pytest.MonkeyPatch, correct: bool
) -> None:
    user = get_user_model().objects.create_user("gleichzeitig")
    owner = Owner.for_user(user)
    issued = issue(kind="augen", difficulty=1, owner=owner)
    values = right_answer(issued) if correct else wrong_answer(issued)
    threads = 4
    _race_after_check(monkeypatch, threads)

    results = _in_threads(
        threads, lambda i: submit(issued=IssuedExercise.objects.get(pk=issued.pk), owner=owner, values=values)
    )

    assert Attempt.objects.filter(issued=issued).count() == 1
    assert sorted(result.created for result in results) == [False] * (threads - 1) + [True]
    assert {result.attempt.pk for result in results} == {Attempt.objects.get().pk}
    assert all(result.feedback.correct is correct for result in results)
    assert ReviewItem.objects.count() == (0 if correct else 1)


def test_simultaneous_posts_over_http_record_one_attempt() -> None:
    user = get_user_model().objects.create_user("doppelklick")
    client = Client()
    client.force_login(user)
    client.get(reverse("training:exercise", kwargs={"kind": "spitzen"}))
    issued = IssuedExercise.objects.get()
    url = reverse("training:answer", args=[issued.public_id])
    cookie = client.cookies["sessionid"].value
    start = threading.Barrier(6, timeout=20)

    def post(_i: int) -> int:
        c = Client()
        c.cookies["sessionid"] = cookie
        start.wait()
        return c.post(url, {"answer": right_answer(issued)}).status_code

    assert _in_threads(6, post) == [200] * 6
    assert Attempt.objects.filter(issued=issued).count() == 1


def _figures(p: Progress) -> dict[str, Any]:
    """What the dashboard shows that follows from the attempts alone (no times, no reviews)."""
    return {
        "attempts": p.attempts,
        "right": p.right,
        "streak": p.streak,
        "best": p.best_streak,
        "chapters": [(c.chapter, c.attempts, c.right) for c in p.chapters],
        "rules": [(r.rule_id, r.attempts, r.right) for r in p.rules],
        "lessons": [(lp.lesson.slug, lp.attempts, lp.right, lp.streak, lp.recent, lp.mastered) for lp in p.lessons],
    }


def test_progress_never_loses_an_update() -> None:
    """8 threads answer 5 exercises each for the same user at once, while the stored progress
    summary is folded forward by every submit. Afterwards the summary's figures must equal
    (a) the derivation from the whole history and (b) a second user's figures after answering
    the same questions the same way one after another, in the order the attempts were stored.
    A lost or misordered fold (streak, best streak, per-lesson recent grades) shows up here."""
    user = get_user_model().objects.create_user("fleissig")
    owner = Owner.for_user(user)
    first = issue(kind="augen", difficulty=1, owner=owner)
    submit(issued=first, owner=owner, values=right_answer(first))
    progress(owner=owner)  # stores the summary: from here on every submit folds into it
    threads, each = 8, 5
    kinds = ("augen", "spitzen")
    start = threading.Barrier(threads, timeout=20)

    def practise(i: int) -> int:
        start.wait()
        right = 0
        for n in range(each):
            issued = issue(kind=kinds[(i + n) % 2], difficulty=1, owner=owner)
            correct = (i + n) % 3 != 0
            submit(issued=issued, owner=owner, values=right_answer(issued) if correct else wrong_answer(issued))
            right += correct
        return right

    right = sum(_in_threads(threads, practise)) + 1
    rows = attempt_rows(owner=owner)
    assert len(rows) == threads * each + 1
    assert sum(row.correct for row in rows) == right
    concurrent = progress(owner=owner)
    assert concurrent.attempts == threads * each + 1
    assert concurrent.right == right
    assert _figures(concurrent) == _figures(derived_progress(owner=owner))

    other = get_user_model().objects.create_user("nacheinander")
    replay = Owner.for_user(other)
    stored = Attempt.objects.owned_by(owner).order_by("created_at", "pk").select_related("issued")
    for n, attempt in enumerate(stored):
        again = issue(
            kind=attempt.issued.kind, difficulty=attempt.issued.difficulty, owner=replay, seed=attempt.issued.seed
        )
        submit(issued=again, owner=replay, values=right_answer(again) if attempt.correct else wrong_answer(again))
        if n == 0:
            progress(owner=replay)  # the same summary path as above
    assert _figures(progress(owner=replay)) == _figures(concurrent)


def test_same_question_missed_twice_at_once_makes_one_review_item(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two issues of the same seed (a review and a fresh copy) answered wrong at the same moment."""
    user = get_user_model().objects.create_user("wiederholer")
    owner = Owner.for_user(user)
    first = issue(kind="augen", difficulty=1, owner=owner, seed=4242)
    second = issue(kind="augen", difficulty=1, owner=owner, seed=4242)
    _race_after_check(monkeypatch, 2)

    results = _in_threads(2, lambda i: submit(issued=[first, second][i], owner=owner, values=wrong_answer(first)))

    assert all(result.created for result in results)
    assert Attempt.objects.count() == 2
    assert ReviewItem.objects.count() == 1

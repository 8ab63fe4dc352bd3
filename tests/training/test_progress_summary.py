"""The progress summary gives exactly what the old derivation from the whole history gives
(issue 17, §1): random histories of right and wrong answers at lesson steps, re-grades,
imported older attempts, anonymous practice moved to the account and games finished at the
table, compared after every step with :func:`derived_progress`."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from skatschule.owners import Owner
from skatschule.training.lessons import get_lessons
from skatschule.training.models import Attempt, AttemptGrade, IssuedExercise, ProgressSummary
from skatschule.training.selectors import (
    attempt_rows,
    derived_progress,
    lesson_progress,
    lesson_progress_for,
    progress,
)
from skatschule.training.services.activities import record_activity
from skatschule.training.services.adoption import adopt_session
from skatschule.training.services.issuing import question_for
from tests.present import present
from tests.training.helpers import answer

pytestmark = pytest.mark.django_db

STEPS = sorted({(step.kind, step.level) for lesson in get_lessons() for step in lesson.steps})[:6]

operations = st.lists(
    st.one_of(
        st.tuples(st.just("answer"), st.sampled_from(STEPS), st.booleans()),
        st.tuples(st.just("answer"), st.sampled_from(STEPS), st.booleans()),
        st.tuples(st.just("regrade"), st.integers(0, 10**6), st.booleans()),
        st.tuples(st.just("import"), st.sampled_from(STEPS), st.booleans()),
        st.tuples(st.just("look"), st.none(), st.none()),
        st.tuples(st.just("adopt"), st.sampled_from(STEPS), st.booleans()),
        st.tuples(st.just("game"), st.none(), st.none()),
    ),
    min_size=1,
    max_size=10,
)


def _import_old(owner: Owner, step: tuple[str, int], correct: bool, days: int) -> None:
    """An attempt dated in the past, stored the way the progress import stores it."""
    kind, level = step
    created = timezone.now() - timedelta(days=days)  # any day
    issued = IssuedExercise.objects.create(**owner.fields(), kind=kind, difficulty=level, seed=days, issued_at=created)
    Attempt.objects.create(
        issued=issued,
        **owner.fields(),
        kind=kind,
        difficulty=level,
        seed=days,
        answer=["x"],
        correct=correct,
        time_taken_ms=0,
        rule_ids=list(question_for(issued).rule_ids),
        created_at=created,
    )


def _same(owner: Owner) -> None:
    fast, reference = progress(owner=owner), derived_progress(owner=owner)
    assert fast == reference
    for lesson in get_lessons():
        assert lesson_progress_for(owner=owner, lesson=lesson) == lesson_progress(
            lesson=lesson, rows=attempt_rows(owner=owner, kinds=lesson.kinds)
        )


@hsettings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(ops=operations)
def test_summary_equals_the_derivation_over_random_histories(ops: list[tuple[str, Any, Any]]) -> None:
    user = get_user_model().objects.create_user(f"verlauf-{get_user_model().objects.count()}")
    owner = Owner.for_user(user)
    for number, (op, arg, flag) in enumerate(ops):
        if op == "answer":
            answer(arg[0], arg[1], owner, correct=flag)
        elif op == "regrade":
            attempts = list(Attempt.objects.owned_by(owner).order_by("pk"))
            if attempts:
                AttemptGrade.objects.create(attempt=attempts[arg % len(attempts)], correct=flag)
        elif op == "import":
            _import_old(owner, arg, flag, days=number + 1)
        elif op == "adopt":
            guest = Owner.for_session(f"gast{number:028d}")
            answer(arg[0], arg[1], guest, correct=flag)
            adopt_session(session_key=guest.session_key, user=user)
        elif op == "game":  # a game finished at the table: a step of lesson 16, no answer
            record_activity(owner=owner, kind="spiel", key=number)
        _same(owner)
    if Attempt.objects.filter(user=user).exists():
        assert ProgressSummary.objects.filter(user=user).exists()


def test_an_answer_updates_the_summary_in_its_transaction_and_a_page_reads_no_history() -> None:
    owner = Owner.for_user(get_user_model().objects.create_user("laeufer"))
    kind, level = STEPS[0]
    for i in range(30):
        answer(kind, level, owner, correct=i % 3 != 0)
    _same(owner)  # builds and stores the summary
    stored = ProgressSummary.objects.get(user_id=present(owner.user_id)).state
    answer(kind, level, owner, correct=True)
    after = ProgressSummary.objects.get(user_id=present(owner.user_id)).state
    assert after["count"] == stored["count"] + 1 == 31 and after["run"] == stored["run"] + 1  # folded in by submit
    with CaptureQueriesContext(connection) as queries:
        progress(owner=owner)
    history_reads = [q["sql"] for q in queries if '"rule_ids"' in q["sql"] and "training_attempt" in q["sql"]]
    assert history_reads == []  # the fingerprint matched: no rebuild
    _same(owner)


def test_a_regrade_is_seen_at_once() -> None:
    owner = Owner.for_user(get_user_model().objects.create_user("umbewertet"))
    kind, level = STEPS[0]
    attempts = [answer(kind, level, owner, correct=True).attempt for _ in range(6)]
    assert progress(owner=owner).streak == 6
    AttemptGrade.objects.create(attempt=attempts[2], correct=False)
    assert progress(owner=owner).streak == 3 == derived_progress(owner=owner).streak
    assert progress(owner=owner).best_streak == 3


def test_a_finished_game_counts_for_its_lesson_but_is_no_answer() -> None:
    owner = Owner.for_user(get_user_model().objects.create_user("spielerin"))
    step = STEPS[0]
    answer(step[0], step[1], owner, correct=False)
    before = progress(owner=owner)
    for key in range(3):
        record_activity(owner=owner, kind="spiel", key=key)
    after = progress(owner=owner)
    assert (after.attempts, after.right, after.accuracy, after.streak) == (
        before.attempts,
        before.right,
        before.accuracy,
        before.streak,
    )
    [lesson] = [item for item in after.lessons if any(s.kind == "spiel" for s in item.lesson.steps)]
    assert lesson.attempts == 3 and lesson.right == 3
    _same(owner)

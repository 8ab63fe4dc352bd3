"""``manage.py housekeeping``: expired sessions and old unanswered anonymous exercises go."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.core.management import call_command
from django.utils import timezone

from skatschule.owners import Owner
from skatschule.training.models import Attempt, IssuedExercise
from skatschule.training.services.issuing import issue
from tests.training.helpers import answer

pytestmark = pytest.mark.django_db


def _age(issued: IssuedExercise, days: int) -> None:
    IssuedExercise.objects.filter(pk=issued.pk).update(issued_at=timezone.now() - timedelta(days=days))  # any day


def test_housekeeping_deletes_only_what_is_stale() -> None:
    anonymous = Owner.for_session("a" * 32)
    member = Owner.for_user(get_user_model().objects.create_user("aufgeraeumt"))
    old_open = issue(kind="augen", difficulty=1, owner=anonymous)
    _age(old_open, 40)
    fresh_open = issue(kind="augen", difficulty=1, owner=anonymous)
    _age(fresh_open, 5)
    old_answered = answer("augen", 1, anonymous, correct=True).attempt
    # any day: a cut-off in days is an instant
    IssuedExercise.objects.filter(pk=old_answered.issued_id).update(issued_at=timezone.now() - timedelta(days=90))
    members_old = issue(kind="augen", difficulty=1, owner=member)
    _age(members_old, 90)

    live = SessionStore()
    live["x"] = 1
    live.create()
    dead = SessionStore()
    dead["x"] = 2
    dead.create()
    Session.objects.filter(session_key=dead.session_key).update(expire_date=timezone.now() - timedelta(seconds=1))

    from skatschule.training.models import ProgressSummary

    # any day: a cut-off in days is an instant
    ProgressSummary.objects.create(session_key="b" * 32, state={}, updated_at=timezone.now() - timedelta(days=31))
    kept = ProgressSummary.objects.create(session_key="c" * 32, state={})
    from skatschule.learners.models import AnswerDays

    # any day: a cut-off in days is an instant
    AnswerDays.objects.create(session_key="b" * 32, zone="UTC", updated_at=timezone.now() - timedelta(days=31))
    kept_days = AnswerDays.objects.create(session_key="c" * 32, zone="UTC")

    out = StringIO()
    call_command("housekeeping", "--days", "30", "--dry-run", stdout=out)
    assert "expired sessions: 1 would delete" in out.getvalue()
    assert ": 1 would delete" in out.getvalue().splitlines()[1]
    assert IssuedExercise.objects.filter(pk=old_open.pk).exists()  # a dry run deletes nothing

    out = StringIO()
    call_command("housekeeping", "--days", "30", stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[0] == "expired sessions: 1 deleted" and lines[1].endswith(": 1 deleted")
    assert lines[2] == "anonymous progress summaries not written since then: 2 deleted"
    assert list(ProgressSummary.objects.filter(user__isnull=True)) == [kept]
    assert list(AnswerDays.objects.filter(user__isnull=True)) == [kept_days]
    assert not IssuedExercise.objects.filter(pk=old_open.pk).exists()
    assert IssuedExercise.objects.filter(pk=fresh_open.pk).exists()
    assert IssuedExercise.objects.filter(pk=members_old.pk).exists()
    assert (
        Attempt.objects.filter(pk=old_answered.pk).exists()
        and IssuedExercise.objects.filter(pk=old_answered.issued_id).exists()
    )
    assert Session.objects.filter(session_key=live.session_key).exists()
    assert not Session.objects.filter(session_key=dead.session_key).exists()

    out = StringIO()
    call_command("housekeeping", stdout=out)  # nothing left to do
    assert "expired sessions: 0 deleted" in out.getvalue()

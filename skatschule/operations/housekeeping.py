"""Housekeeping: remove rows that only accumulate (``manage.py housekeeping``).

- **expired sessions**: database sessions whose ``expire_date`` has passed (Django never
  deletes them by itself; ``cached_db`` keeps them in the database too);
- **unanswered anonymous exercises**: every GET of an exercise page issues an
  :class:`~skatschule.training.models.IssuedExercise`; those of visitors without an account
  that were never answered and are older than ``days`` are deleted. Answered ones (they carry
  an attempt) and those of accounts are kept;
- **anonymous progress summaries** not written for ``days``: they are a cache of the progress
  derivation (``training.services.progress_summary``) and are rebuilt when needed; so are the
  anonymous answers per day (``learners.models.AnswerDays``), deleted with them.

Deletes in batches, so a large backlog does not hold one long transaction.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.contrib.sessions.models import Session
from django.db.models import Model, QuerySet
from django.utils import timezone

from skatschule.learners.models import AnswerDays
from skatschule.training.models import IssuedExercise, ProgressSummary

__all__ = ["BATCH", "Report", "housekeeping"]

BATCH = 2000


@dataclass(frozen=True)
class Report:
    sessions: int
    exercises: int
    summaries: int
    dry_run: bool
    cutoff: datetime

    def lines(self) -> list[str]:
        verb = "would delete" if self.dry_run else "deleted"
        return [
            f"expired sessions: {self.sessions} {verb}",
            f"unanswered anonymous exercises issued before {self.cutoff:%Y-%m-%d %H:%M} UTC: {self.exercises} {verb}",
            f"anonymous progress summaries not written since then: {self.summaries} {verb}",
        ]


def _delete_in_batches(queryset: QuerySet[Model], model: type[Model]) -> int:
    deleted = 0
    while True:
        pks = list(queryset.values_list("pk", flat=True)[:BATCH])
        if not pks:
            return deleted
        model._default_manager.filter(pk__in=pks).delete()
        deleted += len(pks)


def housekeeping(*, days: int = 30, dry_run: bool = False, now: datetime | None = None) -> Report:
    """Delete expired sessions and unanswered anonymous exercises older than ``days``."""
    now = now or timezone.now()
    cutoff = now - timedelta(days=max(0, days))
    sessions = Session.objects.filter(expire_date__lt=now).order_by()
    exercises = IssuedExercise.objects.filter(user__isnull=True, issued_at__lt=cutoff, attempt__isnull=True).order_by()
    summaries = ProgressSummary.objects.filter(user__isnull=True, updated_at__lt=cutoff).order_by()
    days_counts = AnswerDays.objects.filter(user__isnull=True, updated_at__lt=cutoff).order_by()
    if dry_run:
        return Report(sessions.count(), exercises.count(), summaries.count() + days_counts.count(), True, cutoff)
    return Report(
        _delete_in_batches(sessions, Session),
        _delete_in_batches(exercises, IssuedExercise),
        _delete_in_batches(summaries, ProgressSummary) + _delete_in_batches(days_counts, AnswerDays),
        False,
        cutoff,
    )

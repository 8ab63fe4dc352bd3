"""Re-grade every stored attempt with the current engine.

For each attempt the question is rebuilt from ``(kind, difficulty, seed)`` and the stored raw
answer is graded again. When the result differs from the attempt's effective grade (the
newest AttemptGrade, else the original), a new :class:`AttemptGrade` is written; attempts
themselves are never edited. ``--dry-run`` only counts.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction
from django.utils import timezone

from skatschule.exercises.base import AnswerError
from skatschule.training.models import Attempt, AttemptGrade
from skatschule.training.registry import get_type
from skatschule.training.services.issuing import grade_attempt


class Command(BaseCommand):
    help = "Re-grade all attempts with the current engine; record changed grades as AttemptGrade rows."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--dry-run", action="store_true", help="count the changes, write nothing")
        parser.add_argument("--kind", action="append", default=[], help="only this exercise type (repeatable)")

    def handle(self, *args: Any, dry_run: bool = False, kind: list[str] | None = None, **options: Any) -> None:
        verbosity = int(options.get("verbosity", 1))
        qs = Attempt.objects.with_grade().order_by("pk")
        if kind:
            qs = qs.filter(kind__in=kind)
        checked = changed = skipped = 0
        now = timezone.now()
        pending: list[AttemptGrade] = []
        for attempt in qs.iterator(chunk_size=500):
            if get_type(attempt.kind) is None:
                skipped += 1
                continue
            checked += 1
            try:
                correct = bool(grade_attempt(attempt).correct)
                note = "regrade: the current engine grades this answer differently"
            except AnswerError as exc:
                correct = False
                note = f"regrade: the answer can no longer be read ({exc.text.en})"[:300]
            if correct == attempt.effective_correct:
                continue
            changed += 1
            if verbosity >= 2:
                self.stdout.write(
                    f"attempt {attempt.pk} ({attempt.kind}/{attempt.difficulty}/{attempt.seed}): "
                    f"{'right' if attempt.effective_correct else 'wrong'} -> {'right' if correct else 'wrong'}"
                )
            pending.append(AttemptGrade(attempt_id=attempt.pk, correct=correct, graded_at=now, note=note))
        if pending and not dry_run:
            with transaction.atomic():
                AttemptGrade.objects.bulk_create(pending, batch_size=500)
        verb = "would change" if dry_run else "changed"
        message = f"{checked} attempts re-graded, {changed} {verb}"
        if skipped:
            message += f", {skipped} skipped (unknown exercise type)"
        self.stdout.write(self.style.SUCCESS(message) if not changed or not dry_run else message)

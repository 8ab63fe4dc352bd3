"""Re-grade every stored attempt with the current engine.

For each attempt the question is rebuilt from ``(kind, difficulty, seed)`` and the stored raw
answer is graded again. When the result differs from the attempt's effective grade (the newest
AttemptGrade, else the original), a new :class:`AttemptGrade` is written; attempts themselves
are never edited. ``--dry-run`` only counts.

An attempt whose question an older generator built (``Attempt.generator`` differs from the
type's :attr:`~skatschule.exercises.base.ExerciseType.generator`) is left alone and counted:
today's generator would build another question from its seed than the one the learner saw.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction
from django.utils import timezone

from skatschule.exercises.base import AnswerError
from skatschule.training.models import Attempt, AttemptGrade
from skatschule.training.registry import get_type
from skatschule.training.services.issuing import grade_attempt


def _regraded(attempt: Attempt, effective: bool) -> tuple[str, bool, str]:
    """What a re-grade says of ``attempt`` whose grade is ``effective`` now: (``unknown`` |
    ``older`` | ``same`` | ``changed``, the new grade, the note for its AttemptGrade)."""
    kind = get_type(attempt.kind)
    if kind is None:
        return "unknown", False, ""
    if attempt.generator != kind.generator:
        return "older", False, ""
    try:
        correct = bool(grade_attempt(attempt).correct)
        note = "regrade: the current engine grades this answer differently"
    except AnswerError as exc:
        correct = False
        note = f"regrade: the answer can no longer be read ({exc.text.en})"[:300]
    return ("same" if correct == effective else "changed"), correct, note


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
        counts: Counter[str] = Counter()
        now = timezone.now()
        pending: list[AttemptGrade] = []
        for attempt in qs.iterator(chunk_size=500):
            verdict, correct, note = _regraded(attempt, attempt.effective_correct)
            counts[verdict] += 1
            if verdict != "changed":
                continue
            if verbosity >= 2:
                self.stdout.write(
                    f"attempt {attempt.pk} ({attempt.kind}/{attempt.difficulty}/{attempt.seed}): "
                    f"{'right' if attempt.effective_correct else 'wrong'} -> {'right' if correct else 'wrong'}"
                )
            pending.append(AttemptGrade(attempt_id=attempt.pk, correct=correct, graded_at=now, note=note))
        if pending and not dry_run:
            with transaction.atomic():
                AttemptGrade.objects.bulk_create(pending, batch_size=500)
        checked, changed = counts["same"] + counts["changed"], counts["changed"]
        verb = "would change" if dry_run else "changed"
        message = f"{checked} attempts re-graded, {changed} {verb}"
        if counts["unknown"]:
            message += f", {counts['unknown']} skipped (unknown exercise type)"
        if counts["older"]:
            message += f", {counts['older']} left alone (their questions came from an older generator)"
        self.stdout.write(self.style.SUCCESS(message) if not changed or not dry_run else message)

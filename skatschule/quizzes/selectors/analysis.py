"""Reads for the item analysis: per item how many answered, how many right, the most common
wrong answers, the facility and discrimination indices."""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.core.cache import cache
from django.db.models import Count, FloatField, Max, Q
from django.db.models.functions import Coalesce
from django.utils.formats import number_format

from ..models import Quiz, QuizAnswer, QuizItem, ScoreOverride
from ..questions import teacher_item_title


@dataclass
class ItemStat:
    item: QuizItem
    title: str
    answered: int = 0
    correct: int = 0
    wrong: list[tuple[str, int]] = field(default_factory=list)
    facility: float | None = None
    """The facility index: the mean credit on the item over submitted attempts (0 to 1)."""
    discrimination: float | None = None
    """The discrimination index: mean credit of the top third minus that of the bottom third
    (attempts ranked by points; -1 to 1; None with fewer than 3 submitted attempts)."""

    @property
    def percent(self) -> int | None:
        return round(100 * self.correct / self.answered) if self.answered else None

    @property
    def facility_percent(self) -> int | None:
        return None if self.facility is None else round(100 * self.facility)

    @property
    def shown_discrimination(self) -> str:
        if self.discrimination is None:
            return "–"
        text = number_format(self.discrimination, decimal_pos=2)  # "+0,50" on German pages
        return text if self.discrimination < 0 else "+" + text


def item_stats(quiz: Quiz, *, lang: str = "de", top: int = 3) -> list[ItemStat]:
    """Per item, over submitted attempts: how many answered, % correct, most common wrong answers.

    Counted in SQL (``GROUP BY``). The counts are cached under a fingerprint of the submitted
    attempts (how many, the newest id and time, from the ``(quiz, submitted_at)`` index): the
    answers of a submitted attempt never change, so the same fingerprint means the same counts,
    and a new submission makes a new key. A repeated view costs one small aggregate.
    """

    stats = {item.pk: ItemStat(item, teacher_item_title(item.kind, lang)) for item in quiz.items.all()}
    submitted = quiz.attempts.filter(submitted_at__isnull=False).order_by()
    mark = submitted.aggregate(n=Count("pk"), top=Max("pk"), last=Max("submitted_at"))
    overridden = ScoreOverride.objects.filter(answer__attempt__quiz=quiz).aggregate(top=Max("pk"))["top"]
    key = (
        f"quizzes:item-stats:v2:{quiz.pk}:{mark['n']}:{mark['top']}:{mark['last'] and mark['last'].timestamp()}:"
        f"{overridden}:{hashlib.sha256(repr(sorted(stats)).encode()).hexdigest()[:12]}"
    )
    counted = cache.get(key)
    if counted is None:
        counted = (_count_item_answers(quiz, set(stats)), item_indices(quiz, item_pks=set(stats)))
        cache.set(key, counted, timeout=24 * 3600)
    answers, indices = counted
    for pk, (answered, correct, wrong) in answers.items():
        if pk in stats:
            stats[pk].answered, stats[pk].correct = answered, correct
            stats[pk].wrong = [(value, n) for value, n in wrong[:top]]
    for pk, (facility, discrimination) in indices.items():
        if pk in stats:
            stats[pk].facility, stats[pk].discrimination = facility, discrimination
    return list(stats.values())


def item_indices(quiz: Quiz, *, item_pks: set[int]) -> dict[int, tuple[float | None, float | None]]:
    """Per item: (facility index, discrimination index) over the submitted attempts.

    An item an attempt left unanswered counts 0 (or the teacher's grade of it). Attempts are ranked
    by their points (ties by id); the top and bottom thirds have ``n // 3`` attempts each, so the
    middle is left out.
    """
    ranked = list(
        quiz.attempts.filter(submitted_at__isnull=False).order_by("-points", "pk").values_list("pk", flat=True)
    )
    if not ranked:
        return {pk: (None, None) for pk in item_pks}
    effective = Coalesce("override_credit", "credit", output_field=FloatField())
    credits: dict[tuple[int, int], float] = {
        (attempt_id, item_id): float(value)
        for attempt_id, item_id, value in QuizAnswer.objects.filter(attempt_id__in=ranked)
        .order_by()
        .values_list("attempt_id", "item_id", effective)
    }
    third = len(ranked) // 3

    def mean(attempt_ids: Sequence[int], item_pk: int) -> float:
        return sum(credits.get((a, item_pk), 0.0) for a in attempt_ids) / len(attempt_ids)

    return {
        pk: (
            mean(ranked, pk),
            round(mean(ranked[:third], pk) - mean(ranked[-third:], pk), 4) if third else None,
        )
        for pk in item_pks
    }


def _count_item_answers(quiz: Quiz, item_pks: set[int]) -> dict[int, tuple[int, int, list[tuple[str, int]]]]:
    """Per item: answers in submitted attempts, right ones, wrong answers by frequency (GROUP BY)."""
    answers = QuizAnswer.objects.filter(
        attempt__quiz=quiz, attempt__submitted_at__isnull=False, answered=True
    ).order_by()
    totals = {pk: [0, 0] for pk in item_pks}
    for row in answers.values("item_id").annotate(n=Count("pk"), right=Count("pk", filter=Q(correct=True))):
        if row["item_id"] in totals:
            totals[row["item_id"]] = [row["n"], row["right"]]
    wrong: dict[int, Counter[str]] = {pk: Counter() for pk in item_pks}
    for item_id, normalized, n in (
        answers.filter(correct=False)
        .values("item_id", "normalized")
        .annotate(n=Count("pk"))
        .values_list("item_id", "normalized", "n")
    ):
        if item_id in wrong:
            wrong[item_id][normalized or "–"] += n
    return {
        pk: (totals[pk][0], totals[pk][1], sorted(wrong[pk].items(), key=lambda pair: (-pair[1], pair[0]))[:10])
        for pk in item_pks
    }

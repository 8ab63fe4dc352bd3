"""What the training app stores.

Design rules (see also ``services/``):

- **Issued exercises are server-side state.** An exercise is fully determined by
  ``(kind, difficulty, seed)``; the server picks the seed and keeps it in
  :class:`IssuedExercise`. The browser only ever sees the public uuid, so it can neither
  grade itself nor answer an exercise that was never issued to it.
- **Attempts are append-only.** One :class:`Attempt` per issued exercise (a unique
  one-to-one link, so a double submit records one attempt). The grading fields of an
  attempt are never edited. When the engine changes, ``manage.py regrade`` writes an
  :class:`AttemptGrade` row instead; the *effective* grade of an attempt is the newest
  ``AttemptGrade`` if there is one, else ``Attempt.correct``
  (:meth:`AttemptQuerySet.with_grade` annotates it as ``effective_correct``).
  The only bulk change ever made to attempts is moving their owner from an anonymous
  session to the user who signs up or logs in (``services.adoption.adopt_session``).
- **Progress is derived** from the attempts: accuracy, streaks, mastery and the progress
  bars are a function of the owner's history (``selectors``). :class:`ProgressSummary`
  keeps that function's running state per owner (updated in the answer's own transaction),
  so a page does not re-read years of history; it is checked against the attempts on every
  read and rebuilt from them whenever it does not match (``services.progress_summary``).
- **Which attempts count** for anyone else than the learner's own history (homework, class
  progress and its exports, mastery seen by a teacher) is decided in one place,
  :meth:`AttemptQuerySet.counting`: only attempts with ``counts_for_mastery`` (never history
  from an unsigned import), each at ``counted_at``, its own time or, for an imported attempt,
  the moment of the import, whichever is later: an import keeps its dates but cannot
  backdate anything.
- **Review items** hold the spaced-repetition state of a missed exercise (an ``fsrs``
  card as JSON and its due time). They are scheduling state, not statistics.

An owner is either a user (``user`` set, ``session_key`` empty) or an anonymous session
(``user`` empty, ``session_key`` set); see ``skatschule.owners.Owner``.
"""

from __future__ import annotations

import uuid
from typing import Any, Self

from django.conf import settings
from django.db import models
from django.db.models import BooleanField, F, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce, Greatest
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from skatschule.owners import SESSION_KEY_LENGTH, OwnedQuerySet, owner_check


class IssuedExercise(models.Model):
    """One exercise handed out to one owner: the server-side state of a question."""

    class Mode(models.TextChoices):
        LESSON = "lesson", _("Lektion")
        PRACTICE = "practice", _("Freies Üben")
        REVIEW = "review", _("Wiederholung")

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="issued_exercises"
    )
    session_key = models.CharField(max_length=SESSION_KEY_LENGTH, blank=True, default="", db_index=True)
    kind = models.CharField(max_length=40)
    difficulty = models.PositiveSmallIntegerField()
    seed = models.PositiveIntegerField(help_text="random 31-bit seed chosen by the server")
    lesson = models.CharField(max_length=60, null=True, blank=True)
    mode = models.CharField(max_length=10, choices=Mode.choices, default=Mode.PRACTICE)
    issued_at = models.DateTimeField(default=timezone.now, db_index=True)
    review_item = models.ForeignKey(
        "ReviewItem",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="variants",
        help_text="for a review: the missed exercise this fresh variant stands for",
    )

    objects = OwnedQuerySet.as_manager()

    class Meta:
        ordering = ["-issued_at", "-pk"]
        constraints = [owner_check("issued_exercise_has_one_owner")]
        indexes = [
            # the unanswered review exercise of an item (variants.issued_for_review)
            models.Index(fields=["user", "kind", "difficulty", "seed"], name="issued_user_exercise_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.kind}/{self.difficulty}/{self.seed} ({self.public_id})"


# Rows of Any: the annotations below (``effective_correct``, ``counted_at``) are read and filtered
# on downstream, which django-stubs cannot follow through a ``Self``-typed queryset.
class AttemptQuerySet(OwnedQuerySet[Any]):
    def with_grade(self) -> Self:
        """Annotate ``effective_correct``: the newest AttemptGrade, else the original grade."""
        latest = AttemptGrade.objects.filter(attempt=OuterRef("pk")).order_by("-graded_at", "-pk").values("correct")[:1]
        annotated: Self = self.annotate(
            effective_correct=Coalesce(Subquery(latest, output_field=BooleanField()), F("correct"))
        )
        return annotated

    def counting(self) -> Self:
        """The one rule for which attempts count (for mastery, homework, class progress): never
        history imported from an unsigned file; annotated ``counted_at``, the attempt's time or,
        when it was imported, the import's moment if that is later (it never counts earlier)."""
        annotated: Self = self.filter(counts_for_mastery=True).annotate(
            counted_at=Greatest(F("created_at"), Coalesce(F("imported_at"), F("created_at")))
        )
        return annotated


class AppendOnlyError(RuntimeError):
    """An attempt or grade was about to be edited in place."""


class Attempt(models.Model):
    """The one answer to one issued exercise. Append-only (see the module docstring)."""

    issued = models.OneToOneField(IssuedExercise, on_delete=models.CASCADE, related_name="attempt")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="attempts"
    )
    session_key = models.CharField(max_length=SESSION_KEY_LENGTH, blank=True, default="", db_index=True)
    kind = models.CharField(max_length=40, db_index=True)
    difficulty = models.PositiveSmallIntegerField()
    seed = models.PositiveIntegerField()
    lesson = models.CharField(max_length=60, null=True, blank=True)
    answer = models.JSONField(default=list, help_text="the raw answer values (list of strings)")
    normalized = models.CharField(max_length=500, blank=True, default="")
    correct = models.BooleanField(help_text="the grade at submission time; see AttemptGrade for re-grades")
    time_taken_ms = models.PositiveIntegerField(help_text="server-side: submitted - issued, capped")
    rule_ids = models.JSONField(default=list)
    generator = models.PositiveSmallIntegerField(
        default=1, help_text="the version of the type's generator that built the question (ExerciseType.generator)"
    )
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    counts_for_mastery = models.BooleanField(
        default=True,
        help_text="False for history imported from an unsigned file: kept, but no mastery or streak",
    )
    imported_at = models.DateTimeField(
        null=True, blank=True, help_text="when it came in by a progress import (None: answered here)"
    )

    objects = AttemptQuerySet.as_manager()

    class Meta:
        ordering = ["created_at", "pk"]
        indexes = [
            # a learner's history in its order (created_at, pk): progress rebuild, streamed export
            models.Index(fields=["user", "created_at", "id"], name="attempt_user_time_idx"),
            models.Index(fields=["session_key", "created_at", "id"], name="attempt_session_time_idx"),
        ]
        constraints = [
            owner_check("attempt_has_one_owner"),
            # an import adds an exercise's answer at a time once, however many imports run at once
            models.UniqueConstraint(
                fields=["user", "kind", "difficulty", "seed", "created_at"],
                condition=Q(imported_at__isnull=False),
                name="attempt_imported_once",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind}/{self.difficulty}/{self.seed}: {'right' if self.correct else 'wrong'}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise AppendOnlyError("Attempts are append-only; write an AttemptGrade instead")
        super().save(*args, **kwargs)

    def effective_grade(self) -> bool:
        """The newest re-grade, else the original grade (one query; prefer ``with_grade()`` in lists)."""
        grade = self.grades.order_by("-graded_at", "-pk").first()
        return grade.correct if grade else self.correct


class AttemptGrade(models.Model):
    """A later grade of an attempt (``manage.py regrade``). The newest one wins."""

    attempt = models.ForeignKey(Attempt, on_delete=models.CASCADE, related_name="grades")
    correct = models.BooleanField()
    graded_at = models.DateTimeField(default=timezone.now, db_index=True)
    note = models.CharField(max_length=300, blank=True, default="")

    class Meta:
        ordering = ["graded_at", "pk"]

    def __str__(self) -> str:
        return f"{self.attempt_id}: {'right' if self.correct else 'wrong'} ({self.graded_at:%Y-%m-%d})"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise AppendOnlyError("AttemptGrades are append-only; write a new one")
        super().save(*args, **kwargs)


class ReviewItem(models.Model):
    """A missed exercise in the owner's spaced-repetition queue (one fsrs card)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="review_items"
    )
    session_key = models.CharField(max_length=SESSION_KEY_LENGTH, blank=True, default="", db_index=True)
    kind = models.CharField(max_length=40)
    difficulty = models.PositiveSmallIntegerField()
    seed = models.PositiveIntegerField()
    card = models.JSONField(help_text="fsrs Card.to_dict()")
    due = models.DateTimeField(db_index=True)
    reviews = models.PositiveIntegerField(default=0, help_text="answers given since the miss that created it")
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)

    objects = OwnedQuerySet.as_manager()

    class Meta:
        ordering = ["due", "pk"]
        indexes = [models.Index(fields=["user", "due"], name="review_item_user_due_idx")]  # the review queue
        constraints = [
            owner_check("review_item_has_one_owner"),
            models.UniqueConstraint(
                fields=["user", "kind", "difficulty", "seed"],
                condition=Q(user__isnull=False),
                name="review_item_unique_per_user",
            ),
            models.UniqueConstraint(
                fields=["session_key", "kind", "difficulty", "seed"],
                condition=Q(user__isnull=True),
                name="review_item_unique_per_session",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind}/{self.difficulty}/{self.seed} due {self.due:%Y-%m-%d %H:%M}"


class ProgressSummary(models.Model):
    """The running state of the progress derivation for one owner (a cache, never the truth).

    ``state`` is written by ``services.progress_summary``; ``attempts``, ``last_attempt`` and
    ``last_grade`` say which history it summarises, and a read that finds the attempts
    different rebuilds it.
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="progress_summary"
    )
    session_key = models.CharField(max_length=SESSION_KEY_LENGTH, blank=True, default="")
    state = models.JSONField(default=dict)
    updated_at = models.DateTimeField(default=timezone.now)

    objects = OwnedQuerySet.as_manager()

    class Meta:
        constraints = [
            owner_check("progress_summary_has_one_owner"),
            models.UniqueConstraint(
                fields=["session_key"], condition=Q(user__isnull=True), name="progress_summary_unique_per_session"
            ),
        ]

    def __str__(self) -> str:
        return f"progress summary of {self.user_id or self.session_key}"

"""The referee exam (Schiedsrichter-Prüfung): server-side state.

- :class:`Exam`: one exam of one owner (a user, or an anonymous session as in the
  training app, see ``skatschule.owners.Owner``), with its size, time limit
  and start. The browser only sees the public uuid.
- :class:`ExamQuestion`: one question of the exam as ``(kind, difficulty, seed)`` of an
  exercise type (``fall`` or ``regelverstoss``); the question is rebuilt from these, the
  answer is never stored before it is given. The first answer counts: it is written with
  a conditional update (only while ``answered_at`` is empty), so a double submission
  cannot answer twice.

Logic lives in :mod:`.services`.
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from skatschule.owners import SESSION_KEY_LENGTH, OwnedQuerySet


class Exam(models.Model):
    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="referee_exams"
    )
    session_key = models.CharField(max_length=SESSION_KEY_LENGTH, blank=True, default="", db_index=True)
    size = models.PositiveSmallIntegerField()
    time_limit_s = models.PositiveIntegerField(help_text="seconds from the start")
    started_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)
    pass_percent = models.PositiveSmallIntegerField(
        default=80, help_text="pass mark in percent, set by the exam's creator"
    )
    group = models.ForeignKey(
        "GroupExam",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="exams",
        help_text="the trainer's group exam this is one participant's sitting of",
    )

    objects = OwnedQuerySet.as_manager()

    class Meta:
        ordering = ["-started_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=(Q(user__isnull=False) & Q(session_key="")) | (Q(user__isnull=True) & ~Q(session_key="")),
                name="exam_has_one_owner",
            ),
            models.CheckConstraint(
                condition=Q(pass_percent__gte=1) & Q(pass_percent__lte=100), name="exam_pass_percent_range"
            ),
            models.UniqueConstraint(
                fields=["group", "user"], condition=Q(group__isnull=False), name="group_exam_once_per_user"
            ),
        ]

    def __str__(self) -> str:
        return f"exam {self.public_id} ({self.size} questions)"

    @property
    def deadline(self) -> datetime:
        return self.started_at + timedelta(seconds=self.time_limit_s)


class ExamQuestion(models.Model):
    exam = models.ForeignKey(Exam, on_delete=models.CASCADE, related_name="questions")
    position = models.PositiveSmallIntegerField(help_text="1 .. size")
    kind = models.CharField(max_length=40)
    difficulty = models.PositiveSmallIntegerField()
    seed = models.PositiveIntegerField()
    answer = models.JSONField(null=True, blank=True, help_text="the raw answer values, once given")
    correct = models.BooleanField(null=True, blank=True)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["exam", "position"]
        constraints = [models.UniqueConstraint(fields=["exam", "position"], name="exam_question_unique_position")]

    def __str__(self) -> str:
        return f"{self.exam_id}#{self.position}: {self.kind}/{self.difficulty}/{self.seed}"


class SolvedCase(models.Model):
    """A signed-in reader's answers to one case of the casebook (one row per user and case).

    ``solved`` is the grade of the first answer (and stays true once true); ``last_correct`` is the
    grade of the latest answer; ``attempts`` counts every graded answer. Only the case id is
    stored (case ids never change once published), never the answer itself.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="solved_cases")
    case_id = models.CharField(max_length=8)
    attempts = models.PositiveIntegerField(default=0)
    solved = models.BooleanField(default=False)
    last_correct = models.BooleanField(default=False)
    first_solved_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["user", "case_id"]
        constraints = [models.UniqueConstraint(fields=["user", "case_id"], name="solved_case_unique_per_user")]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.case_id} ({'solved' if self.solved else 'tried'})"


class GroupExam(models.Model):
    """A trainer's exam for a referee course (issue 18): one fixed seed, so everyone in the
    class gets the same questions in the same order; each participant sits it once (an
    :class:`Exam` with ``group`` set). Open-book: the rules are linked from each question."""

    classroom = models.ForeignKey("classrooms.Classroom", on_delete=models.CASCADE, related_name="group_exams")
    creator = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="group_exams_created")
    title = models.CharField(max_length=120)
    seed = models.PositiveBigIntegerField()
    size = models.PositiveSmallIntegerField()
    pass_percent = models.PositiveSmallIntegerField(default=80)
    open_book = models.BooleanField(default=True)
    created_at = models.DateTimeField(default=timezone.now)
    review_released_at = models.DateTimeField(
        null=True, blank=True, help_text="when the trainer opened the reviews with the right answers (None: not yet)"
    )

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.CheckConstraint(condition=~Q(title=""), name="group_exam_title_not_empty"),
            models.CheckConstraint(
                condition=Q(pass_percent__gte=1) & Q(pass_percent__lte=100), name="group_exam_pass_percent_range"
            ),
        ]

    def __str__(self) -> str:
        return self.title

"""Teachers, classes and who is in them.

- A user is a **teacher** when they are in the group ``Lehrkräfte`` (:data:`TEACHER_GROUP`).
  An admin grants it (Django admin: put the user in the group, or the action on
  :class:`TeacherInvitation`), or the user redeems a :class:`TeacherInvitation` code at
  ``/klassen/lehrkraft/``.
- A :class:`Classroom` belongs to one teacher and has a short join code (unique, stored
  upper-case, compared case-insensitively, rotatable).
- A :class:`Membership` puts one student in one class (unique per pair); a student may be
  in several classes.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Length
from django.db.models.lookups import Exact, GreaterThanOrEqual
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

TEACHER_GROUP = "Lehrkräfte"
CODE_LENGTH = 8


class TeacherInvitation(models.Model):
    """A code that makes whoever redeems it a teacher, ``uses_left`` times."""

    code = models.CharField(_("Code"), max_length=40, unique=True, help_text=_("Groß- und Kleinschreibung egal."))
    uses_left = models.PositiveIntegerField(_("Noch einlösbar"), default=1)
    note = models.CharField(_("Notiz"), max_length=200, blank=True, default="")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("Einladung für Lehrkräfte")
        verbose_name_plural = _("Einladungen für Lehrkräfte")
        constraints = [
            models.CheckConstraint(
                condition=GreaterThanOrEqual(Length("code"), 6), name="teacher_invitation_code_min_length"
            ),
            models.CheckConstraint(condition=Q(uses_left__gte=0), name="teacher_invitation_uses_not_negative"),
        ]

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.code = (self.code or "").strip().upper()
        super().save(*args, **kwargs)

    def __str__(self) -> str:
        return f"{self.code} ({self.uses_left})"


class Classroom(models.Model):
    teacher = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="classrooms_taught")
    name = models.CharField(_("Name"), max_length=100)
    join_code = models.CharField(_("Beitrittscode"), max_length=CODE_LENGTH, unique=True)
    created_at = models.DateTimeField(default=timezone.now)
    students = models.ManyToManyField(
        settings.AUTH_USER_MODEL, through="Membership", related_name="classrooms_joined", blank=True
    )

    class Meta:
        ordering = ["name", "pk"]
        verbose_name = _("Klasse")
        verbose_name_plural = _("Klassen")
        constraints = [
            models.CheckConstraint(condition=~Q(name=""), name="classroom_name_not_empty"),
            models.CheckConstraint(
                condition=Exact(Length("join_code"), CODE_LENGTH), name="classroom_join_code_length"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    classroom = models.ForeignKey(Classroom, on_delete=models.CASCADE, related_name="memberships")
    student = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    joined_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["joined_at", "pk"]
        verbose_name = _("Mitgliedschaft")
        verbose_name_plural = _("Mitgliedschaften")
        constraints = [models.UniqueConstraint(fields=["classroom", "student"], name="membership_once_per_class")]

    def __str__(self) -> str:
        return f"{self.student} in {self.classroom}"


class Assignment(models.Model):
    """Homework (issue 18): a lesson to master or a quiz to submit, for one class, by a due time.

    Whether a student has done it is computed, not stored (``classrooms.homework``): a lesson
    counts from the first moment the student's practice met the lesson's mastery rule, a quiz
    from the first submitted attempt. Done after ``due_at`` is marked late.
    """

    class Kind(models.TextChoices):
        LESSON = "lesson", _("Lektion meistern")
        QUIZ = "quiz", _("Quiz abgeben")

    classroom = models.ForeignKey(Classroom, on_delete=models.CASCADE, related_name="assignments")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    lesson_slug = models.CharField(max_length=60, blank=True, default="")
    quiz = models.ForeignKey(
        "quizzes.Quiz", null=True, blank=True, on_delete=models.CASCADE, related_name="assignments"
    )
    due_at = models.DateTimeField(_("Fällig am"))
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["due_at", "pk"]
        verbose_name = _("Hausaufgabe")
        verbose_name_plural = _("Hausaufgaben")
        constraints = [
            models.CheckConstraint(
                condition=(Q(kind="lesson") & ~Q(lesson_slug="") & Q(quiz__isnull=True))
                | (Q(kind="quiz") & Q(lesson_slug="") & Q(quiz__isnull=False)),
                name="assignment_lesson_xor_quiz",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.classroom_id}: {self.lesson_slug or self.quiz_id} bis {self.due_at:%Y-%m-%d}"

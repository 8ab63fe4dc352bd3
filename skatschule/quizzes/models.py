"""Quizzes a teacher sets for one class, the students' attempts and their answers.

Design rules (the logic is in ``services``):

- **No answer key is stored.** An item is ``(kind, difficulty, seed)``; the question is
  generated from it and graded by the exercise type (the engine), like in training.
- **Variants.** ``fixed``: everyone gets ``QuizItem.seed``. ``random``: each student gets a
  seed derived with SHA-256 from the quiz's secret, the student's id and the item's position
  (stable across reloads, different between students). The kind and level of an item are the
  same for everyone, so per-item statistics compare like with like.
- **Attempts.** One row per (quiz, student, number); ``submitted_at`` is set exactly once by a
  conditional ``UPDATE ... WHERE submitted_at IS NULL``. One :class:`QuizAnswer` per
  (attempt, item), updated while the attempt is open.
- **Grades of unanswered items.** As in Moodle's manual grading, a teacher may grade an item
  the student left unanswered (0 or part credit after an oral answer): that makes a
  ``QuizAnswer`` row with ``answered=False`` (no values, no credit of its own) that only holds
  the override. Every read of *what the student answered* filters ``answered=True``; the
  points (``attempt_points``, the facility index) take every row.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

MAX_ITEMS = 30
MAX_ATTEMPTS = 10
MAX_MINUTES = 24 * 60


class Quiz(models.Model):
    class Variants(models.TextChoices):
        FIXED = "fixed", _("Für alle gleich")
        RANDOM = "random", _("Zufällige Varianten je Person")

    class ShowAnswers(models.TextChoices):
        IMMEDIATELY = "immediately", _("Sofort nach jeder Antwort")
        AFTER_SUBMIT = "after_submit", _("Nach der Abgabe")
        AFTER_CLOSE = "after_close", _("Nach dem Ende des Quiz")

    class PartialCredit(models.TextChoices):
        ALL_OR_NOTHING = "all_or_nothing", _("Alles oder nichts: ein Punkt nur für eine ganz richtige Antwort")
        RIGHT_MINUS_WRONG = (
            "right_minus_wrong",
            _(
                "Teilpunkte: bei Mehrfachauswahl richtige minus falsche Kreuze (mindestens 0), bei mehrteiligen "
                "Aufgaben ein Anteil je richtigem Teil"
            ),
        )

    class GradingPolicy(models.TextChoices):
        HIGHEST = "highest", _("Bester Versuch")
        LAST = "last", _("Letzter Versuch")
        FIRST = "first", _("Erster Versuch")
        AVERAGE = "average", _("Durchschnitt aller Versuche")

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="quizzes_set")
    classroom = models.ForeignKey("classrooms.Classroom", on_delete=models.CASCADE, related_name="quizzes")
    title = models.CharField(_("Titel"), max_length=120)
    sources = models.JSONField(default=dict, blank=True, help_text="what the teacher chose: kinds, lessons, rules")
    difficulty = models.PositiveSmallIntegerField(_("Schwierigkeit"), default=1)
    variants = models.CharField(_("Varianten"), max_length=10, choices=Variants.choices, default=Variants.FIXED)
    secret = models.CharField(max_length=64, editable=False)
    opens_at = models.DateTimeField(_("Beginn"), null=True, blank=True)
    closes_at = models.DateTimeField(pgettext_lazy("Quiz", "Ende"), null=True, blank=True)
    time_limit_minutes = models.PositiveIntegerField(_("Zeitlimit (Minuten)"), null=True, blank=True)
    max_attempts = models.PositiveSmallIntegerField(_("Erlaubte Versuche"), default=1)
    show_answers = models.CharField(
        _("Lösungen zeigen"), max_length=20, choices=ShowAnswers.choices, default=ShowAnswers.AFTER_SUBMIT
    )
    partial_credit = models.CharField(
        _("Teilpunkte"), max_length=20, choices=PartialCredit.choices, default=PartialCredit.ALL_OR_NOTHING
    )
    grading_policy = models.CharField(
        _("Bewertung bei mehreren Versuchen"),
        max_length=10,
        choices=GradingPolicy.choices,
        default=GradingPolicy.HIGHEST,
    )
    created_at = models.DateTimeField(default=timezone.now)
    published_at = models.DateTimeField(
        _("Veröffentlicht ab"),
        null=True,
        blank=True,
        help_text="empty: a draft only the teacher sees (quizzes.publishing)",
    )

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("Quiz")
        verbose_name_plural = _("Quizze")
        constraints = [
            models.CheckConstraint(condition=~Q(title=""), name="quiz_title_not_empty"),
            models.CheckConstraint(
                condition=Q(max_attempts__gte=1) & Q(max_attempts__lte=MAX_ATTEMPTS), name="quiz_attempts_range"
            ),
            models.CheckConstraint(
                condition=Q(time_limit_minutes__isnull=True)
                | (Q(time_limit_minutes__gte=1) & Q(time_limit_minutes__lte=MAX_MINUTES)),
                name="quiz_time_limit_range",
            ),
            models.CheckConstraint(
                condition=Q(opens_at__isnull=True) | Q(closes_at__isnull=True) | Q(closes_at__gt=models.F("opens_at")),
                name="quiz_closes_after_opening",
            ),
            models.CheckConstraint(
                condition=~Q(show_answers="after_close") | Q(closes_at__isnull=False),
                name="quiz_after_close_needs_close_time",
            ),
        ]

    def __str__(self) -> str:
        return self.title


class QuizItem(models.Model):
    quiz = models.ForeignKey(Quiz, on_delete=models.CASCADE, related_name="items")
    position = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=40)
    difficulty = models.PositiveSmallIntegerField()
    seed = models.PositiveIntegerField(help_text="the variant for fixed quizzes and for the paper sheet")

    class Meta:
        ordering = ["quiz", "position"]
        constraints = [
            models.UniqueConstraint(fields=["quiz", "position"], name="quiz_item_position_unique"),
            models.CheckConstraint(condition=Q(position__gte=1), name="quiz_item_position_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.quiz_id}#{self.position} {self.kind}:{self.difficulty}"


class QuizAttempt(models.Model):
    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    quiz = models.ForeignKey(Quiz, on_delete=models.CASCADE, related_name="attempts")
    student = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="quiz_attempts")
    number = models.PositiveSmallIntegerField(default=1)
    started_at = models.DateTimeField(default=timezone.now)
    deadline = models.DateTimeField(
        null=True, blank=True, help_text="started_at + time limit, capped by the close time"
    )
    updated_at = models.DateTimeField(default=timezone.now)
    submitted_at = models.DateTimeField(null=True, blank=True)
    score = models.PositiveSmallIntegerField(null=True, blank=True)
    """Items answered fully right."""
    points = models.FloatField(null=True, blank=True)
    """The graded result: the items' credits (partial credit, overrides), set at submission."""

    class Meta:
        ordering = ["quiz", "student", "number"]
        indexes = [models.Index(fields=["quiz", "submitted_at"], name="quiz_attempt_open_idx")]  # open attempts, stats
        verbose_name = _("Versuch")
        verbose_name_plural = _("Versuche")
        constraints = [
            models.UniqueConstraint(fields=["quiz", "student", "number"], name="quiz_attempt_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="quiz_attempt_number_positive"),
            models.CheckConstraint(
                condition=Q(submitted_at__isnull=True, score__isnull=True)
                | Q(submitted_at__isnull=False, score__isnull=False),
                name="quiz_attempt_score_iff_submitted",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.quiz} · {self.student} · {self.number}"


class QuizAnswer(models.Model):
    attempt = models.ForeignKey(QuizAttempt, on_delete=models.CASCADE, related_name="answers")
    item = models.ForeignKey(QuizItem, on_delete=models.CASCADE, related_name="answers")
    values = models.JSONField(default=list)
    normalized = models.CharField(max_length=500, blank=True, default="")
    correct = models.BooleanField(default=False)
    credit = models.FloatField(default=0.0, help_text="0 to 1: the engine's grade under the quiz's partial credit rule")
    override_credit = models.FloatField(null=True, blank=True, help_text="the teacher's last override (ScoreOverride)")
    override_comment = models.TextField(blank=True, default="")
    answered_at = models.DateTimeField(default=timezone.now)
    answered = models.BooleanField(
        default=True, help_text="False: the student gave no answer; the row only holds the teacher's grade"
    )

    class Meta:
        ordering = ["attempt", "item__position"]
        constraints = [
            models.UniqueConstraint(fields=["attempt", "item"], name="quiz_answer_once_per_item"),
            models.CheckConstraint(
                condition=Q(answered=True) | Q(correct=False, credit=0, normalized=""),
                name="quiz_answer_unanswered_earns_nothing",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.attempt_id}/{self.item_id}: {self.normalized}"


class OwnItem(models.Model):
    """A teacher's own question (issue 18): a situation they set up with the card picker, asked
    as one of the existing exercise types. Only the situation is stored; the question and
    its answer come from the exercise type and the engine (``quizzes.own_items``)."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="own_items")
    kind = models.CharField(max_length=40)
    title = models.CharField(_("Titel"), max_length=120)
    situation = models.JSONField(default=dict, help_text="game, leader seat, trick and hand as card codes")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("Eigene Aufgabe")
        verbose_name_plural = _("Eigene Aufgaben")
        constraints = [models.CheckConstraint(condition=~Q(title=""), name="own_item_title_not_empty")]

    def __str__(self) -> str:
        return f"{self.title} ({self.kind})"


class ScoreOverride(models.Model):
    """A teacher's manual score for one answer, with a comment the student sees. Every override is
    kept (who, when); the newest one is copied to ``QuizAnswer.override_credit``."""

    answer = models.ForeignKey(QuizAnswer, on_delete=models.CASCADE, related_name="overrides")
    credit = models.FloatField()
    comment = models.TextField(max_length=1000, blank=True, default="")
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["answer", "at", "pk"]
        constraints = [
            models.CheckConstraint(condition=Q(credit__gte=0) & Q(credit__lte=1), name="score_override_credit_range")
        ]

    def __str__(self) -> str:
        return f"{self.answer_id}: {self.credit} ({self.at:%Y-%m-%d %H:%M})"


class LiveSession(models.Model):
    """A quiz taken live in class (issue 28 §2): the teacher shows one item at a time and reveals
    it when ready. Answers are the students' ordinary :class:`QuizAnswer` rows in their ordinary
    attempts (``attempts``); the session only keeps which item is shown and whether it is revealed."""

    quiz = models.ForeignKey(Quiz, on_delete=models.CASCADE, related_name="live_sessions")
    position = models.PositiveSmallIntegerField(default=0, help_text="the item shown; 0 before the first")
    revealed = models.BooleanField(default=False)
    started_at = models.DateTimeField(default=timezone.now)
    ended_at = models.DateTimeField(null=True, blank=True)
    attempts = models.ManyToManyField(QuizAttempt, blank=True, related_name="live_sessions")
    code = models.CharField(max_length=6, blank=True, default="", help_text="the join code shown in the lobby")
    seconds = models.PositiveSmallIntegerField(default=20, help_text="time per question unless the teacher says else")
    shown_at = models.DateTimeField(null=True, blank=True, help_text="when the item shown was shown (server time)")
    deadline = models.DateTimeField(null=True, blank=True, help_text="no answer to the item shown after this")

    class Meta:
        ordering = ["-started_at", "-pk"]
        verbose_name = _("Live-Runde")
        verbose_name_plural = _("Live-Runden")
        constraints = [
            models.UniqueConstraint(
                fields=["quiz"], condition=Q(ended_at__isnull=True), name="live_session_one_open_per_quiz"
            )
        ]

    def __str__(self) -> str:
        return f"{self.quiz} live #{self.pk} ({self.position})"


class LiveParticipant(models.Model):
    """A learner who joined a live round (the lobby's count), answered or not."""

    session = models.ForeignKey(LiveSession, on_delete=models.CASCADE, related_name="participants")
    student = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="live_participations")
    joined_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["session", "student"], name="live_participant_once")]

    def __str__(self) -> str:
        return f"{self.session} · {self.student}"


class LivePoints(models.Model):
    """The speed points of one live answer (the leaderboard's score; the quiz's grade stays in
    :class:`QuizAnswer`): ``seconds`` from the item shown to the answer, server time."""

    session = models.ForeignKey(LiveSession, on_delete=models.CASCADE, related_name="points")
    student = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="live_points")
    item = models.ForeignKey(QuizItem, on_delete=models.CASCADE, related_name="live_points")
    points = models.PositiveIntegerField(default=0)
    seconds = models.FloatField(default=0.0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["session", "student", "item"], name="live_points_once")]

    def __str__(self) -> str:
        return f"{self.session} · {self.student} · {self.item_id}: {self.points}"


class LiveReveal(models.Model):
    """An item whose right answer a live round showed (issue 33, M1): from ``revealed_at`` on, an
    answer to it earns nothing in any attempt at the quiz (it could be copied from the projector)."""

    session = models.ForeignKey(LiveSession, on_delete=models.CASCADE, related_name="reveals")
    item = models.ForeignKey(QuizItem, on_delete=models.CASCADE, related_name="live_reveals")
    revealed_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["session", "item"], name="live_reveal_once_per_item")]

    def __str__(self) -> str:
        return f"{self.session} revealed {self.item_id}"

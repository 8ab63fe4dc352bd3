"""Studies: a deal a teacher annotates, with notes at any card and stops ("Was spielst du?").

A :class:`Study` holds the whole game as the engine's record (:class:`skatschule.engine.puzzles.Spot`
as JSON, every card played). A *moment* ``n`` is the position after the first ``n`` cards: a note
at moment ``n`` is shown there, and a stop at moment ``n`` asks for card ``n`` (the mover's choice)
before the board goes on. Each :class:`StudyStop` is graded once by a job (:mod:`.work`) with the
open-hand solver; a learner's first answer to a stop is a :class:`StudyAnswer`.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from skatschule.owners import SESSION_KEY_LENGTH, OwnedQuerySet, owner_check

TOKEN_LENGTH = 32


class Study(models.Model):
    class Source(models.TextChoices):
        TYPED = "eingabe", "eingabe"
        ISS = "iss", "iss"
        TABLE = "tisch", "tisch"

    teacher = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="studies")
    title = models.CharField(max_length=100)
    record = models.JSONField(help_text="the whole game: engine/puzzles.py Spot.as_dict, every card played")
    source = models.CharField(max_length=10, choices=Source.choices)
    notes = models.JSONField(default=dict, blank=True, help_text='{"moment": text}: a note before card "moment"')
    classroom = models.ForeignKey(
        "classrooms.Classroom", null=True, blank=True, on_delete=models.SET_NULL, related_name="studies"
    )
    link_shared = models.BooleanField(default=False, help_text="anyone with the link may open it")
    token = models.CharField(max_length=TOKEN_LENGTH, unique=True, help_text="the unguessable key of its address")
    job = models.ForeignKey("jobs.Job", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created", "-pk"]

    def __str__(self) -> str:
        return f"Studie {self.title}"


class StudyStop(models.Model):
    class Status(models.TextChoices):
        WAITING = "wartet", "wartet"
        GRADED = "bewertet", "bewertet"
        TOO_BIG = "zu-gross", "zu-gross"

    study = models.ForeignKey(Study, on_delete=models.CASCADE, related_name="stops")
    moment = models.PositiveSmallIntegerField(help_text="the stop asks for card number moment (0 = the first lead)")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING)
    right = models.JSONField(default=list, blank=True, help_text="the card codes that keep the best result")
    values = models.JSONField(default=dict, blank=True, help_text="the solver's value after each legal card")
    goal = models.CharField(max_length=10, blank=True, default="")

    class Meta:
        ordering = ["moment"]
        constraints = [models.UniqueConstraint(fields=["study", "moment"], name="study_stop_unique_moment")]


class StudyAnswer(models.Model):
    """A learner's first answer at a stop (later tries are not stored: the first one counts)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="study_answers"
    )
    session_key = models.CharField(max_length=SESSION_KEY_LENGTH, blank=True, default="", db_index=True)
    stop = models.ForeignKey(StudyStop, on_delete=models.CASCADE, related_name="answers")
    card = models.CharField(max_length=2)
    correct = models.BooleanField()
    created = models.DateTimeField(default=timezone.now)

    objects = OwnedQuerySet.as_manager()

    class Meta:
        ordering = ["created", "pk"]
        constraints = [
            owner_check("study_answer_has_one_owner"),
            models.UniqueConstraint(
                fields=["stop", "user"], condition=models.Q(user__isnull=False), name="study_answer_user"
            ),
            models.UniqueConstraint(
                fields=["stop", "session_key"], condition=models.Q(user__isnull=True), name="study_answer_session"
            ),
        ]

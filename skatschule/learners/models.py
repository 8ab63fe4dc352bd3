"""What the learners app stores: a learner's daily goal, time zone and reminder choice, and
one row per reminder mail sent (the unique key that keeps a mail from going out twice).

Anonymous learners keep their goal and time zone in the session (``selectors.choices_for``);
reminders need an account with an e-mail address.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from skatschule.owners import SESSION_KEY_LENGTH, OwnedQuerySet, owner_check

from .streak import DEFAULT_GOAL

DEFAULT_TIME_ZONE = "Europe/Berlin"


class Reminders(models.TextChoices):
    OFF = "off", _("keine")
    DAILY = "daily", _("täglich")
    WEEKLY = "weekly", _("wöchentlich")


class LearnerSettings(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="learner_settings")
    daily_goal = models.PositiveSmallIntegerField(default=DEFAULT_GOAL)
    time_zone = models.CharField(max_length=64, default=DEFAULT_TIME_ZONE)
    reminders = models.CharField(max_length=10, choices=Reminders.choices, default=Reminders.OFF)
    # the language the learner used the site in when they last saved: their reminder mails speak it
    language = models.CharField(max_length=2, choices=[("de", "Deutsch"), ("en", "English")], default="de")
    updated_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"{self.user_id}: {self.daily_goal}/day, {self.time_zone}, reminders {self.reminders}"


class ReminderSent(models.Model):
    """One reminder mail to one user for one period (``d2026-11-26`` or ``w2026-48``): never twice."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reminders_sent")
    period = models.CharField(max_length=12)
    due = models.PositiveIntegerField(help_text="reviews due when it was sent")
    sent_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "period"], name="reminder_once_per_period")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.period}"


class AnswerDays(models.Model):
    """The owner's counted answers per local day in ``zone`` (a cache, never the truth).

    ``selectors.answers_per_day`` reads it instead of grouping the whole history: ``attempts``
    and ``last_attempt`` say which attempts it has seen; new attempts are folded in, anything else
    (another time zone, fewer attempts, an attempt older than the newest seen) rebuilds it."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="answer_days"
    )
    session_key = models.CharField(max_length=SESSION_KEY_LENGTH, blank=True, default="")
    zone = models.CharField(max_length=64)
    days = models.JSONField(default=dict, help_text='{"2026-11-26": 12, ...}: counted answers per local day')
    attempts = models.PositiveIntegerField(default=0, help_text="the owner's attempts seen (all, counted or not)")
    last_attempt = models.PositiveBigIntegerField(default=0, help_text="the id of the newest attempt seen")
    updated_at = models.DateTimeField(default=timezone.now)

    objects = OwnedQuerySet.as_manager()

    class Meta:
        constraints = [
            owner_check("answer_days_has_one_owner"),
            models.UniqueConstraint(
                fields=["session_key"], condition=models.Q(user__isnull=True), name="answer_days_unique_per_session"
            ),
        ]

    def __str__(self) -> str:
        return f"answers per day of {self.user_id or self.session_key} in {self.zone}"

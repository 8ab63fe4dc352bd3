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

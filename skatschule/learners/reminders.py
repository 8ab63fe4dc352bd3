"""Reminder mails: what is due for review, daily or weekly, to learners who asked for it.

- ``manage.py send_reminders`` (cron or a systemd timer, see skatschule/operations/README.md) calls
  :func:`queue_due_reminders`: for every user with reminders on, an e-mail address and reviews
  due, where it is ``REMINDER_HOUR`` (8) o'clock or later, whose period (the local day, or the
  ISO week for weekly mails) has no mail yet, it submits a job of kind ``reminder_mail`` through
  the jobs API (key: user and period).
- The job's handler :func:`send_reminder` writes the unique row ``ReminderSent(user, period)``
  and sends the mail in one transaction: a second job, a second run of the command or a
  retried job finds the row and sends nothing (a mail that fails to send leaves no row).
- Every mail carries a one-click unsubscribe link (a signed token, also as ``List-Unsubscribe``
  with ``List-Unsubscribe-Post`` for mail programs).
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import EmailMessage
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation

from skatschule.jobs import services as jobs
from skatschule.owners import Owner
from skatschule.training.registry import get_type
from skatschule.training.services import review

from .models import LearnerSettings, Reminders, ReminderSent
from .selectors import local_today, zone_of
from .services import unsubscribe_token

__all__ = ["REMINDER_JOB", "period_for", "queue_due_reminders", "send_reminder"]

REMINDER_JOB = "reminder_mail"


def period_for(frequency: str, zone: str, now: datetime | None = None) -> str:
    """``d2026-11-26`` (the local day) for daily mails, ``w2026-48`` (the ISO week) for weekly ones."""
    local = local_today(zone=zone, now=now)
    if frequency == Reminders.WEEKLY:
        year, week, _day = local.isocalendar()
        return f"w{year}-{week:02d}"
    return f"d{local.isoformat()}"


def _site_url() -> str:
    return str(getattr(settings, "SITE_URL", "http://127.0.0.1:8000")).rstrip("/")


def queue_due_reminders(*, now: datetime | None = None) -> dict[str, int]:
    """Submit a reminder job for every learner whose mail for this period is due. Returns counts."""
    now = now or timezone.now()
    counts = {"queued": 0, "nothing_due": 0, "sent_before": 0, "busy": 0, "too_early": 0}
    rows = (
        LearnerSettings.objects.exclude(reminders=Reminders.OFF)
        .filter(user__is_active=True)
        .exclude(user__email="")
        .select_related("user")
        .order_by("pk")
    )
    hour = int(getattr(settings, "REMINDER_HOUR", 8))
    for row in rows.iterator():
        if now.astimezone(zone_of(name=row.time_zone)).hour < hour:
            counts["too_early"] += 1  # not in the learner's night: a later run of the day sends it
            continue
        period = period_for(row.reminders, row.time_zone, now)
        if ReminderSent.objects.filter(user_id=row.user_id, period=period).exists():
            counts["sent_before"] += 1
            continue
        if not review.due_count(owner=Owner.for_user(row.user), now=now):
            counts["nothing_due"] += 1
            continue
        try:
            jobs.submit(
                owner=Owner.for_user(row.user),
                kind=REMINDER_JOB,
                key=f"{row.user_id}:{period}",
                payload={"user_id": row.user_id, "period": period, "now": now.isoformat()},
            )
        except jobs.LimitReached:
            counts["busy"] += 1  # the next run takes it
            continue
        counts["queued"] += 1
    return counts


def _body(user: Any, due: Counter[str], total: int, lang: str) -> str:
    with translation.override(lang):
        lines = [(count, _title(kind, lang)) for kind, count in due.most_common()]
        return render_to_string(
            "learners/reminder_mail.txt",
            {
                "user": user,
                "total": total,
                "lines": lines,
                "review_url": _site_url() + reverse("training:review"),
                "settings_url": _site_url() + reverse("learners:settings"),
                "unsubscribe_url": _unsubscribe_url(user),
            },
        )


def _title(kind: str, lang: str) -> str:
    found = get_type(kind)
    return found.title(lang) if found is not None else kind


def _unsubscribe_url(user: Any) -> str:
    return _site_url() + reverse("learners:unsubscribe", kwargs={"token": unsubscribe_token(user=user)})


def send_reminder(payload: dict[str, Any]) -> dict[str, Any]:
    """The job handler: send one user's reminder for one period, at most once."""
    user_id = payload.get("user_id")
    if not isinstance(user_id, int):
        return {"sent": False, "reason": "no user"}
    user = get_user_model().objects.filter(pk=user_id, is_active=True).first()
    period = str(payload.get("period", ""))[:12]
    row = LearnerSettings.objects.filter(user=user).first() if user is not None else None
    if user is None or row is None or row.reminders == Reminders.OFF or not user.email or not period:
        return {"sent": False, "reason": "off"}
    now = datetime.fromisoformat(payload["now"]) if payload.get("now") else timezone.now()
    due = Counter(review.due_items(owner=Owner.for_user(user), now=now).values_list("kind", flat=True))
    total = sum(due.values())
    if not total:
        return {"sent": False, "reason": "nothing due"}
    with transaction.atomic():
        _sent, created = ReminderSent.objects.get_or_create(user=user, period=period, defaults={"due": total})
        if not created:
            return {"sent": False, "reason": "sent before"}
        lang = "en" if row.language == "en" else "de"
        with translation.override(lang):
            subject = render_to_string("learners/reminder_subject.txt", {"total": total}).strip()
        body = _body(user, due, total, lang)
        unsubscribe = _unsubscribe_url(user)
        message = EmailMessage(
            subject=subject,
            body=body,
            to=[user.email],
            headers={"List-Unsubscribe": f"<{unsubscribe}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"},
        )
        message.send()  # an error rolls the row back: the next run tries again
    return {"sent": True, "due": total}

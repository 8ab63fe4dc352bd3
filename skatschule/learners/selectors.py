"""Reading a learner's goal, time zone, streak and reminder state."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.db import IntegrityError, transaction
from django.db.models import Count, Func, Max, Subquery
from django.db.models.functions import Coalesce, TruncDate
from django.utils import timezone

from skatschule.owners import NOBODY, Owner
from skatschule.training.lessons import ACTIVITIES
from skatschule.training.models import Attempt, AttemptQuerySet

from .models import DEFAULT_TIME_ZONE, AnswerDays, LearnerSettings, Reminders, ReminderSent
from .streak import DEFAULT_GOAL, GOALS, Streak, streak_of

__all__ = [
    "Choices",
    "SESSION_KEY",
    "choices_for",
    "zone_of",
    "local_today",
    "answers_per_day",
    "streak_for",
    "learner_data",
]

SESSION_KEY = "learner_choices"


@dataclass(frozen=True)
class Choices:
    goal: int = DEFAULT_GOAL
    time_zone: str = DEFAULT_TIME_ZONE
    reminders: str = Reminders.OFF
    language: str = "de"  # "de" or "en": the reminder mails' language


def zone_of(*, name: str) -> ZoneInfo:
    """The time zone called ``name``; Europe/Berlin for a name that is not one (an old or edited value)."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo(DEFAULT_TIME_ZONE)


def _clean(goal: Any, zone: Any, reminders: Any = Reminders.OFF) -> Choices:
    return Choices(
        goal=goal if goal in GOALS else DEFAULT_GOAL,
        time_zone=zone_of(name=str(zone)).key,
        reminders=reminders if reminders in Reminders.values else Reminders.OFF,
    )


def choices_for(*, request: Any) -> Choices:
    """The visitor's choices: a user's stored row, else the session's (an anonymous visitor, or one
    who has just signed up), else the defaults."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        row = LearnerSettings.objects.filter(user=user).first()
        if row is not None:
            return _clean(row.daily_goal, row.time_zone, row.reminders)
    stored = request.session.get(SESSION_KEY) if hasattr(request, "session") else None
    if isinstance(stored, dict):
        return _clean(stored.get("goal"), stored.get("time_zone", DEFAULT_TIME_ZONE))
    return Choices()


def local_today(*, zone: str, now: datetime | None = None) -> date:
    """The calendar day in ``zone`` at ``now`` (default: the site's clock): the one place that
    says what "today" is, for the daily goal, the streak, the reminders' period and the daily
    puzzle. A local day has 23 or 25 hours at a clock change; nothing here counts hours."""
    return (now or timezone.now()).astimezone(zone_of(name=zone)).date()


def counted_answers(*, owner: Owner) -> AttemptQuerySet:
    """The owner's answers that count for the daily goal: the attempts that count
    (``AttemptQuerySet.counting``, the one rule: never an unsigned history) that were answered here
    (an import, even a signed one, never fills a day: the issue's "imported history never does")
    and are answers (a finished game at the table is an activity)."""
    return (
        Attempt.objects.owned_by(owner).counting().filter(imported_at__isnull=True).exclude(kind__in=list(ACTIVITIES))
    )


def _group_by_day(rows: AttemptQuerySet, zone: str) -> dict[date, int]:
    grouped = (
        rows.annotate(day=TruncDate("counted_at", tzinfo=zone_of(name=zone)))
        .values("day")
        .annotate(n=Count("pk"))
        .values_list("day", "n")
    )
    return {day: n for day, n in grouped if day is not None}


def _seen(attempts: AttemptQuerySet, function: str) -> Coalesce:
    """``SELECT <function>(id)`` over ``attempts``, as a subquery of the stored row's query."""
    return Coalesce(Subquery(attempts.order_by().annotate(v=Func("pk", function=function)).values("v")[:1]), 0)


def answers_per_day(*, owner: Owner, zone: str) -> dict[date, int]:
    """How many counted answers the owner gave on each local day in ``zone``.

    Read from the stored :class:`~.models.AnswerDays` (one query: the row with the count and the
    newest id of the owner's attempts as subqueries) when nothing changed; the answers given since
    are grouped and added; anything else (another zone, attempts gone or moved here from a
    session) groups the whole history once and stores it."""
    if owner.session_key == NOBODY:
        return {}
    attempts = Attempt.objects.owned_by(owner)
    stored = (
        AnswerDays.objects.owned_by(owner)
        .annotate(seen_n=_seen(attempts, "COUNT"), seen_top=_seen(attempts, "MAX"))
        .first()
    )
    if stored is None:
        seen = attempts.order_by().aggregate(n=Count("pk"), top=Max("pk"))
        count, top = seen["n"], seen["top"] or 0
    else:
        count, top = stored.seen_n, stored.seen_top
        if stored.zone == zone and (stored.attempts, stored.last_attempt) == (count, top):
            return {date.fromisoformat(day): n for day, n in stored.days.items()}
    if count == 0:
        return {}
    days: dict[date, int]
    if (
        stored is not None
        and stored.zone == zone
        and stored.attempts < count
        and attempts.filter(pk__gt=stored.last_attempt, pk__lte=top).count() == count - stored.attempts
    ):  # only new answers since: add theirs
        days = {date.fromisoformat(day): n for day, n in stored.days.items()}
        for day, n in _group_by_day(
            counted_answers(owner=owner).filter(pk__gt=stored.last_attempt, pk__lte=top), zone
        ).items():
            days[day] = days.get(day, 0) + n
    else:
        days = _group_by_day(counted_answers(owner=owner).filter(pk__lte=top), zone)
    fields = {
        "zone": zone,
        "days": {day.isoformat(): n for day, n in sorted(days.items())},
        "attempts": count,
        "last_attempt": top,
        "updated_at": timezone.now(),
    }
    if stored is not None:
        AnswerDays.objects.filter(pk=stored.pk).update(**fields)
        return days
    try:
        with transaction.atomic():
            AnswerDays.objects.create(**owner.fields(), **fields)
    except IntegrityError:  # another request stored one meanwhile: use ours for this page
        pass
    return days


def streak_for(*, owner: Owner, choices: Choices, now: datetime | None = None) -> Streak:
    today = local_today(zone=choices.time_zone, now=now)
    return streak_of(answers_per_day(owner=owner, zone=choices.time_zone), choices.goal, today)


def learner_data(*, user: Any) -> dict[str, Any]:
    """What this app stores about ``user``, for the account's data export."""
    row = LearnerSettings.objects.filter(user=user).first()
    return {
        "goal": row.daily_goal if row else None,
        "time_zone": row.time_zone if row else None,
        "reminders": row.reminders if row else None,
        "reminders_sent": [
            {"period": sent.period, "due": sent.due, "sent_at": sent.sent_at.isoformat()}
            for sent in ReminderSent.objects.filter(user=user).order_by("sent_at", "pk")
        ],
    }

"""The daily goal, the streak and the reminders at the calendar's edges: local midnight at the end
of a month and a year, the week's turn (Sunday to Monday, also across New Year), and the two
clock changes in Berlin (29 March 2026 has 23 hours, 25 October 2026 has 25).

A day is the learner's calendar day, never a UTC date and never 24 hours counted from somewhere.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from django.urls import reverse
from freezegun.api import TickingDateTimeFactory

from skatschule.learners import selectors
from skatschule.learners.models import LearnerSettings, Reminders
from skatschule.learners.reminders import period_for, queue_due_reminders
from skatschule.learners.selectors import Choices
from skatschule.owners import Owner
from skatschule.training.models import IssuedExercise, ReviewItem
from skatschule.training.registry import get_type
from skatschule.training.services.issuing import issue, question_for, submit
from tests.clock import FALL_BACK, SPRING_FORWARD, berlin
from tests.present import present

pytestmark = pytest.mark.django_db

OWNER = Owner.for_session("b" * 32)


def _answer(when: datetime, *, right: bool = True, owner: Owner = OWNER) -> None:
    issued = issue(kind="rangfolge", difficulty=1, owner=owner)
    values = present(get_type("rangfolge")).correct_answer(question_for(issued))
    if not right:
        values = list(reversed(values)) if question_for(issued).widget == "order" else []
    submit(issued=issued, owner=owner, values=values, now=when)


def _per_day() -> dict[date, int]:
    return selectors.answers_per_day(owner=OWNER, zone="Europe/Berlin")


def test_the_23_hour_day_holds_every_answer_given_on_it() -> None:
    day = SPRING_FORWARD
    # its first minute, its last minute before the change (01:59 CET), its first after (03:00 CEST), its last
    moments = [berlin(day, 0, 0), berlin(day, 1, 59), berlin(day, 3, 0), berlin(day, 23, 59)]
    assert moments[2] - moments[1] == timedelta(minutes=1)  # 02:00 to 02:59 never happen
    for when in moments:
        _answer(when)
    _answer(berlin(day, 23, 59) + timedelta(minutes=1))  # midnight: the next day
    _answer(berlin(day, 0, 0) - timedelta(minutes=1))  # the day before
    assert _per_day() == {day - timedelta(days=1): 1, day: 4, day + timedelta(days=1): 1}


def test_the_25_hour_day_holds_every_answer_given_on_it() -> None:
    day = FALL_BACK
    # 02:30 happens twice: first in summer time (00:30 UTC), then in winter time (01:30 UTC)
    first, second = berlin(day, 2, 30), berlin(day, 2, 30, fold=1)
    assert second - first == timedelta(hours=1)
    for when in (berlin(day, 0, 0), first, second, berlin(day, 23, 59)):
        _answer(when)
    _answer(berlin(day, 23, 59) + timedelta(minutes=1))
    assert _per_day() == {day: 4, day + timedelta(days=1): 1}


@pytest.mark.parametrize(
    ("utc", "berlin_day"),
    [
        (
            datetime(2026, 11, 29, 23, 30, tzinfo=UTC),
            date(2026, 11, 30),
        ),  # a new week (Monday) in Berlin, Sunday in UTC
        (datetime(2026, 11, 30, 23, 30, tzinfo=UTC), date(2026, 12, 1)),  # a new month in Berlin, not yet in UTC
        (datetime(2026, 12, 31, 23, 30, tzinfo=UTC), date(2027, 1, 1)),  # a new year in Berlin, not yet in UTC
        (datetime(2026, 3, 28, 23, 30, tzinfo=UTC), SPRING_FORWARD),  # 00:30 CET on the 23-hour day
        (datetime(2026, 10, 24, 22, 30, tzinfo=UTC), FALL_BACK),  # 00:30 CEST on the 25-hour day
    ],
    ids=["week", "month", "year", "spring", "autumn"],
)
def test_the_daily_goal_counts_the_learners_local_day(utc: datetime, berlin_day: date) -> None:
    for _ in range(5):
        _answer(utc)
    berlin_goal = selectors.streak_for(owner=OWNER, choices=Choices(goal=5), now=utc)
    assert (berlin_goal.today, berlin_goal.today_count, berlin_goal.goal_met_today) == (berlin_day, 5, True)
    london = selectors.streak_for(owner=OWNER, choices=Choices(goal=5, time_zone="Europe/London"), now=utc)
    assert (london.today, london.today_count) == (utc.date(), 5)  # London's day is still the UTC one
    # a minute before local midnight the answers are tomorrow's: today has none of them
    before = selectors.streak_for(
        owner=OWNER, choices=Choices(goal=5), now=berlin(berlin_day, 0, 0) - timedelta(minutes=1)
    )
    assert (before.today, before.today_count) == (berlin_day - timedelta(days=1), 0)


@pytest.mark.parametrize("sunday", [SPRING_FORWARD, FALL_BACK], ids=["23-hour-day", "25-hour-day"])
def test_a_streak_over_a_clock_change(sunday: date) -> None:
    """Goal met at 23:30 each evening from Friday to Monday: four days, whatever the day's length."""
    for n in range(-2, 2):
        for _ in range(5):
            _answer(berlin(sunday + timedelta(days=n), 23, 30))
    monday_night = berlin(sunday + timedelta(days=1), 23, 45)
    streak = selectors.streak_for(owner=OWNER, choices=Choices(goal=5), now=monday_night)
    assert (streak.today, streak.days, streak.frozen) == (sunday + timedelta(days=1), 4, ())
    # Monday began a new week: its free day is there, Sunday's belonged to the week before
    assert streak.freeze_left


def test_the_goal_on_the_page_turns_at_local_midnight(clock: TickingDateTimeFactory) -> None:
    """Through the site, on the 25-hour day: the answers of 02:30 summer time and 02:30 winter
    time count for the same day; at midnight the next day starts from zero."""
    client = Client()
    for when in (berlin(FALL_BACK, 2, 30), berlin(FALL_BACK, 2, 30, fold=1)):
        clock.move_to(when)
        client.get(reverse("training:exercise", kwargs={"kind": "rangfolge"}))
        issued = IssuedExercise.objects.latest("issued_at", "pk")
        right = present(get_type("rangfolge")).correct_answer(question_for(issued))
        html = client.post(reverse("training:answer", args=[issued.public_id]), {"answer": right}).content.decode()
    assert "Heute 2 von 10 Antworten" in html
    clock.move_to(berlin(FALL_BACK, 23, 59))
    assert "Heute 2 von 10 Antworten" in client.get(reverse("training:dashboard")).content.decode()
    clock.move_to(berlin(FALL_BACK + timedelta(days=1), 0, 0))
    assert "Heute 0 von 10 Antworten" in client.get(reverse("training:dashboard")).content.decode()


# --- reminders ----------------------------------------------------------------------------------


def _reminded(name: str, frequency: str) -> User:
    user = get_user_model().objects.create_user(name, password="x" * 12, email=f"{name}@example.org")
    LearnerSettings.objects.create(user=user, reminders=frequency)
    ReviewItem.objects.create(
        user=user, kind="augen", difficulty=1, seed=1, card={}, due=datetime(2026, 1, 1, tzinfo=UTC)
    )
    return user


@pytest.mark.parametrize(
    ("local", "daily", "weekly"),
    [
        (berlin(date(2026, 11, 29), 23, 59), "d2026-11-29", "w2026-48"),  # Sunday night
        (berlin(date(2026, 11, 30), 0, 0), "d2026-11-30", "w2026-49"),  # Monday: a new week
        (berlin(date(2026, 12, 31), 23, 59), "d2026-12-31", "w2026-53"),
        (berlin(date(2027, 1, 1), 0, 0), "d2027-01-01", "w2026-53"),  # a new year, the same ISO week
        (berlin(date(2027, 1, 4), 0, 0), "d2027-01-04", "w2027-01"),
        (berlin(SPRING_FORWARD, 3, 0), "d2026-03-29", "w2026-13"),
        (berlin(SPRING_FORWARD, 23, 59), "d2026-03-29", "w2026-13"),
        (berlin(FALL_BACK, 2, 30, fold=1), "d2026-10-25", "w2026-43"),
        (berlin(FALL_BACK, 23, 59), "d2026-10-25", "w2026-43"),
    ],
)
def test_reminder_periods_are_local_days_and_iso_weeks(local: datetime, daily: str, weekly: str) -> None:
    assert period_for(Reminders.DAILY, "Europe/Berlin", local) == daily
    assert period_for(Reminders.WEEKLY, "Europe/Berlin", local) == weekly


@pytest.mark.parametrize("day", [SPRING_FORWARD, FALL_BACK], ids=["23-hour-day", "25-hour-day"])
def test_reminders_wait_for_eight_oclock_local_time_on_a_clock_change(day: date) -> None:
    _reminded("mia", Reminders.DAILY)
    seven = berlin(day, 7, 59)
    assert queue_due_reminders(now=seven) == {
        "queued": 0,
        "nothing_due": 0,
        "sent_before": 0,
        "busy": 0,
        "too_early": 1,
    }
    assert queue_due_reminders(now=berlin(day, 8, 0))["queued"] == 1
    assert len(mail.outbox) == 1
    assert queue_due_reminders(now=berlin(day, 23, 59))["sent_before"] == 1


def test_weekly_reminders_one_per_iso_week_across_new_year() -> None:
    _reminded("ole", Reminders.WEEKLY)
    sent = [
        queue_due_reminders(now=berlin(day, 9))["queued"]
        for day in (date(2026, 12, 28), date(2026, 12, 31), date(2027, 1, 1), date(2027, 1, 3), date(2027, 1, 4))
    ]
    assert sent == [1, 0, 0, 0, 1]  # Monday 28 December to Sunday 3 January is one week, week 53
    assert len(mail.outbox) == 2

"""Homework due times at the clock changes in Berlin: the teacher types a local time, the site
keeps the instant. A time the clock skips (02:30 on 29 March 2026) or shows twice (02:30 on
25 October 2026) is refused with a clear message; late and overdue turn at the due instant,
also on a day of 23 or 25 hours and at the end of a week, a month and a year."""

from __future__ import annotations

from datetime import date, datetime, timedelta

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from freezegun.api import TickingDateTimeFactory

from skatschule.classrooms import selectors, services
from skatschule.classrooms.models import Assignment, Classroom
from skatschule.owners import Owner
from skatschule.training.lessons import get_lessons
from tests.clock import FALL_BACK, SPRING_FORWARD, berlin
from tests.people import client_for
from tests.training.helpers import answer

pytestmark = pytest.mark.django_db


def _assign(teacher: User, classroom: Classroom, due: str) -> tuple[int, str]:
    response = client_for(teacher).post(
        reverse("classrooms:assign", args=[classroom.pk]), {"task": f"lesson:{get_lessons()[0].slug}", "due_at": due}
    )
    return response.status_code, response.content.decode()


@pytest.mark.parametrize("due", ["2026-03-29T02:30", "2026-10-25T02:30"], ids=["skipped", "twice"])
def test_a_local_time_that_is_not_one_instant_is_refused(
    teacher: User, classroom: Classroom, clock: TickingDateTimeFactory, due: str
) -> None:
    clock.move_to(berlin(SPRING_FORWARD - timedelta(days=10)))
    status, html = _assign(teacher, classroom, due)
    assert status == 400 and "Europe/Berlin" in html and "nicht eindeutig" in html
    assert not Assignment.objects.exists()


@pytest.mark.parametrize(
    ("due", "instant"),
    [
        ("2026-03-29T01:59", berlin(SPRING_FORWARD, 1, 59)),  # 00:59 UTC
        ("2026-03-29T03:00", berlin(SPRING_FORWARD, 3, 0)),  # 01:00 UTC, a minute later
        ("2026-10-25T01:59", berlin(FALL_BACK, 1, 59)),  # summer time
        ("2026-10-25T03:00", berlin(FALL_BACK, 3, 0)),  # winter time, 61 minutes later
    ],
)
def test_the_local_due_time_is_kept_as_its_instant(
    teacher: User, classroom: Classroom, clock: TickingDateTimeFactory, due: str, instant: datetime
) -> None:
    clock.move_to(berlin(SPRING_FORWARD - timedelta(days=10)))
    assert _assign(teacher, classroom, due)[0] == 302
    assert Assignment.objects.get().due_at == instant


@pytest.mark.parametrize(
    "day",
    [SPRING_FORWARD, FALL_BACK, date(2026, 11, 29), date(2026, 11, 30), date(2026, 12, 31)],
    ids=["23-hour-day", "25-hour-day", "week", "month", "year"],
)
def test_late_and_overdue_turn_at_the_due_minute(
    classroom: Classroom, student: User, other_student: User, clock: TickingDateTimeFactory, day: date
) -> None:
    lesson = get_lessons()[0]
    clock.move_to(berlin(day - timedelta(days=1)))
    due = berlin(day, 23, 59)
    assignment = services.assign_homework(
        teacher=classroom.teacher, classroom=classroom, task=f"lesson:{lesson.slug}", due_at=due
    )
    clock.move_to(berlin(day, 23, 58))
    step = lesson.steps[0]
    for _ in range(lesson.mastery_needed):
        answer(step.kind, step.level, Owner.for_user(student), True, lesson=lesson.slug)
    status = {line.name: line for line in selectors.class_status(assignment, now=due)}
    assert not status["schueler"].late and not status["schuelerin"].overdue
    clock.move_to(due + timedelta(minutes=1))
    for _ in range(lesson.mastery_needed):
        answer(step.kind, step.level, Owner.for_user(other_student), True, lesson=lesson.slug)
    status = {line.name: line for line in selectors.class_status(assignment)}
    assert not status["schueler"].late and status["schuelerin"].late
    (line,) = selectors.student_homework(other_student, now=due + timedelta(minutes=1))
    assert line.late and not line.overdue

"""Fixed dates for tests: no test depends on the day it happens to run on.

- The ``clock`` fixture (tests/conftest.py) sets the site's clock to :data:`DEFAULT_NOW`, an
  ordinary Wednesday noon, and lets it tick from there; ``clock.move_to(when)`` moves it. It is
  freezegun, so everything reads it: ``timezone.now``, the models' ``default=timezone.now``,
  ``date.today``, the live server's thread.
- :func:`berlin` writes a local time in the site's zone (Europe/Berlin) as an aware datetime, and
  the named days are the calendar's edges the boundary tests walk over.
- ``SKATSCHULE_TEST_NOW="2027-03-28 01:30"`` (UTC, or with an offset) starts the whole session at
  that instant, ticking (:func:`start_session_clock`): run any selection of tests as if it were
  that day and time. Browser tests can run so too (a Python-level fake; the browser's own clock is
  left alone).

tests/architecture/test_fixed_dates.py keeps test code from reading the real date.
"""

from __future__ import annotations

import os
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

from freezegun import freeze_time
from freezegun.api import TickingDateTimeFactory, _freeze_time

__all__ = [
    "BERLIN",
    "DEFAULT_NOW",
    "SPRING_FORWARD",
    "FALL_BACK",
    "berlin",
    "days",
    "frozen",
    "start_session_clock",
    "stop_session_clock",
]

BERLIN = ZoneInfo("Europe/Berlin")

DEFAULT_NOW = datetime(2026, 11, 25, 11, 0, tzinfo=UTC)
"""Wednesday, 25 November 2026, 12:00 in Berlin: mid-week, mid-month, no clock change near."""

SPRING_FORWARD = date(2026, 3, 29)
"""A Sunday of 23 hours in Berlin: 02:00 CET is 03:00 CEST (UTC+1 to UTC+2)."""

FALL_BACK = date(2026, 10, 25)
"""A Sunday of 25 hours in Berlin: 03:00 CEST is 02:00 CET again (UTC+2 to UTC+1)."""

SESSION_ENV = "SKATSCHULE_TEST_NOW"


def berlin(day: date, hour: int = 12, minute: int = 0, *, fold: int = 0) -> datetime:
    """The instant (in UTC) when Berlin's clocks show ``hour:minute`` on ``day`` (``fold=1``: the
    second 02:xx of the autumn change). In UTC, so that arithmetic on it counts real time: Python
    adds and subtracts datetimes of one zone by their wall clocks."""
    return datetime(day.year, day.month, day.day, hour, minute, fold=fold, tzinfo=BERLIN).astimezone(UTC)


def days(start: date, count: int) -> list[date]:
    """``count`` calendar days from ``start`` on."""
    return [start + timedelta(days=n) for n in range(count)]


def frozen(when: datetime = DEFAULT_NOW) -> _freeze_time:
    """The site's clock at ``when``, ticking on (a context manager; the fixture ``clock`` uses it)."""
    return freeze_time(when, tick=True)


_session: list[_freeze_time] = []


def start_session_clock() -> TickingDateTimeFactory | None:
    """Start the whole session at ``$SKATSCHULE_TEST_NOW`` (a no-op when it is unset)."""
    value = os.environ.get(SESSION_ENV, "").strip()
    if not value or _session:
        return None
    when = datetime.fromisoformat(value)
    started = frozen(when if when.tzinfo else when.replace(tzinfo=UTC))
    factory = started.start()
    _session.append(started)
    assert isinstance(factory, TickingDateTimeFactory)
    return factory


def stop_session_clock() -> None:
    while _session:
        _session.pop().stop()

"""The streak of days (skatschule/learners/streak.py): goal, today, the weekly free day."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from skatschule.learners.streak import streak_of

THU = date(2026, 11, 26)  # a Thursday; Monday of its week is 2026-11-23


def _days(*offsets: int, n: int = 10) -> dict[date, int]:
    return {THU - timedelta(days=o): n for o in offsets}


def test_met_days_in_a_row_count_today_once_met() -> None:
    s = streak_of(_days(0, 1, 2), goal=10, today=THU)
    assert (s.days, s.frozen, s.goal_met_today, s.freeze_left) == (3, (), True, True)


def test_today_not_met_yet_does_not_break_it() -> None:
    counts = _days(1, 2)
    counts[THU] = 4
    s = streak_of(counts, goal=5, today=THU)
    assert (s.days, s.today_count, s.still_needed, s.goal_met_today) == (2, 4, 1, False)


def test_below_the_goal_is_a_missed_day() -> None:
    counts = {THU: 10, THU - timedelta(days=1): 9, THU - timedelta(days=2): 10, THU - timedelta(days=3): 10}
    s = streak_of(counts, goal=10, today=THU)
    # Wednesday (9 answers) is missed: this week's free day covers it; Monday and Tuesday still count
    assert (s.days, s.frozen, s.freeze_left) == (3, (THU - timedelta(days=1),), False)


def test_second_missed_day_in_a_week_breaks_it() -> None:
    s = streak_of(_days(0, 3, 4, 5), goal=10, today=THU)  # Tue and Wed missed, both in this week
    assert (s.days, s.frozen) == (1, ())


def test_one_free_day_in_each_week() -> None:
    # Thu (today) met, Wed missed (this week), Tue, Mon met, Sun met, Sat missed (last week), Fri met
    s = streak_of(_days(0, 2, 3, 4, 6), goal=10, today=THU)
    assert s.days == 5
    assert s.frozen == (THU - timedelta(days=1), THU - timedelta(days=5))


def test_free_days_before_the_first_met_day_are_not_shown() -> None:
    s = streak_of(_days(0), goal=10, today=THU)
    assert (s.days, s.frozen, s.freeze_left) == (1, (), True)
    assert streak_of({}, goal=5, today=THU).days == 0


def test_a_broken_streak_keeps_no_free_day() -> None:
    s = streak_of(_days(5, 6), goal=10, today=THU)  # Sat, Fri of last week; Sun..Wed missed
    assert (s.days, s.frozen) == (0, ())


def test_goal_must_be_positive() -> None:
    with pytest.raises(ValueError):
        streak_of({}, goal=0, today=THU)


# --- the calendar's edges: week, month, year, clock changes ------------------------------------


def _met(*days: date) -> dict[date, int]:
    return dict.fromkeys(days, 10)


def test_the_free_day_is_per_week_monday_to_sunday() -> None:
    sun, mon = date(2026, 11, 29), date(2026, 11, 30)  # Sunday ends week 48, Monday starts week 49
    # missed Saturday and Sunday: both in week 48, the second one ends the streak
    s = streak_of(_met(date(2026, 11, 27), mon), goal=10, today=mon)
    assert (s.days, s.frozen, s.freeze_left) == (1, (), True)
    # missed Sunday (week 48) and Tuesday (week 49): each week spends its own free day
    wed = date(2026, 12, 2)
    s = streak_of(_met(date(2026, 11, 28), mon, wed), goal=10, today=wed)
    assert (s.days, s.frozen, s.freeze_left) == (3, (date(2026, 12, 1), sun), False)
    # on Monday, Sunday's free day belongs to last week: this week's is still there
    s = streak_of(_met(date(2026, 11, 28), mon), goal=10, today=mon)
    assert (s.days, s.frozen, s.freeze_left) == (2, (sun,), True)


def test_a_streak_runs_over_the_end_of_a_month() -> None:
    today = date(2026, 12, 2)
    s = streak_of(_met(date(2026, 11, 29), date(2026, 11, 30), date(2026, 12, 1), today), goal=10, today=today)
    assert (s.days, s.frozen) == (4, ())
    s = streak_of(_met(date(2026, 11, 29), date(2026, 12, 1), today), goal=10, today=today)
    assert (s.days, s.frozen) == (3, (date(2026, 11, 30),))  # 30 November, Monday of week 49


def test_the_week_over_new_year_is_one_week() -> None:
    # ISO week 53 of 2026 runs from Monday 28 December to Sunday 3 January 2027
    new_year = date(2027, 1, 1)
    met = _met(date(2026, 12, 28), date(2026, 12, 29), date(2026, 12, 31), new_year)
    s = streak_of(met, goal=10, today=new_year)
    assert (s.days, s.frozen, s.freeze_left) == (4, (date(2026, 12, 30),), False)
    # Saturday 2 January is missed too: the week's free day covers it, and 30 December, the
    # week's second missed day (in the other year), ends the streak there
    sun = date(2027, 1, 3)
    s = streak_of(met, goal=10, today=sun)
    assert (s.days, s.frozen) == (2, (date(2027, 1, 2),))
    # Monday 4 January begins week 1 of 2027 with its own free day
    mon = date(2027, 1, 4)
    s = streak_of(_met(date(2027, 1, 2), mon), goal=10, today=mon)
    assert (s.days, s.frozen, s.freeze_left) == (2, (sun,), True)


@pytest.mark.parametrize("today", [date(2026, 3, 30), date(2026, 10, 26)], ids=["23-hour-day", "25-hour-day"])
def test_a_clock_change_is_one_day_like_any_other(today: date) -> None:
    sunday = today - timedelta(days=1)
    s = streak_of(_met(sunday - timedelta(days=1), sunday, today), goal=10, today=today)
    assert (s.days, s.frozen) == (3, ())
    s = streak_of(_met(sunday - timedelta(days=1), today), goal=10, today=today)
    assert (s.days, s.frozen, s.freeze_left) == (2, (sunday,), True)

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

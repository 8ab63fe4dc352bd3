"""The daily goal and the streak of days, as plain date arithmetic (no Django, no database).

Definitions (shown on the settings page, tested in tests/learners/test_streak.py):

- a **day** is a calendar day in the learner's time zone; the caller counts the answers of each day;
- a day is **met** when it has at least ``goal`` answers;
- the **streak** counts the met days going back from today without a break. Today does not break
  it while it is not met yet (the day is not over), and one missed day per calendar week
  (Monday to Sunday) is **frozen**: it neither breaks the streak nor counts for it. A second missed
  day in the same week ends the streak. Frozen days before the first counted day are not shown.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, timedelta

__all__ = ["GOALS", "DEFAULT_GOAL", "Streak", "streak_of"]

GOALS: tuple[int, ...] = (5, 10, 20)
"""The daily goals a learner can choose (answers per day)."""
DEFAULT_GOAL = 10


def _week(day: date) -> tuple[int, int]:
    year, week, _weekday = day.isocalendar()
    return year, week


@dataclass(frozen=True, slots=True)
class Streak:
    goal: int
    today: date
    today_count: int
    days: int
    """Met days in the current streak (today included once it is met)."""
    frozen: tuple[date, ...]
    """Missed days inside the streak that a week's free day covered, newest first."""
    freeze_left: bool
    """Whether this week's free day is still unused."""

    @property
    def goal_met_today(self) -> bool:
        return self.today_count >= self.goal

    @property
    def still_needed(self) -> int:
        return max(0, self.goal - self.today_count)


def streak_of(counts: Mapping[date, int], goal: int, today: date) -> Streak:
    """The streak from the answers per local day (``counts``; days without answers may be missing)."""
    if goal < 1:
        raise ValueError("the daily goal is at least one answer")
    met = {day for day, count in counts.items() if count >= goal}
    days = 1 if today in met else 0
    frozen: list[date] = []
    used: set[tuple[int, int]] = set()
    earliest = min(met, default=today)
    day = today - timedelta(days=1)
    while day >= earliest:
        if day in met:
            days += 1
        elif _week(day) in used:
            break
        else:
            used.add(_week(day))
            frozen.append(day)
        day -= timedelta(days=1)
    # a free day only bridges met days: drop the ones older than the streak's oldest met day
    in_streak = [d for d in met if day < d <= today]
    frozen = [d for d in frozen if in_streak and d > min(in_streak)]
    this_week = _week(today)
    return Streak(
        goal=goal,
        today=today,
        today_count=counts.get(today, 0),
        days=days,
        frozen=tuple(frozen),
        freeze_left=this_week not in {_week(d) for d in frozen},
    )

"""Quiz points as every app reads them (issue 34 §6): one grading policy over a learner's
attempts, and one way to show points.

The quizzes app owns the quizzes; the class progress (classrooms, which the quizzes app builds
on and so cannot import) shows the same result, so the two pure functions live here:

- :func:`policy_result`: the result under a quiz's grading policy (``highest``, ``last``,
  ``first``, ``average``; the values of ``Quiz.GradingPolicy``);
- :func:`shown_points`: at most two decimals, no trailing zeros, in the active language's
  number format ("6,25" on German pages, "6.25" on English ones; Django's ``number_format``).
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

__all__ = ["plain_points", "policy_result", "shown_points"]


def policy_result(points: Sequence[float], policy: str) -> float | None:
    """The learner's result from the submitted attempts' points, in attempt order (None if none)."""
    if not points:
        return None
    if policy == "last":
        return points[-1]
    if policy == "first":
        return points[0]
    if policy == "average":
        return round(sum(points) / len(points), 2)
    return max(points)


def plain_points(value: float) -> str:
    """``3``, ``2.5``, ``2.33``: at most two decimals, a point, no trailing zeros (form values)."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


def shown_points(value: float | None) -> str:
    """Points for reading in the active language: ``3``, ``2,5`` (German), ``2.5`` (English); ``–`` for None."""
    if value is None:
        return "–"
    from django.utils.formats import number_format

    return number_format(Decimal(plain_points(value)))

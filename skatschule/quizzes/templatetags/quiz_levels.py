from django import template

from skatschule.quizzes.grading import plain_points, shown_points
from skatschule.quizzes.levels import level_name as _level_name

register = template.Library()


@register.filter
def level_name(level: int) -> str:
    """``{{ item.difficulty|level_name }}``: "leicht", "mittel" or "schwer"."""
    return _level_name(level)


@register.filter
def points(value: float | None) -> str:
    """``{{ attempt.points|points }}``: ``3``, ``2,5``, ``2,33`` (German pages) or ``–``."""
    return shown_points(value)


@register.filter
def points_value(value: float | None) -> str:
    """``{{ answer.credit|points_value }}``: ``0.67`` with a point, for a form field's value."""
    return plain_points(value or 0.0)

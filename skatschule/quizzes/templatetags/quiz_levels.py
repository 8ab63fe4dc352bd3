from django import template

from skatschule.quizzes.grading import shown_points
from skatschule.quizzes.levels import level_name as _level_name

register = template.Library()


@register.filter
def level_name(level: int) -> str:
    """``{{ item.difficulty|level_name }}``: "leicht", "mittel" or "schwer"."""
    return _level_name(level)


@register.filter
def points(value: float | None) -> str:
    """``{{ attempt.points|points }}``: ``3``, ``2.5``, ``2.33`` or ``–``."""
    return shown_points(value)

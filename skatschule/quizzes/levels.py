"""Difficulty levels: how many an exercise type has, and in words ("leicht / mittel / schwer")
wherever a teacher picks or reads one."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from skatschule.training.registry import exercise_types, get_type

LEVEL_NAMES: dict[int, Promise] = {1: _("leicht"), 2: _("mittel"), 3: _("schwer")}


def level_name(level: int) -> str:
    """ "leicht" for 1, "mittel" for 2, "schwer" for 3; "Stufe n" beyond."""
    name = LEVEL_NAMES.get(int(level))
    return str(name) if name is not None else str(_("Stufe %(n)s") % {"n": level})


def level_choices(top: int) -> list[tuple[int, str]]:
    """Form choices 1..top, labelled in words."""
    return [(n, level_name(n)) for n in range(1, top + 1)]


def type_levels(kind: str) -> int:
    """How many difficulty levels the exercise type has (0: not for a quiz)."""
    found = get_type(kind)
    if found is None or found.graded_by_job:  # a job's grading: not within a quiz
        return 0
    return int(getattr(found, "levels", 1) or 1)


def max_level() -> int:
    """The most levels any exercise type has (the difficulty choice goes up to it)."""
    return max((int(getattr(k, "levels", 1) or 1) for k in exercise_types().values()), default=1)

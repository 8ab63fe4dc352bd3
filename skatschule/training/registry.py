"""The training app's view of the exercise types and lessons, for other apps.

- :func:`exercise_types` / :func:`get_type`: the exercise registry
  (``skatschule.training.exercises.REGISTRY``, looked up at call time so tests can swap it).
- :func:`exercises_for_rule`: what to practise for one rule (used on the rule pages).
- :func:`covered_rule_ids`: every rule id some exercise type or lesson covers
  (used by the rules app's ``uncovered_rules`` command).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.urls import reverse
from django.utils.translation import get_language

if TYPE_CHECKING:
    from .exercises.base import ExerciseType

__all__ = ["Practice", "exercise_types", "get_type", "exercises_for_rule", "covered_rule_ids", "current_lang"]


def current_lang() -> str:
    """``"en"`` or ``"de"``: the language the content is shown in."""
    return "en" if (get_language() or "de").lower().startswith("en") else "de"


def exercise_types() -> dict[str, ExerciseType]:
    """slug -> exercise type, in curriculum order."""
    from . import exercises

    return dict(getattr(exercises, "REGISTRY", {}))


def get_type(kind: str) -> ExerciseType | None:
    return exercise_types().get(kind)


@dataclass(frozen=True)
class Practice:
    """A link to something to practise: an exercise type or a lesson."""

    title: str
    url: str
    kind: str  # "exercise" or "lesson"
    slug: str


def exercises_for_rule(rule_id: str) -> list[Practice]:
    """Exercise types whose ``rule_ids`` contain ``rule_id``, then lessons whose rules contain it.

    Titles are in the active language.
    """
    from .lessons import get_lessons

    rule_id = (rule_id or "").strip()
    lang = current_lang()
    found: list[Practice] = []
    for slug, kind in exercise_types().items():
        if rule_id in tuple(getattr(kind, "rule_ids", ()) or ()):
            found.append(
                Practice(kind.title(lang), reverse("training:exercise", kwargs={"kind": slug}), "exercise", slug)
            )
    for lesson in get_lessons():
        if rule_id in lesson.rule_ids:
            found.append(Practice(lesson.title(lang), lesson.url, "lesson", lesson.slug))
    return found


def covered_rule_ids() -> set[str]:
    """Every rule id named by an exercise type or a lesson."""
    from .lessons import get_lessons

    ids: set[str] = set()
    for kind in exercise_types().values():
        ids.update(getattr(kind, "rule_ids", ()) or ())
    for lesson in get_lessons():
        ids.update(lesson.rule_ids)
    return ids

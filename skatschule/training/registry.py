"""The training app's view of the exercise types and lessons, for other apps.

- :func:`exercise_types` / :func:`get_type`: the exercise registry
  (``skatschule.exercises.REGISTRY``, looked up at call time so tests can swap it).
- :func:`exercises_for_rule`: what to practise for one rule (the rule pages ask for it
  through :mod:`skatschule.rules.practice`, where the app registers it when it is ready).
- :func:`covered_rule_ids`: every rule id some exercise type or lesson covers
  (``uncovered_rules`` asks for it the same way).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.urls import reverse

from skatschule import exercises
from skatschule.core.language import current_lang
from skatschule.exercises.base import ExerciseType

from .lessons import get_lessons

__all__ = ["Practice", "exercise_types", "get_type", "exercises_for_rule", "covered_rule_ids"]


def exercise_types() -> dict[str, ExerciseType]:
    """slug -> exercise type, in curriculum order."""
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
    ids: set[str] = set()
    for kind in exercise_types().values():
        ids.update(getattr(kind, "rule_ids", ()) or ())
    for lesson in get_lessons():
        ids.update(lesson.rule_ids)
    return ids

"""Fixtures for the quiz tests: the shared people from tests/people.py, and a quiz factory."""

from __future__ import annotations

import pytest

from skatschule.quizzes.models import Quiz
from skatschule.quizzes.services import authoring
from tests.people import classroom, other_student, other_teacher, student, teacher  # noqa: F401 (fixtures)


@pytest.fixture
def make_quiz(teacher, classroom):
    def make(count: int = 3, kinds=("augen", "spielwert", "stich"), **options) -> Quiz:
        pool = authoring.build_pool(kinds=kinds, difficulty=options.pop("difficulty", 1))
        return authoring.create_quiz(
            owner=teacher,
            classroom=classroom,
            title=options.pop("title", "Probe"),
            pool=pool,
            item_count=count,
            **options,
        )

    return make

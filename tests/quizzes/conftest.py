"""Fixtures for the quiz tests: the shared people from tests/people.py, and a quiz factory."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import pytest
from django.contrib.auth.models import User

from skatschule.classrooms.models import Classroom
from skatschule.quizzes.models import Quiz
from skatschule.quizzes.services import authoring
from tests.people import classroom, other_student, other_teacher, student, teacher  # noqa: F401 (fixtures)


@pytest.fixture
def make_quiz(teacher: User, classroom: Classroom) -> Callable[..., Quiz]:
    def make(count: int = 3, kinds: Iterable[str] = ("augen", "spielwert", "stich"), **options: Any) -> Quiz:
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

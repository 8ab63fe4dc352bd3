"""Fixtures for the training tests: fake exercise types and fake lessons."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest
from django.test import Client
from pytest_django.fixtures import Settings

from skatschule import exercises
from skatschule.exercises.base import ExerciseType
from skatschule.owners import Owner

from .fakes import FAKE_TYPES, LESSONS


@pytest.fixture
def fake_training(settings: Settings, tmp_path: Path) -> Iterator[Mapping[str, ExerciseType]]:
    """Swap in the fake exercise types and a lessons folder that uses them.

    The registry is changed in place and restored afterwards: modules hold the one dict
    (``from skatschule.exercises import REGISTRY``), so a module first imported during this
    fixture must not keep the fakes."""
    real = dict(exercises.REGISTRY)
    exercises.REGISTRY.clear()
    exercises.REGISTRY.update(FAKE_TYPES)
    folder = tmp_path / "lessons"
    folder.mkdir()
    for name, text in LESSONS.items():
        (folder / name).write_text(text, encoding="utf-8")
    settings.TRAINING_LESSONS_DIR = folder
    try:
        yield FAKE_TYPES
    finally:
        exercises.REGISTRY.clear()
        exercises.REGISTRY.update(real)


@pytest.fixture
def owner() -> Owner:
    return Owner.for_session("s" * 32)


@pytest.fixture
def other_owner() -> Owner:
    return Owner.for_session("t" * 32)


@pytest.fixture
def en_client() -> Client:
    client = Client()
    client.cookies["django_language"] = "en"
    return client


@pytest.fixture
def quick_gradings(monkeypatch: pytest.MonkeyPatch) -> None:
    """Types graded by a job (the Drücken trainer, the bid graded by play) sample 12 deals
    instead of 200: the tests that use this check pages and texts, not the grading's verdict,
    and the same few deals serve the page, the job and ``correct_answer`` alike."""
    for kind in exercises.REGISTRY.values():
        if kind.graded_by_job:
            for name, few in (("deals", 12), ("screen", 4)):
                if hasattr(type(kind), name):
                    monkeypatch.setattr(type(kind), name, few)

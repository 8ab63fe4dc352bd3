"""Fixtures of the weekly tests: learners, a teacher with a class."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture
def learner(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("wochenspieler", password="geheim-12345")


@pytest.fixture
def other(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("zweiter", password="geheim-12345")

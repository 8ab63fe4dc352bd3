"""Fixtures of the table's tests."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from skatschule.table import services


@pytest.fixture(autouse=True)
def quick_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bots think 20 ms, not a second, in every table test (a module may shorten more)."""
    monkeypatch.setattr(services, "BOT_TIME_CAP", 0.02)


@pytest.fixture
def player(client: Client, django_user_model: Any) -> Any:
    """A signed-in user at the table."""
    user = django_user_model.objects.create_user("tischspieler", password="geheim-12345")
    client.force_login(user)
    return user

"""Fixtures for the production tests (the ``postgres`` marker is handled in tests/conftest.py)."""

from __future__ import annotations

import pytest
from pytest_django.fixtures import Settings


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: Settings) -> None:
    """These tests log in often; the real hasher (PBKDF2) would make them slow, not safer."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

"""Fixtures for the production tests.

``@pytest.mark.postgres`` tests need the default database to be PostgreSQL; they are skipped
otherwise. ``make test`` runs the suite twice: on SQLite (these are skipped), then, when
``SKATSCHULE_TEST_POSTGRES`` (or a postgres ``DATABASE_URL``) is set, the postgres-marked
and the other database tests once more with ``DATABASE_URL`` pointing at PostgreSQL
(pytest-django creates and drops the ``test_<name>`` database).
"""

from __future__ import annotations

import pytest
from django.db import connection


@pytest.fixture(autouse=True)
def _postgres_only(request: pytest.FixtureRequest) -> None:
    if request.node.get_closest_marker("postgres") and connection.vendor != "postgresql":
        pytest.skip(
            "needs PostgreSQL: run with DATABASE_URL=postgres://... "
            "(make test does so when SKATSCHULE_TEST_POSTGRES is set)"
        )


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings) -> None:
    """These tests log in often; the real hasher (PBKDF2) would make them slow, not safer."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

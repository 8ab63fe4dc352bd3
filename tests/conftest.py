"""Shared fixtures for Skatschule's tests.

Browser tests (``@pytest.mark.browser``) drive Debian's chromium at
/usr/bin/chromium through Playwright; they are skipped when it is missing.
Never run ``playwright install``: .ci/run installs chromium with apt.
Fast tests only: ``.venv/bin/pytest -m "not browser"``.

``@pytest.mark.postgres`` tests need the default database to be PostgreSQL and are skipped
otherwise. ``make test`` runs the suite on SQLite (they are skipped), then, when
``SKATSCHULE_TEST_POSTGRES`` (or a postgres ``DATABASE_URL``) is set, the postgres-marked
tests once more with ``DATABASE_URL`` pointing at PostgreSQL (pytest-django creates and
drops the test database).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from hypothesis import settings as hypothesis_settings
from hypothesis.configuration import set_hypothesis_home_dir

# Playwright's sync API runs an event loop in the test thread; Django would
# otherwise refuse ORM calls (fixtures, live_server) from "async" code.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

# Hypothesis keeps nothing at the project's top level (fixed by the design card): no example
# database, and its cache in the system's temporary folder.
set_hypothesis_home_dir(Path(tempfile.gettempdir()) / "skatschule-hypothesis")
hypothesis_settings.register_profile("skatschule", database=None)
hypothesis_settings.load_profile("skatschule")

FAST_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
IMMEDIATE_TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}


def pytest_configure(config: pytest.Config) -> None:
    """Jobs (skatschule.jobs) run at once inside the asking request, unless a test starts a real
    worker (tests/jobs/test_worker.py switches to the database backend for that).

    Passwords are hashed with MD5 in tests: Django's PBKDF2 default (a million rounds) costs a
    third of a second per ``create_user`` or login, and no test measures the hasher's strength
    (the production setting is untouched)."""
    from django.test import override_settings

    override_settings(TASKS=IMMEDIATE_TASKS, PASSWORD_HASHERS=FAST_HASHERS).enable()


CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """One headless chromium for the whole test session."""
    if not CHROMIUM.exists():
        pytest.skip("Debian chromium is not installed at /usr/bin/chromium (.ci/run installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh desktop page (1280 x 900, German locale) with its own cookies."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="de-DE")
    context.set_default_timeout(10_000)
    try:
        yield context.new_page()
    finally:
        context.close()


@pytest.fixture
def phone_page(browser: Any) -> Iterator[Any]:
    """A fresh phone-sized page (375 x 740, touch, German locale)."""
    context = browser.new_context(
        viewport={"width": 375, "height": 740}, is_mobile=True, has_touch=True, locale="de-DE"
    )
    context.set_default_timeout(10_000)
    try:
        yield context.new_page()
    finally:
        context.close()


@pytest.fixture(autouse=True)
def _postgres_only(request: pytest.FixtureRequest) -> None:
    if request.node.get_closest_marker("postgres") and connection.vendor != "postgresql":
        pytest.skip(
            "needs PostgreSQL: run with DATABASE_URL=postgres://... "
            "(make test does so when SKATSCHULE_TEST_POSTGRES is set)"
        )


@pytest.fixture(autouse=True)
def _fresh_local_cache() -> None:
    """Counters kept in the cache (the join-code limit) start from zero in every test.

    Only the in-process cache the suite runs with is cleared; a Redis cache named by
    REDIS_URL may hold other data and is left alone.
    """
    from django.core.cache import caches
    from django.core.cache.backends.locmem import LocMemCache

    cache = caches["default"]
    if isinstance(cache, LocMemCache):
        cache.clear()

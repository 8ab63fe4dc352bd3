"""Shared fixtures for Skatschule's tests.

Browser tests (``@pytest.mark.browser``) drive Debian's chromium at
/usr/bin/chromium through Playwright; they are skipped when it is missing.
Never run ``playwright install``: .ci/run installs chromium with apt.
Fast tests only: ``.venv/bin/pytest -m "not browser"``.

``@pytest.mark.postgres`` tests need the default database to be PostgreSQL and are skipped
otherwise. When ``SKATSCHULE_TEST_POSTGRES`` (or a postgres ``DATABASE_URL``) is set,
``make test`` runs every test but the browser tests with ``DATABASE_URL`` pointing at
PostgreSQL (production's database; pytest-django creates and drops the test database), then
the browser tests on SQLite; otherwise the whole suite on SQLite (the postgres tests skipped).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from django.db import connection
from freezegun.api import TickingDateTimeFactory
from hypothesis import settings as hypothesis_settings
from hypothesis.configuration import set_hypothesis_home_dir

from tests.clock import frozen, start_session_clock, stop_session_clock

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

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
    config.pluginmanager.register(SlowFirst(), "skatschule-slow-first")
    start_session_clock()  # SKATSCHULE_TEST_NOW: the whole run on a chosen day (tests/clock.py)


def pytest_unconfigure(config: pytest.Config) -> None:
    stop_session_clock()


@pytest.fixture
def clock() -> Iterator[TickingDateTimeFactory]:
    """The site's clock at a fixed instant (tests/clock.py: Wednesday 2026-11-25, noon in Berlin),
    ticking; ``clock.move_to(when)`` sets it. Every test whose outcome depends on the date takes it."""
    with frozen() as factory:
        assert isinstance(factory, TickingDateTimeFactory)
        yield factory


CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
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
def page(browser: Browser) -> Iterator[Page]:
    """A fresh desktop page (1280 x 900, German locale) with its own cookies."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="de-DE")
    context.set_default_timeout(10_000)
    try:
        yield context.new_page()
    finally:
        context.close()


@pytest.fixture
def phone_page(browser: Browser) -> Iterator[Page]:
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
def _german_first() -> None:
    """Every test starts in the site's language: a request of an earlier test in the same worker
    leaves its language active in the thread (the middleware activates, nothing deactivates)."""
    from django.conf import settings
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)


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


# The long tail, measured with ``pytest -n 2 --durations=120`` and with the CPU time of each test
# of ``make test-fast`` (issue 27; operations README, "Testlaufzeit"): each took seconds, or a parametrized
# family more than one second in all. They are marked ``slow`` here, in one place, so that
# ``make test-fast`` leaves them out; ``make test`` runs them, first (see below). A prefix
# matches a test and its parameters, a bare path a whole module.
SLOW_TESTS = (
    "tests/architecture/test_layers.py::test_no_module_cycles",
    "tests/architecture/test_layers.py::test_no_package_cycles",
    "tests/casebook/test_answering.py::test_trying_every_option_solves_no_case",
    "tests/casebook/test_case_deck_words.py::test_case_pages_use_the_german_decks_names",
    "tests/casebook/test_derivations_agree.py::test_every_case_page",
    "tests/casebook/test_derivations_agree.py::test_every_exam_review",
    "tests/casebook/test_derivations_agree.py::test_every_worked_result_in_the_rules_text",
    "tests/casebook/test_exam.py::test_no_exam_question_can_be_looked_up_in_the_casebook",
    "tests/casebook/test_exam_guessing.py::test_a_fixed_pick_does_not_beat_chance",
    "tests/casebook/test_exercises.py::test_fall_every_case",
    "tests/casebook/test_exercises.py::test_regelverstoss_every_seed",
    "tests/graded_by_play/test_guessing.py::test_no_fixed_places_find_the_best_discard",
    "tests/graded_by_play/test_reizen.py::test_the_grade_is_the_engines_graded_bid_or_the_step_below",
    "tests/graded_by_play/test_reizen_guessing.py::test_no_fixed_bid_beats_chance",
    "tests/engine/test_bots.py::test_a_tiny_arena_is_repeatable_and_prints_its_figure_last",
    "tests/engine/test_bots.py::test_every_level_plays_whole_games_with_legal_moves",
    "tests/engine/test_feasible.py::test_every_game_the_engine_plays_out_is_possible",
    "tests/engine/test_game_properties.py::test_random_games_keep_the_invariants",
    "tests/home/test_site_junk.py::test_junk_never_gives_a_500",
    "tests/home/test_translations.py::test_every_python_interface_string_has_an_english_translation",
    "tests/learners/test_learners.py::test_reminder_goes_once_per_period_through_the_jobs_api",
    "tests/operations/test_cache_breaker.py::test_a_hung_redis_costs_at_most_one_timeout_per_interval",
    "tests/operations/test_outages.py",
    "tests/production/test_deploy.py",
    "tests/production/test_fuzz.py::test_every_endpoint_with_forged_values",
    "tests/production/test_fuzz.py::test_malformed_imports_never_give_a_server_error",
    "tests/puzzles/test_pages.py::test_junk_cards_are_a_400_and_lose_nothing",
    "tests/puzzles/test_pages.py::test_no_page_shows_the_hidden_hands",
    "tests/puzzles/test_shipped.py::test_every_shipped_puzzle_has_exactly_one_solution",
    "tests/quizzes/test_own_rulings.py::test_junk_in_the_builder_is_a_400_never_a_500",
    "tests/quizzes/test_quiz_junk.py::test_junk_never_gives_a_500",
    "tests/rules/test_real_content.py::test_every_chapter_and_the_glossary_render_in_both_languages",
    "tests/rules/test_term_definitions.py",
    "tests/rules/test_wire_size.py::test_every_chapter_is_compressed_below_40_kb",
    "tests/scoresheet/test_sharing_and_size.py::test_the_history_is_bounded_and_a_sheets_size_stays_flat",
    "tests/table/test_analysis.py",
    "tests/table/test_board.py",
    "tests/table/test_carry_over.py",
    "tests/table/test_games_filter.py",
    "tests/table/test_jobs.py::test_the_board_and_the_analysis_wait_for_their_job_without_holding_the_request",
    "tests/table/test_table.py::test_a_whole_hand_with_plain_posts",
    "tests/table/test_table.py::test_finished_games_of_signed_in_users_are_stored",
    "tests/training/test_answer_hidden.py::test_real_exercise_pages_hide_the_answer",
    "tests/training/test_auction_table.py::test_no_bot_bids_beyond_its_own_evaluation_over_10000_deals",
    "tests/training/test_deck_words.py::test_exercise_page_names_cards_as_the_german_deck",
    "tests/training/test_exercise_types.py::test_every_seed",
    "tests/training/test_exercise_types.py::test_levels_get_harder",
    "tests/training/test_guessing.py",
    "tests/training/test_hand_order.py::test_exercise_hands_are_sorted_for_their_game",
    "tests/training/test_hausregel_possible.py",
    "tests/training/test_progress_summary.py::test_summary_equals_the_derivation_over_random_histories",
    "tests/training/test_training_lessons.py::test_lessons_are_in_our_own_words",
    "tests/training/test_training_views.py::test_junk_posts_never_500",
)


def _slow_entry(nodeid: str) -> str | None:
    for entry in SLOW_TESTS:
        if nodeid == entry or nodeid.startswith(entry + "[") or nodeid.startswith(entry + "::"):
            return entry
    return None


def _transactional(item: pytest.Item) -> bool:
    """Whether the test runs in a transactional database (its teardown empties the tables), as
    pytest-django decides it."""
    marker = item.get_closest_marker("django_db")
    if marker is not None and (marker.kwargs.get("transaction") or marker.kwargs.get("reset_sequences")):
        return True
    fixtures = getattr(item, "fixturenames", ())
    return "transactional_db" in fixtures or "live_server" in fixtures


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the tests of :data:`SLOW_TESTS` slow (before ``-m`` deselects by marker).

    An entry that names a test missing from its collected module (renamed, removed) is an
    error, so the list cannot rot unnoticed."""
    for item in items:
        if _slow_entry(item.nodeid) is not None:
            item.add_marker(pytest.mark.slow)
    modules = {item.nodeid.split("::", 1)[0]: getattr(item, "module", None) for item in items}
    stale = [
        entry
        for entry in SLOW_TESTS
        if "::" in entry
        and modules.get(entry.split("::", 1)[0]) is not None
        and not hasattr(modules[entry.split("::", 1)[0]], entry.split("::", 1)[1])
    ]
    if stale:
        raise pytest.UsageError(f"SLOW_TESTS in tests/conftest.py names tests that do not exist: {stale}")


def _group_suffix(items: list[pytest.Item]) -> None:
    """``--dist loadgroup`` on pytest 9.2: xdist marks a test's group by appending ``@group`` to
    its ``_nodeid``, which pytest no longer reads (it keeps a structured ``_id``), so every
    group was dealt out test by test (pytest-dev/pytest-xdist#1386). Until xdist follows, the
    worker's items get the suffix here, in the structured id; where xdist already set it,
    nothing changes."""
    try:
        from _pytest.nodeid import NodeId
    except ImportError:  # an older pytest: xdist's own suffix works
        return
    for item in items:
        names = sorted(
            {str(m.args[0] if m.args else m.kwargs.get("name", "default")) for m in item.iter_markers("xdist_group")}
        )
        if names and "@" not in item.nodeid and isinstance(getattr(item, "_id", None), NodeId):
            item._id = NodeId.parse(f"{item.nodeid}@{'_'.join(names)}")


class SlowFirst:
    """Starts the long tests first (registered in :func:`pytest_configure`).

    With two workers the run ends when the last long test ends: started late, one test of a
    minute leaves the other worker idle for that minute. So the slow tests come first, then the
    browser tests, then the rest, each in collection order (the sort is stable; every worker
    sorts the same way, as xdist requires). It runs last, after pytest-django's order, and
    keeps its rule: a transactional test (which empties the tables, rows of data migrations
    too) comes after every test that uses the database in a transaction; tests without a
    database go anywhere."""

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, config: pytest.Config, items: list[pytest.Item]) -> None:
        if getattr(config.option, "loadgroup", False):  # set in xdist workers only
            _group_suffix(items)

        def rank(item: pytest.Item) -> tuple[bool, int]:
            if item.get_closest_marker("slow"):
                speed = 0
            else:
                speed = 1 if item.get_closest_marker("browser") else 2
            return _transactional(item), speed

        items.sort(key=rank)

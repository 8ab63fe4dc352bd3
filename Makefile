# Skatschule: two commands on a fresh machine, `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# the engine modules compiled with mypyc (skatschule/engine/compiled.py); none without a C compiler
COMPILED := skatschule/engine/_mypyc/FINGERPRINT
VECTORS ?= ../shared/vectors

# PostgreSQL for the tests: SKATSCHULE_TEST_POSTGRES (set by .ci/run when a local server
# answers), else DATABASE_URL if it points to PostgreSQL.
PG_TEST_URL ?= $(or $(SKATSCHULE_TEST_POSTGRES),$(filter postgres://% postgresql://%,$(DATABASE_URL)))

# pytest-xdist: the suite in parallel, one process per core (each has its own test database).
# --dist loadgroup: the tests of one xdist_group (the questions of one exercise type and level,
# tests/training/question_bank.py) run in one worker, which builds those questions once.
PYTEST_WORKERS ?= 2
PYTEST_PARALLEL := -n $(PYTEST_WORKERS) --dist loadgroup
# the browser tests beside the PostgreSQL run in make test (see there)
BROWSER_WORKERS ?= 1
# make test's pytest runs: every test (testpaths in pyproject.toml) unless paths are given here
TESTS ?=
# pytest keeps the test modules it rewrote (assert messages) in __pycache__ only when Python may
# write bytecode: an environment with PYTHONDONTWRITEBYTECODE=1 rewrites them in every worker of
# every run (some 8 s of CPU each); the empty value lets the second run reuse them.
PYTEST_ENV := DATABASE_URL= REDIS_URL= PYTHONDONTWRITEBYTECODE=

.PHONY: setup run lint test test-fast test-postgres test-dates load bench clean

setup: $(STAMP) $(COMPILED)

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

$(COMPILED): $(STAMP) skatschule/engine/solver.py skatschule/engine/solver_core.c skatschule/engine/compiled.py skatschule/engine/mypyc_build.py
	$(PY) -m skatschule.engine.mypyc_build

# The site under uvicorn (ASGI, pushed events) with one worker for the jobs in the same process
# (manage.py serve); Ctrl+C stops both.
PORT ?= 8000
run: setup
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_content
	$(PY) manage.py check_lessons
	$(PY) manage.py serve 127.0.0.1:$(PORT)

# ruff (settings in pyproject.toml) and mypy with django-stubs over the whole package and
# tests/ (`--strict` for all of it, see [tool.mypy]).
LINT := $(VENV)/bin/ruff check . && $(VENV)/bin/ruff format --check . && $(PY) -m mypy
lint: setup
	$(LINT)

# make test: lint (ruff, mypy) runs beside the vectors and the tests, its output shown at the end.
# With PostgreSQL, the browser tests (on SQLite, one worker) run at the same time as the rest (on
# PostgreSQL, two workers): the browser run spends a quarter of its time waiting for chromium and the
# live server, which the other run's CPU fills (operations README, "Testlaufzeit"). Each run keeps
# its own coverage file; both are combined and the floor (fail_under) checked at the end.
test: setup
	@rm -f .coverage .coverage.* .lint.log .browser.log
	@{ $(LINT); } > .lint.log 2>&1 & lint=$$!; \
	for f in public.json public_rulings.json public_iss.json public_open_hand.json public_evening.json; do \
	  if [ -f $(VECTORS)/$$f ]; then echo "vectors: $$f"; $(PY) -m skatschule.engine.vectors check $(VECTORS)/$$f || exit 1; \
	  echo "vectors: $$f, pure Python engine"; SKATSCHULE_PURE_ENGINE=1 $(PY) -m skatschule.engine.vectors check $(VECTORS)/$$f || exit 1; \
	  else echo "no $(VECTORS)/$$f beside the project: vector check skipped"; fi; done; \
	$(PY) -m skatschule.engine.mypyc_build --status; \
	if [ -n "$(PG_TEST_URL)" ]; then \
	  echo "PostgreSQL answers: every test but the browser tests on $(PG_TEST_URL), beside them the browser tests on SQLite"; \
	  echo "(coverage of both runs together; its floor is checked at the end; the browser run's output follows the other's)"; \
	  $(PYTEST_ENV) COVERAGE_FILE=.coverage.browser $(PY) -m pytest -q -n $(BROWSER_WORKERS) -m browser $(TESTS) \
	    --cov --cov-report= --cov-fail-under=0 > .browser.log 2>&1 & browser=$$!; \
	  $(PYTEST_ENV) COVERAGE_FILE=.coverage.postgres TEST_DATABASE_NAME=test_skatschule_$$$$ DATABASE_URL="$(PG_TEST_URL)" \
	    $(PY) -m pytest -q $(PYTEST_PARALLEL) -m "not browser" $(TESTS) --cov --cov-report= --cov-fail-under=0; pg=$$?; \
	  wait $$browser; br=$$?; echo "--- browser tests (SQLite)"; cat .browser.log; \
	  [ $$pg -eq 0 ] && [ $$br -eq 0 ] || { wait $$lint; echo "--- make lint"; cat .lint.log; exit 1; }; \
	  $(PY) -m coverage combine --quiet .coverage.postgres .coverage.browser || exit 1; \
	else \
	  echo "no SKATSCHULE_TEST_POSTGRES / postgres DATABASE_URL: the whole suite on SQLite, the postgres tests skipped"; \
	  $(PYTEST_ENV) $(PY) -m pytest -q $(PYTEST_PARALLEL) $(TESTS) --cov --cov-report= --cov-fail-under=0 || { wait $$lint; echo "--- make lint"; cat .lint.log; exit 1; }; \
	fi; \
	wait $$lint; rc=$$?; echo "--- make lint"; cat .lint.log; [ $$rc -eq 0 ] || exit 1; \
	echo "coverage of skatschule (lines and branches): $$($(PY) -m coverage report --format=total --fail-under=0) % (floor: fail_under in pyproject.toml)"; \
	$(PY) -m coverage report > /dev/null || { echo "coverage below fail_under in pyproject.toml"; exit 1; }

# The developers' loop: no browser, no slow and no PostgreSQL tests, no lint, no coverage.
test-fast: setup
	$(PYTEST_ENV) $(PY) -m pytest -q $(PYTEST_PARALLEL) -m "not browser and not slow and not postgres"

# The suite but the browser tests on PostgreSQL, without lint and coverage (make test's first half).
test-postgres: setup
	@test -n "$(PG_TEST_URL)" || { echo "set SKATSCHULE_TEST_POSTGRES=postgres://user@host/db"; exit 2; }
	$(PYTEST_ENV) TEST_DATABASE_NAME=test_skatschule_$$$$ DATABASE_URL="$(PG_TEST_URL)" $(PY) -m pytest -q $(PYTEST_PARALLEL) -m "not browser"

# The tests that read the date (streak, daily goal, daily puzzle, homework due times, reminders,
# review queue, quiz windows, housekeeping) with the whole session's clock set to each day of one
# week (Monday 7 December 2026 to the night of Sunday 13 December, which is already Monday in
# Berlin) and to both sides of the two clock changes in Berlin (29 March and 25 October 2026).
# SKATSCHULE_TEST_NOW (tests/clock.py) starts the run's clock at that instant (UTC), ticking; any
# other run can take it too: SKATSCHULE_TEST_NOW="2026-10-25 00:30" make test
DATE_TESTS ?= tests/learners tests/classrooms tests/puzzles/test_pages.py tests/puzzles/test_help.py \
  tests/training/test_review_boundaries.py tests/training/test_review_variants.py tests/training/test_review_scale.py \
  tests/training/test_training_services.py tests/training/test_progress_summary.py tests/quizzes/test_quiz_views.py \
  tests/quizzes/test_reattempts.py tests/quizzes/test_edit.py tests/operations/test_housekeeping.py \
  tests/architecture/test_fixed_dates.py tests/browser/test_learners.py tests/browser/test_teachers_homework.py
TEST_DAYS ?= 2026-12-07T09:00 2026-12-08T09:00 2026-12-09T09:00 2026-12-10T09:00 2026-12-11T09:00 \
  2026-12-12T09:00 2026-12-13T09:00 2026-12-13T23:30 2026-03-29T00:30 2026-03-29T01:30 2026-10-25T00:30 2026-10-25T01:30
DATE_WORKERS ?= $(PYTEST_WORKERS)
test-dates: setup
	@for when in $(TEST_DAYS); do echo "--- SKATSCHULE_TEST_NOW=$$when (UTC)"; \
	  $(PYTEST_ENV) SKATSCHULE_TEST_NOW=$$when $(PY) -m pytest -q -n $(DATE_WORKERS) $(DATE_TESTS) || exit 1; done

# Load test against gunicorn with production settings (see README, "Last"); use PostgreSQL:
#   DATABASE_URL=postgres://... REDIS_URL=redis://... make load
LOAD_USERS ?= 20
LOAD_SECONDS ?= 60
load: setup
	$(PY) -m skatschule.operations.load --spawn --users $(LOAD_USERS) --seconds $(LOAD_SECONDS) --think 1 --check

bench: setup
	$(PY) -m skatschule.engine.bench
	$(PY) -m skatschule.table.analysis

clean:
	rm -rf $(VENV) skatschule/engine/_mypyc staticfiles .pytest_cache .mypy_cache .ruff_cache .coverage .coverage.* htmlcov .lint.log .browser.log

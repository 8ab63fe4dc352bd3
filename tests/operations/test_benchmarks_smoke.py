"""Every benchmark command the README names runs to its end on its smallest size (issue 26 §3):
a benchmark that nobody runs cannot rot unnoticed. Each runs as the README runs it, in its own
process (``python -m ...``), and must end with its figure on the last line.

``operations.load`` is covered by tests/production/test_load_script.py (a short run of its driver).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

pytestmark = pytest.mark.slow

ROOT = Path(settings.BASE_DIR)


def run_module(*args: str, timeout: float = 300) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DJANGO_SETTINGS_MODULE")}
    done = subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout
    )
    assert done.returncode == 0, (args, done.stdout[-2000:], done.stderr[-3000:])
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    assert lines, args
    return lines


def test_readme_names_only_benchmarks_that_are_smoke_tested() -> None:
    docs = [
        ROOT / "README.md",
        *(ROOT / "skatschule").rglob("README.md"),
        *(ROOT / "skatschule").rglob("MEASUREMENTS.md"),
    ]
    readme = "\n".join(path.read_text(encoding="utf-8") for path in docs)
    assert "skatschule.engine.arena" in readme  # the READMEs beside the code are read too
    # the vector check, a build, the conventions count
    not_benchmarks = {"skatschule.engine.vectors", "skatschule.engine.mypyc_build", "skatschule.operations.conventions"}
    named = set(re.findall(r"python -m (skatschule\.[\w.]+)", readme)) - not_benchmarks
    tested = set(re.findall(r'"(skatschule\.[\w.]+)"', Path(__file__).read_text(encoding="utf-8")))
    assert named <= tested | {"skatschule.operations.load"}, named - tested


def test_growth_benchmark_on_the_smallest_size() -> None:
    """It crashed with "unknown exercise type 'spiel'": lesson 16's table step is an activity, not an exercise."""
    lines = run_module("skatschule.operations.scale", "--smallest", "--runs", "1")
    assert re.fullmatch(r"worst growth: \d+\.\d\dx", lines[-1]), lines[-5:]
    assert any(line.startswith("progress dashboard") for line in lines)
    assert any(line.startswith("results CSV") for line in lines)


def test_engine_benchmark() -> None:
    lines = run_module("skatschule.engine.bench", "--seconds", "0.2")
    assert re.fullmatch(r"times_the_oracle: \d+\.\d\d", lines[-1]), lines[-3:]
    assert any(line.startswith("games_per_second: ") for line in lines)


def test_solver_benchmark() -> None:
    lines = run_module("skatschule.engine.bench", "--solver", "--deals", "1")
    assert re.search(r"\d", lines[-1]), lines[-3:]


def test_analysis_benchmark() -> None:
    lines = run_module("skatschule.table.analysis", "--games", "1", "--nodes", "20000", "--insights", "2")
    assert "2 deals a decision" in lines[-3], lines[-3:]
    assert re.fullmatch(r"seconds_per_analysis: \d+\.\d+", lines[-1]), lines[-3:]


def test_par_benchmark_of_the_deal_of_the_week() -> None:
    lines = run_module("skatschule.weekly.bench", "--deals", "1", "--nodes", "20000")
    assert re.fullmatch(r"mean_par_seconds: \d+\.\d{3}", lines[-1]), lines[-3:]


def test_discard_benchmark() -> None:
    lines = run_module("skatschule.engine.discard", "--deals", "4")
    assert re.fullmatch(r"seconds_per_grading: \d+\.\d\d", lines[-1]), lines[-3:]


def test_discard_calibration_against_the_solver() -> None:
    lines = run_module("skatschule.engine.discard", "--calibrate", "2")
    assert re.fullmatch(r"same_verdict: \d+\.\d%", lines[-1]), lines[-3:]
    assert any(line.startswith("playout wins ") for line in lines), lines


def test_bot_costs_per_card() -> None:
    lines = run_module("skatschule.engine.arena", "--costs", "--deals", "2", "--first-deal", "5000")
    assert [line.split(":")[0] for line in lines] == ["beginner", "club", "strong"], lines
    assert re.search(r"max \d+\.\d$", lines[-1]), lines[-3:]


def test_bidding_graded_by_play_against_lesson_seven() -> None:
    lines = run_module("skatschule.engine.bidplay", "--hands", "3", "--deals", "4")
    assert re.fullmatch(r"agreement over 3 hands: the same bid \d+\.\d%, within one bid step \d+\.\d%", lines[-1])
    assert any("reference, lesson 7's evaluation" in line for line in lines), lines


def test_bot_arena() -> None:
    lines = run_module("skatschule.engine.arena", "--deals", "1", "--pairings", "beginner-random")
    assert re.search(r"\d", lines[-1]), lines[-3:]


def test_bot_arena_as_the_bots_package_runs_it() -> None:
    lines = run_module("skatschule.engine.bots", "--deals", "1", "--pairings", "club-beginner")
    assert re.search(r"\d", lines[-1]), lines[-3:]


def test_make_run_takes_a_port() -> None:
    done = subprocess.run(["make", "-n", "run", "PORT=8123"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "serve 127.0.0.1:8123" in done.stdout  # uvicorn and the worker in one process
    default = subprocess.run(["make", "-n", "run"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert "serve 127.0.0.1:8000" in default.stdout


def test_page_benchmark_against_gunicorn() -> None:
    """Every page answers 200 to the logged-in learner through gunicorn, and the worst ratio is last."""
    lines = run_module("skatschule.operations.pages", "--rounds", "1", "--attempts", "10", "--games", "2")
    assert re.fullmatch(r"worst ratio: \d+\.\d\dx", lines[-1]), lines[-5:]
    names = [line.split("  ")[0] for line in lines]
    for page in ("healthz", "home", "lesson", "exercise", "puzzle", "table", "quiz take", "score sheet"):
        assert page in names, (page, lines)


def test_page_benchmark_in_cpu_time() -> None:
    """``--in-process --cpu``: the same table in CPU time per request (the figure a busy machine disturbs least)."""
    args = ("--in-process", "--cpu", "--rounds", "1", "--attempts", "10", "--games", "2")
    lines = run_module("skatschule.operations.pages", *args)
    assert "measuring: 1 rounds, in process, CPU time" in lines
    assert re.fullmatch(r"worst ratio: \d+\.\d\dx", lines[-1]), lines[-5:]
    assert any(line.startswith("quiz take") for line in lines)


@pytest.fixture(scope="module")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """A throwaway SQLite database, migrated and with the content loaded, for the benchmarks that
    play through a spawned server (they use the configured database)."""
    url = f"sqlite:///{tmp_path_factory.mktemp('bench') / 'db.sqlite3'}"
    env = {
        **{k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"},
        "DATABASE_URL": url,
        "REDIS_URL": "",
    }
    for command in (["migrate", "--noinput"], ["load_content"]):
        done = subprocess.run(
            [sys.executable, "manage.py", *command], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
        )
        assert done.returncode == 0, done.stderr[-2000:]
    return env


def _run_with(env: dict[str, str], *args: str) -> list[str]:
    done = subprocess.run([sys.executable, "-m", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, (args, done.stdout[-2000:], done.stderr[-3000:])
    return [line for line in done.stdout.splitlines() if line.strip()]


def test_table_push_benchmark(migrated_sqlite: dict[str, str]) -> None:
    lines = _run_with(migrated_sqlite, "skatschule.table.bench_live", "--spawn", "--games", "1", "--levels", "beginner")
    assert lines[-1].startswith("CPU per request: "), lines[-5:]


def test_live_round_benchmark(migrated_sqlite: dict[str, str]) -> None:
    lines = _run_with(
        migrated_sqlite, "skatschule.quizzes.bench_live", "--spawn", "--learners", "2", "--questions", "1"
    )
    assert lines[-1].startswith("a learner's answer counted on the projector (pushed): n="), lines[-5:]

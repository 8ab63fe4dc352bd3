"""A real worker (``manage.py run_jobs`` in its own process) on the test database: it runs a job,
and a job whose worker is killed mid-run is run again by the next worker, or failed once its
attempts are used up; never left pending. Once on SQLite, once on PostgreSQL (``postgres``)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.db import connection
from django.test import override_settings

from skatschule.jobs import services
from skatschule.jobs.models import Failure, Job, JobStatus
from skatschule.jobs.probe import PROBE
from skatschule.owners import Owner
from tests.production.servers import database_url

ROOT = Path(__file__).resolve().parents[2]
DB_TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
OWNER = Owner.for_session("w" * 32)
TIMING = {"JOB_HEARTBEAT_SECONDS": "0.2", "JOB_STALE_SECONDS": "1.5"}


def _database_url() -> str:
    if connection.vendor == "postgresql":
        return database_url(connection.settings_dict)
    return f"sqlite:///{connection.settings_dict['NAME']}"


@contextmanager
def worker(max_attempts: int = 3) -> Iterator[subprocess.Popen[bytes]]:
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env.update(
        DATABASE_URL=_database_url(),
        TASKS_BACKEND="db",
        REDIS_URL="",
        JOB_MAX_ATTEMPTS=str(max_attempts),
        **TIMING,
    )
    proc = subprocess.Popen(
        [sys.executable, "manage.py", "run_jobs", "--interval", "0.1"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def wait_for(check: Callable[[], bool], seconds: float = 30.0) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check():
            return
        time.sleep(0.1)
    raise AssertionError(f"waited in vain: {list(Job.objects.values('key', 'status', 'attempts', 'failure'))}")


def _status(job: Job) -> str:
    job.refresh_from_db()
    return job.status


def run_one_job() -> None:
    with override_settings(TASKS=DB_TASKS):
        job = services.submit(owner=OWNER, kind=PROBE, key="quick", payload={"seconds": 0.1})
    assert job.status == JobStatus.QUEUED  # nothing runs it inside this process
    with worker() as proc:
        wait_for(lambda: _status(job) == JobStatus.DONE)
    assert job.data and job.data["pid"] == proc.pid


def kill_the_worker_mid_job(max_attempts: int) -> Job:
    with override_settings(TASKS=DB_TASKS, JOB_MAX_ATTEMPTS=max_attempts):
        job = services.submit(owner=OWNER, kind=PROBE, key=f"slow-{max_attempts}", payload={"seconds": 2})
    with worker(max_attempts) as first:
        wait_for(lambda: _status(job) == JobStatus.RUNNING)
        first.send_signal(signal.SIGKILL)
        first.wait()
    assert _status(job) == JobStatus.RUNNING  # nobody is working on it now
    with worker(max_attempts):
        wait_for(lambda: _status(job) in {JobStatus.DONE, JobStatus.FAILED}, seconds=40)
    return job


def _check_all() -> None:
    run_one_job()
    retried = kill_the_worker_mid_job(max_attempts=3)
    assert retried.status == JobStatus.DONE and retried.attempts == 2
    given_up = kill_the_worker_mid_job(max_attempts=1)
    assert given_up.status == JobStatus.FAILED and given_up.failure == Failure.WORKER_LOST


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_on_sqlite() -> None:
    if connection.vendor != "sqlite":
        pytest.skip("the SQLite run; test_a_real_worker_on_postgresql covers PostgreSQL")
    _check_all()


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_on_postgresql() -> None:
    _check_all()

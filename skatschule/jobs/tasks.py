"""The one task the worker runs: compute a job (see :func:`.running.run`)."""

from __future__ import annotations

from django_tasks import task

from . import running


@task()
def run_job(job_id: str) -> None:
    running.run(job_id=job_id)

"""A running job tells how far it got: :func:`report`, called by a handler while it computes.

The handler stays a plain function of its payload: outside a worker (the tests' immediate
backend, a shell) :func:`report` does nothing. On the worker it stores the figures on the job
(at most every :data:`EVERY` seconds, and always the first and the last) and pushes an event on
the job's channel (:func:`channel`), so the progress page shows them as they come.
"""

from __future__ import annotations

import contextvars
import time
import uuid
from dataclasses import dataclass

from django.db import DatabaseError

from skatschule.push import publish

__all__ = ["report", "channel", "running_job", "EVERY"]

EVERY = 0.25
"""Seconds between two stored reports of one job (the page needs no more)."""


@dataclass
class _Running:
    job_id: uuid.UUID
    stored: float = 0.0


_current: contextvars.ContextVar[_Running | None] = contextvars.ContextVar("skatschule_job", default=None)


def channel(job_id: uuid.UUID | str) -> str:
    """The push channel of one job: its status, its progress, its end."""
    return f"job.{job_id}"


class running_job:
    """``with running_job(job_id):`` the handler's reports go to this job."""

    def __init__(self, job_id: uuid.UUID) -> None:
        self.job_id = job_id
        self.token: contextvars.Token[_Running | None] | None = None

    def __enter__(self) -> None:
        self.token = _current.set(_Running(self.job_id))

    def __exit__(self, *exc: object) -> None:
        if self.token is not None:
            _current.reset(self.token)


def report(*, share: float, deals: int = 0, final: bool = False) -> None:
    """How far the running job got: ``share`` done (0 to 1) and ``deals`` sampled so far."""
    running = _current.get()
    if running is None:
        return
    now = time.monotonic()
    if not final and running.stored and now - running.stored < EVERY:
        return
    running.stored = now
    from .models import Job, JobStatus

    figures = {"share": round(min(max(share, 0.0), 1.0), 3), "deals": max(int(deals), 0)}
    try:
        Job.objects.filter(pk=running.job_id, status=JobStatus.RUNNING).update(progress=figures)
    except DatabaseError:  # a busy database: the next report tries again
        return
    publish(channel(running.job_id), "progress")

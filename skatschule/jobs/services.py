"""Writing jobs: submit one, and recover the ones whose worker died (the run itself: :mod:`.running`).

Keyword-only and atomic, like every service. The work itself is the registered handler's; this
module only keeps the books: one result per ``(kind, key)``, a limit of pending jobs per asker and
per address, a heartbeat while a job runs, and a recovery step that re-queues a job whose worker
stopped beating (up to ``JOB_MAX_ATTEMPTS`` runs) and fails it after that. A job is never left
pending for ever: one that waited longer than ``JOB_QUEUE_TIMEOUT`` without a worker fails too.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from skatschule.core.errors import UserError
from skatschule.owners import Owner
from skatschule.push import publish
from skatschule.push.broker import WAKE

from .config import number
from .models import KEY_LENGTH, PENDING, Failure, Job, JobStatus, Result
from .registry import handler_for
from .tasks import run_job

__all__ = ["LimitReached", "submit", "recover_stale"]


class LimitReached(UserError):
    """The asker (or the address) already has as many pending jobs as allowed: 429."""

    status = 429

    def __init__(self, limit: int) -> None:
        super().__init__(
            f"Du hast schon {limit} Rechnungen in Arbeit. Warte, bis eine fertig ist, "
            "und versuche es dann noch einmal.",
            f"You already have {limit} computations running. Wait until one is finished, then try again.",
        )
        self.limit = limit


def submit(*, owner: Owner, kind: str, key: str, payload: dict[str, Any], address: str = "") -> Job:
    """A job for ``owner`` computing ``kind`` for ``key``; done at once when the result is known.

    The same pending job of the same owner is returned rather than queued twice. Raises
    :class:`LimitReached` when the owner (or, when given, the client address) has
    ``JOBS_PER_OWNER`` (``JOBS_PER_ADDRESS``) pending jobs.
    """
    handler_for(kind)  # an unknown kind is a programming error: fail before anything is stored
    if not key or len(key) > KEY_LENGTH:
        raise ValueError(f"a job key has 1 to {KEY_LENGTH} characters (hash longer positions)")
    with transaction.atomic():
        known = Result.objects.filter(kind=kind, key=key).first()
        if known is not None:
            now = timezone.now()
            return Job.objects.create(
                **owner.fields(),
                address=address[:64],
                kind=kind,
                key=key,
                payload=payload,
                status=JobStatus.DONE,
                result=known,
                finished=now,
            )
        same: Job | None = Job.objects.owned_by(owner).filter(kind=kind, key=key, status__in=PENDING).first()
        if same is not None:
            return same
        per_owner = int(number("JOBS_PER_OWNER", 3))
        if Job.objects.owned_by(owner).filter(status__in=PENDING).count() >= per_owner:
            raise LimitReached(per_owner)
        per_address = int(number("JOBS_PER_ADDRESS", 8))
        if address and Job.objects.filter(address=address, status__in=PENDING).count() >= per_address:
            raise LimitReached(per_address)
        job = Job.objects.create(**owner.fields(), address=address[:64], kind=kind, key=key, payload=payload)
        _enqueue(job)
    job.refresh_from_db()  # the immediate backend (tests, no worker) has run it already
    return job


def _enqueue(job: Job) -> None:
    """Hand the job to the task backend: at once where the queue shares the transaction, else on commit."""
    backend = type(run_job.get_backend()).__name__
    if backend in {"ImmediateBackend", "DatabaseBackend", "DummyBackend"}:
        run_job.enqueue(str(job.pk))
    else:
        job_id = str(job.pk)
        transaction.on_commit(lambda: run_job.enqueue(job_id))
    transaction.on_commit(lambda: publish(WAKE))  # a waiting worker takes it at once


def recover_stale(*, now: Any = None) -> int:
    """Re-queue running jobs whose heartbeat stopped (or fail them after the last attempt),
    and fail queued jobs no worker took in time. Returns how many jobs it touched."""
    now = now or timezone.now()
    stale_before = now - timedelta(seconds=number("JOB_STALE_SECONDS", 30))
    touched = 0
    with transaction.atomic():
        lost = Job.objects.filter(status=JobStatus.RUNNING, heartbeat__lt=stale_before)
        max_attempts = int(number("JOB_MAX_ATTEMPTS", 3))
        touched += lost.filter(attempts__gte=max_attempts).update(
            status=JobStatus.FAILED, failure=Failure.WORKER_LOST, finished=now
        )
        retry = list(lost.filter(attempts__lt=max_attempts).select_for_update())
        for job in retry:
            job.status = JobStatus.QUEUED
            job.heartbeat = None
            job.queued = now
            job.save(update_fields=["status", "heartbeat", "queued"])
            _enqueue(job)
        touched += len(retry)
        waited_before = now - timedelta(seconds=number("JOB_QUEUE_TIMEOUT", 600))
        touched += Job.objects.filter(status=JobStatus.QUEUED, queued__lt=waited_before).update(
            status=JobStatus.FAILED, failure=Failure.NO_WORKER, finished=now
        )
    return touched

"""Writing jobs: submit one, and recover the ones whose worker died (the run itself: :mod:`.running`).

Keyword-only and atomic, like every service. The work itself is the registered handler's; this
module only keeps the books: one result per ``(kind, key)``, a limit of pending jobs per asker, per
address and for all visitors together, an order for the worker (:func:`priority`), a heartbeat
while a job runs, and a recovery step that re-queues a job whose worker
stopped beating (up to ``JOB_MAX_ATTEMPTS`` runs) and fails it after that. A job is never left
pending for ever: one that waited longer than ``JOB_QUEUE_TIMEOUT`` without a worker fails too.
"""

from __future__ import annotations

import hashlib
from datetime import timedelta
from typing import Any

from django.db import connection, transaction
from django.utils import timezone
from django_tasks.base import TASK_MAX_PRIORITY

from skatschule.core.errors import UserError
from skatschule.core.security import network_of
from skatschule.owners import Owner
from skatschule.push import publish
from skatschule.push.broker import WAKE

from .config import number
from .models import KEY_LENGTH, PENDING, Failure, Job, JobStatus, Result
from .registry import handler_for, is_short
from .tasks import run_job

__all__ = ["Busy", "LimitReached", "priority", "submit", "recover_stale"]


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


class Busy(LimitReached):
    """Visitors (no account) together have as many pending jobs as allowed: 429, with a hint to sign in."""

    def __init__(self) -> None:
        UserError.__init__(
            self,
            "Gerade warten viele Rechnungen von Gästen. Versuche es gleich noch einmal, oder melde dich "
            "an: Angemeldete kommen zuerst dran.",
            "Many computations of guests are waiting right now. Try again in a moment, or sign in: "
            "signed-in learners come first.",
        )
        self.limit = int(number("JOBS_ANONYMOUS_TOTAL", 16))


def submit(*, owner: Owner, kind: str, key: str, payload: dict[str, Any], address: str = "") -> Job:
    """A job for ``owner`` computing ``kind`` for ``key``; done at once when the result is known.

    The same pending job of the same owner is returned rather than queued twice. Raises
    :class:`LimitReached` when the owner (or, when given, the client address, an IPv6 address by
    its /64) has ``JOBS_PER_OWNER`` (``JOBS_PER_ADDRESS``) pending jobs, or when the owner is a
    visitor (no account) and visitors together have ``JOBS_ANONYMOUS_TOTAL`` pending. The counts
    and the new row are one step: parallel posts queue on a lock per owner, per address and for
    all visitors (:func:`_lock`), so none of them gets past a limit.
    """
    handler_for(kind)  # an unknown kind is a programming error: fail before anything is stored
    if not key or len(key) > KEY_LENGTH:
        raise ValueError(f"a job key has 1 to {KEY_LENGTH} characters (hash longer positions)")
    address = network_of(address) if address else ""
    with transaction.atomic():
        known = Result.objects.filter(kind=kind, key=key).first()
        if known is not None:
            now = timezone.now()
            return Job.objects.create(
                **owner.fields(),
                address=address,
                kind=kind,
                key=key,
                payload=payload,
                status=JobStatus.DONE,
                result=known,
                finished=now,
            )
        names = [f"owner:{owner.user_id or ''}:{owner.session_key}"]
        if address:
            names.append(f"address:{address}")
        if not owner.is_user:
            names.append("visitors")
        _lock(names)
        same: Job | None = Job.objects.owned_by(owner).filter(kind=kind, key=key, status__in=PENDING).first()
        if same is not None:
            return same
        per_owner = int(number("JOBS_PER_OWNER", 3))
        if Job.objects.owned_by(owner).filter(status__in=PENDING).count() >= per_owner:
            raise LimitReached(per_owner)
        per_address = int(number("JOBS_PER_ADDRESS", 8))
        if address and Job.objects.filter(address=address, status__in=PENDING).count() >= per_address:
            raise LimitReached(per_address)
        if not owner.is_user:
            visitors = int(number("JOBS_ANONYMOUS_TOTAL", 16))
            if Job.objects.filter(user__isnull=True, status__in=PENDING).count() >= visitors:
                raise Busy()
        job = Job.objects.create(**owner.fields(), address=address, kind=kind, key=key, payload=payload)
        _enqueue(job)
    job.refresh_from_db()  # the immediate backend (tests, no worker) has run it already
    return job


def _lock(names: list[str]) -> None:
    """Hold a lock for each name until the transaction ends (PostgreSQL: advisory locks, taken in
    one order, so two submits cannot deadlock). SQLite needs none: its transactions
    here begin with ``BEGIN IMMEDIATE``, so writers run one at a time anyway."""
    if connection.vendor != "postgresql":
        return
    digests = {hashlib.sha256(f"jobs:{name}".encode()).digest()[:8] for name in names}
    keys = sorted(int.from_bytes(digest, "big", signed=True) for digest in digests)
    with connection.cursor() as cursor:
        for lock_key in keys:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [lock_key])


PRIORITY_SHORT_SIGNED_IN = TASK_MAX_PRIORITY
PRIORITY_SHORT = 50
PRIORITY_SIGNED_IN = 20
PRIORITY_VISITOR = 0


def priority(job: Job) -> int:
    """The order in which the worker takes queued jobs (highest first, then the oldest): short
    jobs that someone waits for at the table before long ones, and a signed-in learner's before a
    visitor's. The database worker (``run_jobs``) orders by it; RQ puts only the highest
    (:data:`PRIORITY_SHORT_SIGNED_IN`) at the front of its queue."""
    short = is_short(job.kind)
    if job.user_id is not None:
        return PRIORITY_SHORT_SIGNED_IN if short else PRIORITY_SIGNED_IN
    return PRIORITY_SHORT if short else PRIORITY_VISITOR


def _enqueue(job: Job) -> None:
    """Hand the job to the task backend: at once where the queue shares the transaction, else on commit."""
    task = run_job.using(priority=priority(job))
    backend = type(task.get_backend()).__name__
    if backend in {"ImmediateBackend", "DatabaseBackend", "DummyBackend"}:
        task.enqueue(str(job.pk))
    else:
        job_id = str(job.pk)
        transaction.on_commit(lambda: task.enqueue(job_id))
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


def submit_follow_up(*, owner: Owner, kind: str, key: str, payload: dict[str, Any], address: str) -> None:
    """A follow-up job a result foresees, for the same asker; nothing when the asker is at a limit."""
    try:
        submit(owner=owner, kind=kind, key=key, payload=payload, address=address)
    except LimitReached:
        pass

"""The worker's part of a job: claim it, compute it with a heartbeat, store the result or the failure."""

from __future__ import annotations

import threading
import uuid
from typing import Any, Protocol

from django.db import DatabaseError, IntegrityError, connection, transaction
from django.utils import timezone

from skatschule.owners import Owner
from skatschule.push import publish

from .config import number
from .models import Failure, Job, JobStatus, Result
from .progress import channel, running_job
from .registry import handler_for

__all__ = ["run"]


def _claim(job_id: uuid.UUID | str) -> Job | None:
    """Mark a queued job running (one more attempt); None if it is not queued any more."""
    with transaction.atomic():
        now = timezone.now()
        claimed = Job.objects.filter(pk=job_id, status=JobStatus.QUEUED).update(
            status=JobStatus.RUNNING, started=now, heartbeat=now
        )
        if not claimed:
            return None
        job = Job.objects.get(pk=job_id)
        job.attempts += 1
        job.save(update_fields=["attempts"])
    transaction.on_commit(lambda: publish(channel(job.pk), "running"))
    return job


class _Heartbeat:
    """Touches the job's ``heartbeat`` every ``JOB_HEARTBEAT_SECONDS`` from a thread while it runs."""

    def __init__(self, job_id: uuid.UUID) -> None:
        self.job_id = job_id
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._beat, daemon=True)

    def _beat(self) -> None:
        interval = number("JOB_HEARTBEAT_SECONDS", 5)
        try:
            while not self.stop.wait(interval):
                try:
                    Job.objects.filter(pk=self.job_id, status=JobStatus.RUNNING).update(heartbeat=timezone.now())
                except DatabaseError:  # a busy or lost database: the next beat tries again
                    pass
        finally:
            connection.close()  # this thread's own connection

    def __enter__(self) -> _Heartbeat:
        # Inside a transaction (the immediate backend runs a job within the asking request) no
        # other process can see the job, and a second connection could only wait for the lock.
        if not connection.in_atomic_block:
            self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        if self.thread.is_alive():
            self.thread.join()


def run(*, job_id: uuid.UUID | str) -> None:
    """The worker's part: compute a queued job and store its result or its error; each change
    is pushed on the job's channel (:func:`.progress.channel`)."""
    job = _claim(job_id)
    if job is None:
        return
    try:
        _compute(job)
    finally:
        transaction.on_commit(lambda: publish(channel(job.pk), "end"))


def _compute(job: Job) -> None:
    known = Result.objects.filter(kind=job.kind, key=job.key).first()
    if known is None:
        try:
            with _Heartbeat(job.pk), running_job(job.pk):
                data = handler_for(job.kind)(job.payload)
        except Exception as error:  # the handler's failure is the job's, not the worker's
            Job.objects.filter(pk=job.pk).update(
                status=JobStatus.FAILED,
                failure=Failure.HANDLER,
                detail=f"{type(error).__name__}: {error}"[:2000],
                finished=timezone.now(),
            )
            return
        try:
            with transaction.atomic():
                known = Result.objects.create(kind=job.kind, key=job.key, data=data)
        except IntegrityError:  # another asker's job stored it first
            known = Result.objects.get(kind=job.kind, key=job.key)
    Job.objects.filter(pk=job.pk, status=JobStatus.RUNNING).update(
        status=JobStatus.DONE, result=known, finished=timezone.now()
    )
    _follow_up(job, known.data)


def _follow_up(job: Job, data: object) -> None:
    """Queue the job a result foresees (``{"then": {"key": ..., "payload": ...}}``, the same kind)
    for the same asker, so it is under way or done when the asker comes to ask for it (the table's
    second bot thinks while the first one's card is shown). Nothing when the asker is at the limit."""
    then = data.get("then") if isinstance(data, dict) else None
    if not isinstance(then, dict) or not isinstance(then.get("key"), str) or not isinstance(then.get("payload"), dict):
        return
    if _submit is None:
        return
    owner = Owner(user_id=job.user_id) if job.user_id is not None else Owner(session_key=job.session_key)
    _submit(owner=owner, kind=job.kind, key=then["key"], payload=then["payload"], address=job.address)


class Submit(Protocol):
    def __call__(self, *, owner: Owner, kind: str, key: str, payload: dict[str, Any], address: str) -> object: ...


_submit: Submit | None = None


def submit_follow_ups_with(submit: Submit) -> None:
    """How a result's follow-up job is queued (``services.submit`` at the limits' mercy, set by
    the app's ``ready``): the runner does not import the services, which enqueue the runner."""
    global _submit
    _submit = submit

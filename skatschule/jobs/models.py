"""A job and the cached result of its position."""

from __future__ import annotations

import uuid
from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from skatschule.owners import SESSION_KEY_LENGTH, OwnedQuerySet, owner_check

from .registry import KIND_LENGTH

KEY_LENGTH = 128


class JobStatus(models.TextChoices):
    QUEUED = "queued", _("wartet")
    RUNNING = "running", _("läuft")
    DONE = "done", _("fertig")
    FAILED = "failed", _("fehlgeschlagen")


PENDING = (JobStatus.QUEUED, JobStatus.RUNNING)


class Failure(models.TextChoices):
    """Why a job failed, as the asker is told (the technical detail stays in ``Job.detail``)."""

    HANDLER = "handler", _("Die Rechnung ist fehlgeschlagen. Bitte versuche es noch einmal.")
    WORKER_LOST = "worker_lost", _("Der Rechner, der diese Aufgabe bearbeitet hat, ist ausgefallen.")
    NO_WORKER = "no_worker", _("Gerade rechnet kein Rechner im Hintergrund; die Aufgabe wurde abgebrochen.")


class Result(models.Model):
    """What a handler computed for one ``(kind, key)``: the cache by position, shared by all askers."""

    kind = models.CharField(max_length=KIND_LENGTH)
    key = models.CharField(max_length=KEY_LENGTH)
    data = models.JSONField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["kind", "key"], name="jobs_result_unique_key")]


class Job(models.Model):
    """One asker's request for a result; the worker fills ``result`` (or ``error``)."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE)
    session_key = models.CharField(max_length=SESSION_KEY_LENGTH, blank=True, default="")
    address = models.CharField(max_length=64, blank=True, default="")
    kind = models.CharField(max_length=KIND_LENGTH)
    key = models.CharField(max_length=KEY_LENGTH)
    payload = models.JSONField(default=dict)
    status = models.CharField(max_length=10, choices=JobStatus.choices, default=JobStatus.QUEUED)
    attempts = models.PositiveSmallIntegerField(default=0)
    failure = models.CharField(max_length=12, choices=Failure.choices, blank=True, default="")
    detail = models.TextField(blank=True, default="")
    result = models.ForeignKey(Result, null=True, blank=True, on_delete=models.SET_NULL)
    created = models.DateTimeField(auto_now_add=True)
    queued = models.DateTimeField(default=timezone.now)
    started = models.DateTimeField(null=True, blank=True)
    heartbeat = models.DateTimeField(null=True, blank=True)
    progress = models.JSONField(default=dict, blank=True)
    """How far a running job got (:func:`.progress.report`): ``share`` done, ``deals`` sampled."""
    finished = models.DateTimeField(null=True, blank=True)

    objects = OwnedQuerySet.as_manager()

    class Meta:
        constraints = [owner_check("jobs_job_one_owner")]
        indexes = [
            models.Index(fields=["status", "heartbeat"], name="jobs_job_status_beat"),
            models.Index(fields=["kind", "key"], name="jobs_job_kind_key"),
        ]

    @property
    def is_pending(self) -> bool:
        return self.status in PENDING

    @property
    def is_done(self) -> bool:
        return self.status == JobStatus.DONE

    @property
    def share_percent(self) -> int | None:
        """The share done in percent, once the job reported one."""
        share = (self.progress or {}).get("share")
        return round(float(share) * 100) if isinstance(share, (int, float)) else None

    @property
    def deals(self) -> int:
        deals = (self.progress or {}).get("deals")
        return deals if isinstance(deals, int) else 0

    @property
    def data(self) -> dict[str, Any] | None:
        """The result's data once the job is done."""
        return self.result.data if self.result_id and self.result else None

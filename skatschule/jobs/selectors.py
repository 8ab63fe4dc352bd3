"""Reading jobs."""

from __future__ import annotations

import uuid

from skatschule.owners import Owner

from .models import PENDING, Job


def job_for(*, owner: Owner, job_id: uuid.UUID | str) -> Job | None:
    """The owner's job with this id, with its result; None for another owner's or an unknown id."""
    return Job.objects.owned_by(owner).select_related("result").filter(pk=job_id).first()


def pending_count(*, owner: Owner) -> int:
    return Job.objects.owned_by(owner).filter(status__in=PENDING).count()

"""ISS records as puzzle sources: every record a learner imports becomes a puzzle candidate.

:func:`queue_records` (called when a paste of records is read in at /ueben/spiel/iss/) keeps
each new record with the players' names blanked (:class:`~.models.RecordCandidate`) and submits,
as the importer's job, the search of that import's records (``puzzles.records``): the request
itself solves nothing. When the importer has too many jobs pending, the records wait;
importing them again or ``manage.py make_puzzles --imported`` submits them.
:func:`finished_results` hands the results of the finished jobs to ``make_puzzles``, which keeps
the proven puzzles (the public ISS archives go the same way with ``make_puzzles --iss FILE``).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.db.models import Q

from skatschule.jobs import services as jobs
from skatschule.jobs.models import Job, JobStatus
from skatschule.owners import Owner

from .generation import RECORDS, VERSION
from .models import RecordCandidate

RECORDS_PER_JOB = 20
"""Records examined by one job (an import holds at most 20 games, see table.views.ISS_GAMES)."""

_NAMES = re.compile(r"\b(P[0-2])\[[^\]]*\]")


def anonymous(record: str) -> str:
    """The record with the players' names blanked (``P0[]``...): the game is what counts."""
    return _NAMES.sub(r"\1[]", record.strip())


def records_key(records: Sequence[str]) -> str:
    """The job key of a batch of records (``make_puzzles --iss`` uses the same for the same batch)."""
    return "iss:v{}:{}".format(VERSION, hashlib.sha256("\n".join(records).encode()).hexdigest())


@transaction.atomic
def queue_records(*, owner: Owner, records: Sequence[str], address: str = "") -> int:
    """Keep the new ones of ``records`` (already read by the engine) as candidates and submit the
    waiting ones as jobs of ``owner``. Returns how many records were new. Never raises for a full
    queue: the records wait for the next chance."""
    new = 0
    keys: list[str] = []
    for record in records:
        text = anonymous(record)
        candidate, created = RecordCandidate.objects.get_or_create(
            key=hashlib.sha256(text.encode()).hexdigest(), defaults={"record": text}
        )
        keys.append(candidate.key)
        new += created
    submit_waiting(owner=owner, address=address, keys=keys)
    return new


@transaction.atomic
def submit_waiting(*, owner: Owner, address: str = "", keys: Sequence[str] | None = None) -> list[Job]:
    """Submit jobs for the candidates (all, or those of ``keys``) that have none or whose job
    failed, as many as ``owner`` may have pending; returns the jobs submitted."""
    found = RecordCandidate.objects.filter(Q(job__isnull=True) | Q(job__status=JobStatus.FAILED))
    if keys is not None:
        found = found.filter(key__in=keys)
    # lock only the candidates' rows: PostgreSQL refuses FOR UPDATE on the outer join's nullable side
    waiting = list(found.select_for_update(of=("self",)))
    submitted: list[Job] = []
    for n in range(0, len(waiting), RECORDS_PER_JOB):
        part = waiting[n : n + RECORDS_PER_JOB]
        texts = [c.record for c in part]
        try:
            job = jobs.submit(
                owner=owner,
                kind=RECORDS,
                key=records_key(texts),
                payload={"records": texts, "first_seed": 0},
                address=address,
            )
        except jobs.LimitReached:
            break
        RecordCandidate.objects.filter(key__in=[c.key for c in part]).update(job=job)
        submitted.append(job)
    return submitted


def finished_results() -> list[dict[str, Any]]:
    """The results of the finished record jobs (each once), for ``make_puzzles --imported``."""
    seen: set[int] = set()
    out: list[dict[str, Any]] = []
    done = Job.objects.filter(status=JobStatus.DONE, result__isnull=False, kind=RECORDS)
    for job in done.filter(pk__in=RecordCandidate.objects.values("job")).select_related("result"):
        assert job.result is not None
        if job.result.pk not in seen:
            seen.add(job.result.pk)
            out.append(job.result.data)
    return out


def pending_count() -> int:
    """Candidates whose job has not finished yet (waiting, queued or running)."""
    return RecordCandidate.objects.exclude(job__status=JobStatus.DONE).count()

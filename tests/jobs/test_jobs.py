"""Jobs with the immediate backend (the handler runs inside the asking request): the books
kept around the work, the status page, and the recovery of jobs whose worker died."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from skatschule.jobs import selectors, services
from skatschule.jobs.models import Failure, Job, JobStatus, Result
from skatschule.jobs.probe import PROBE
from skatschule.jobs.registry import register
from skatschule.owners import Owner

pytestmark = pytest.mark.django_db

CALLS: list[dict[str, Any]] = []


def counting(payload: dict[str, Any]) -> dict[str, Any]:
    CALLS.append(payload)
    return {"double": payload["n"] * 2}


register("test.counting", counting)

ALICE = Owner.for_session("a" * 32)
BOB = Owner.for_session("b" * 32)


def test_a_job_runs_and_keeps_its_result() -> None:
    CALLS.clear()
    job = services.submit(owner=ALICE, kind="test.counting", key="n=21", payload={"n": 21})
    assert job.status == JobStatus.DONE
    assert job.data == {"double": 42}
    assert CALLS == [{"n": 21}]


def test_a_second_asker_gets_the_cached_result_without_a_second_run() -> None:
    CALLS.clear()
    services.submit(owner=ALICE, kind="test.counting", key="n=5", payload={"n": 5})
    again = services.submit(owner=BOB, kind="test.counting", key="n=5", payload={"n": 5})
    assert again.is_done and again.data == {"double": 10}
    assert len(CALLS) == 1
    assert Result.objects.filter(kind="test.counting", key="n=5").count() == 1
    assert selectors.job_for(owner=BOB, job_id=again.pk) is not None
    assert selectors.job_for(owner=ALICE, job_id=again.pk) is None  # another asker's job is not yours


def test_a_failing_handler_fails_its_job_with_a_message_for_people() -> None:
    job = services.submit(owner=ALICE, kind=PROBE, key="fail", payload={"fail": True})
    assert job.status == JobStatus.FAILED
    assert job.failure == Failure.HANDLER
    assert "RuntimeError" in job.detail
    assert not Result.objects.filter(kind=PROBE, key="fail").exists()


def _pending(owner: Owner, n: int) -> None:
    for i in range(n):
        Job.objects.create(**owner.fields(), kind=PROBE, key=f"pending-{owner.session_key}-{i}", address="10.0.0.1")


@override_settings(JOBS_PER_OWNER=2, JOBS_PER_ADDRESS=100)
def test_an_owner_with_too_many_pending_jobs_is_refused() -> None:
    _pending(ALICE, 2)
    with pytest.raises(services.LimitReached) as refused:
        services.submit(owner=ALICE, kind=PROBE, key="one more", payload={})
    assert refused.value.status == 429
    assert services.submit(owner=BOB, kind=PROBE, key="one more", payload={}).is_done


@override_settings(JOBS_PER_OWNER=100, JOBS_PER_ADDRESS=3)
def test_an_address_with_too_many_pending_jobs_is_refused_whatever_the_session() -> None:
    _pending(ALICE, 3)
    with pytest.raises(services.LimitReached):
        services.submit(owner=BOB, kind=PROBE, key="x", payload={}, address="10.0.0.1")
    assert services.submit(owner=BOB, kind=PROBE, key="x", payload={}, address="10.0.0.2").is_done


def test_a_key_longer_than_the_column_is_a_programming_error() -> None:
    with pytest.raises(ValueError):
        services.submit(owner=ALICE, kind=PROBE, key="k" * 500, payload={})


@override_settings(JOB_STALE_SECONDS=30, JOB_MAX_ATTEMPTS=3)
def test_a_job_whose_worker_stopped_beating_is_run_again_then_failed() -> None:
    long_ago = timezone.now() - timedelta(minutes=5)
    retried = Job.objects.create(
        **ALICE.fields(), kind=PROBE, key="r", status=JobStatus.RUNNING, attempts=1, heartbeat=long_ago
    )
    given_up = Job.objects.create(
        **ALICE.fields(), kind=PROBE, key="g", status=JobStatus.RUNNING, attempts=3, heartbeat=long_ago
    )
    alive = Job.objects.create(
        **ALICE.fields(), kind=PROBE, key="a", status=JobStatus.RUNNING, attempts=1, heartbeat=timezone.now()
    )
    assert services.recover_stale() == 2
    retried.refresh_from_db()
    given_up.refresh_from_db()
    alive.refresh_from_db()
    assert retried.status == JobStatus.DONE and retried.attempts == 2  # re-queued, and the immediate backend ran it
    assert given_up.status == JobStatus.FAILED and given_up.failure == Failure.WORKER_LOST
    assert alive.status == JobStatus.RUNNING


@override_settings(JOB_QUEUE_TIMEOUT=60)
def test_a_job_no_worker_takes_is_failed_not_pending_for_ever() -> None:
    job = Job.objects.create(**ALICE.fields(), kind=PROBE, key="q")
    Job.objects.filter(pk=job.pk).update(queued=timezone.now() - timedelta(minutes=2))
    services.recover_stale()
    job.refresh_from_db()
    assert job.status == JobStatus.FAILED and job.failure == Failure.NO_WORKER


def _session_owner(client: Any) -> Owner:
    from skatschule.owners import SESSION_OWNER_KEY

    session = client.session
    session[SESSION_OWNER_KEY] = "c" * 32
    session.save()
    return Owner.for_session("c" * 32)


def test_the_status_page_shows_progress_and_sends_the_asker_on_when_done(client: Any) -> None:
    owner = _session_owner(client)
    job = Job.objects.create(**owner.fields(), kind=PROBE, key="s")
    url = reverse("jobs:status", args=[job.pk]) + "?next=/ueben/"
    page = client.get(url)
    assert page.status_code == 200
    body = page.content.decode()
    assert "wartet auf einen freien Rechner" in body
    assert f'sse-connect="/rechnung/{job.pk}/ereignisse/"' in body  # its progress and end are pushed
    assert f'href="{url}"' in body  # a plain link for visitors without JS
    Job.objects.filter(pk=job.pk).update(status=JobStatus.DONE)
    assert client.get(url).headers["Location"] == "/ueben/"
    polled = client.get(url, headers={"HX-Request": "true"})
    assert polled.status_code == 204 and polled.headers["HX-Redirect"] == "/ueben/"


def test_the_status_page_refuses_other_owners_and_foreign_next_targets(client: Any) -> None:
    owner = _session_owner(client)
    mine = Job.objects.create(**owner.fields(), kind=PROBE, key="m", status=JobStatus.DONE)
    theirs = Job.objects.create(**BOB.fields(), kind=PROBE, key="t")
    assert client.get(reverse("jobs:status", args=[theirs.pk])).status_code == 404
    away = client.get(reverse("jobs:status", args=[mine.pk]) + "?next=https://evil.example/")
    assert away.headers["Location"] == "/"


def test_a_failed_job_says_why_in_the_visitors_language(client: Any) -> None:
    owner = _session_owner(client)
    job = Job.objects.create(
        **owner.fields(), kind=PROBE, key="f", status=JobStatus.FAILED, failure=Failure.WORKER_LOST
    )
    url = reverse("jobs:status", args=[job.pk])
    assert "ist ausgefallen" in client.get(url).content.decode()
    client.cookies["django_language"] = "en"
    assert "stopped" in client.get(url, headers={"Accept-Language": "en"}).content.decode()

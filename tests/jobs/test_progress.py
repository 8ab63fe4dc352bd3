"""A running job reports how far it got (share done, deals sampled); the page shows it, and the
job's event stream carries it, then its end."""

from __future__ import annotations

from typing import Any, cast

import pytest
from django.http import StreamingHttpResponse
from django.test import Client
from django.urls import reverse

from skatschule.engine import Phase
from skatschule.jobs import progress
from skatschule.jobs.models import Job, JobStatus
from skatschule.jobs.probe import PROBE
from skatschule.owners import SESSION_OWNER_KEY, Owner
from skatschule.table import services
from tests.table.stored import session_game


def _mine(client: Client, **fields: Any) -> Job:
    session = client.session
    session[SESSION_OWNER_KEY] = "p" * 32
    session.save()
    return Job.objects.create(**Owner.for_session("p" * 32).fields(), kind=PROBE, key="k", **fields)


def _events(client: Client, job: Job) -> str:
    response = client.get(reverse("jobs:events", args=[job.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "text/event-stream"
    return cast(StreamingHttpResponse, response).getvalue().decode()


@pytest.mark.django_db
def test_a_report_is_stored_on_the_running_job_and_pushed(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    job = _mine(client, status=JobStatus.RUNNING)
    pushed: list[tuple[str, str]] = []
    monkeypatch.setattr(progress, "publish", lambda channel, text="": pushed.append((channel, text)))
    progress.report(share=0.1, deals=1)  # outside a job: nothing
    with progress.running_job(job.pk):
        progress.report(share=0.5, deals=12)
        progress.report(share=0.6, deals=14)  # within EVERY seconds of the last: not stored
        progress.report(share=0.7, deals=16, final=True)
    job.refresh_from_db()
    assert job.progress == {"share": 0.7, "deals": 16}
    assert pushed == [(f"job.{job.pk}", "progress")] * 2
    page = client.get(reverse("jobs:status", args=[job.pk])).content.decode()
    assert "Wird gerechnet: 70 % geschafft, 16 Verteilungen ausprobiert" in page
    assert 'value="70"' in page


@pytest.mark.django_db
def test_the_event_stream_carries_the_progress_then_the_end(client: Client) -> None:
    job = _mine(client, status=JobStatus.RUNNING, progress={"share": 0.25, "deals": 3})
    body = _events(client, job)
    assert "event: progress" in body and "25 % geschafft, 3 Verteilungen ausprobiert" in body
    assert "event: done" not in body
    Job.objects.filter(pk=job.pk).update(status=JobStatus.DONE)
    assert "event: done" in _events(client, job)
    stranger = Client()
    assert stranger.get(reverse("jobs:events", args=[job.pk])).status_code == 404  # only the asker's


@pytest.mark.django_db
def test_the_analysis_reports_its_share_and_the_deals_it_drew(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(services, "ANALYSIS_NODES", 20_000)
    monkeypatch.setattr(services, "INSIGHT_SAMPLES", 2)
    monkeypatch.setattr(services, "INSIGHT_NODES", 5_000)
    for _ in range(20):  # a game someone declared (a deal may be passed in)
        client.post("/ueben/spiel/", {"action": "new", "confirm": "1", "level": "beginner"})
        table, state = session_game(client)
        while not state.is_over():
            if state.phase is Phase.AUCTION:
                client.post("/ueben/spiel/", {"action": "pass"})
            else:
                client.post("/ueben/spiel/", {"action": "card", "value": sorted(state.legal_cards())[0].code})
            table, state = session_game(client)
        if state.contract is not None:
            break
    reports: list[tuple[float, int]] = []
    monkeypatch.setattr(services, "report", lambda *, share, deals: reports.append((share, deals)))
    services.analyse(table=table, state=state, insights=True)
    shares = [share for share, _ in reports]
    assert shares == sorted(shares) and shares[-1] == 1.0  # rising to the whole
    assert reports[-1][1] > 0  # the deals drawn for "Hätte ich es wissen können?"


def test_the_ouvert_check_reports_the_distributions_it_solved(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(services, "OUVERT_SAMPLES", 5)
    reports: list[tuple[float, int]] = []
    monkeypatch.setattr(services, "report", lambda *, share, deals: reports.append((share, deals)))
    found = services.check_ouvert_hand(game="null", cards="C7 C8 C9 S7 S8 S9 H7 H8 H9 D7".split(), skat=[])
    assert reports == [(n / found.tried, n) for n in range(1, found.tried + 1)]

"""The load script itself: it drives every request class without errors (a short run)."""

from __future__ import annotations

import pytest
from django.test import Client
from pytest_django.live_server_helper import LiveServer

from skatschule.operations import load
from tests.present import present

pytestmark = pytest.mark.slow


@pytest.mark.django_db(transaction=True)
def test_a_short_load_run_has_no_errors(live_server: LiveServer) -> None:
    from django.db import connection

    # the live server shares one in-memory SQLite connection between its threads: one visitor
    users = 1 if connection.vendor == "sqlite" else 3
    stats = load.drive(live_server.url, users=users, seconds=3, think=0.0, warmup=0)
    assert set(stats.times) == {"minimal", "page", "rules", "generate", "grade"}
    assert all(len(t) >= 1 for t in stats.times.values())
    assert sum(stats.errors.values()) == 0, stats.samples
    text = load.report(stats, 3)
    assert "p95 ms" in text and "errors: 0" in text


@pytest.mark.django_db
def test_answers_read_from_the_form_are_graded_not_refused(client: Client) -> None:
    """answer_from_form builds a readable answer for every exercise type the script uses."""
    import re

    for kind in load.KINDS:
        html = client.get(f"/ueben/aufgabe/{kind}/").content.decode()
        url = present(load.ANSWER_URL.search(html)).group(1)
        response = client.post(url, {"answer": load.answer_from_form(html)})
        assert response.status_code == 200, (kind, re.sub(r"\s+", " ", response.content.decode())[:300])


def test_percentile() -> None:
    values: list[float] = list(range(1, 101))
    assert (load.percentile(values, 50), load.percentile(values, 95), load.percentile(values, 99)) == (50, 95, 99)

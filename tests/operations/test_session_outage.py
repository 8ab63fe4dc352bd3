"""Issue 33, L6: a session that cannot be saved because the database is down is the outage page.

In production sessions are read from Redis (``cached_db``), so ``/ueben/spiel/`` worked during a
database outage until its session, written on every request, was saved: Django's middleware then
reports an "interrupted" session, and that was a 400. Here the session's table refuses writes the
way a database that is down does (``OperationalError``), after the session was read."""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest
from django.contrib.sessions.models import Session
from django.db import OperationalError
from django.test import Client

pytestmark = pytest.mark.django_db


def _down(*args: object, **kwargs: object) -> None:
    raise OperationalError("connection to server at 127.0.0.1, port 5432 failed: Connection refused")


@pytest.mark.parametrize("method", ["get", "post"])
def test_the_table_answers_503_with_retry_after_when_its_session_cannot_be_saved(method: str) -> None:
    client = Client()
    assert client.get("/ueben/spiel/").status_code == 200  # a session with a table
    with mock.patch.object(Session, "save", _down):
        response = getattr(client, method)("/ueben/spiel/", {"action": "takeback"} if method == "post" else {})
    assert response.status_code == 503
    assert response["Retry-After"] == "30"


def test_a_session_deleted_meanwhile_is_still_a_400() -> None:
    """Django's own case (the user logged out in another tab: the row is gone when the session
    is saved) stays a 400; only a database that cannot be reached is an outage."""
    client = Client()
    client.get("/ueben/spiel/")
    save = Session.save

    def deleted_first(self: Session, *args: Any, **kwargs: Any) -> None:
        Session.objects.filter(pk=self.pk).delete()
        save(self, *args, **kwargs)

    with mock.patch.object(Session, "save", deleted_first):
        response = client.post("/ueben/spiel/", {"action": "takeback"})
    assert response.status_code == 400

"""The review queue shows one item with a fixed number of queries, however many are due."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from skatschule.training.models import ReviewItem
from tests.people import client_for

pytestmark = pytest.mark.django_db


def _due(user: User, start: int, count: int) -> None:
    """Items due in the past; later seeds less overdue (they queue behind the first)."""
    now = timezone.now()
    card = {
        "card_id": 1,
        "state": 2,
        "step": None,
        "stability": 3.0,
        "difficulty": 5.0,
        "due": now.isoformat(),
        "last_review": None,
    }
    ReviewItem.objects.bulk_create(
        ReviewItem(user=user, kind="augen", difficulty=1, seed=n, card=card, due=now - timedelta(hours=100 - n))
        for n in range(start, start + count)
    )


def _review_queries(client: Client) -> tuple[int, str]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("training:review"))
    assert response.status_code == 200
    return len(queries), "\n".join(q["sql"] for q in queries)


def test_review_queue_fetches_one_item_and_counts_with_count() -> None:
    user = get_user_model().objects.create_user("wiederholer")
    client = client_for(user)
    _due(user, 0, 2)
    client.get(reverse("training:review"))  # the first visit issues the exercise
    few, _sql = _review_queries(client)
    _due(user, 2, 60)
    many, sql = _review_queries(client)
    assert many == few
    assert "COUNT(" in sql.upper()
    assert "LIMIT 10" in sql.upper()  # never the whole queue

"""Games posted at the same moment to one score sheet are all kept (issue 25, item 7).

Threads with their own database connections and real transactions, on the database the suite
runs with (``make test``: PostgreSQL when it answers).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from threading import Barrier
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connections
from django.test import Client

from skatschule.scoresheet.models import ScoreSheet
from skatschule.scoresheet.services import SESSION_KEY

PARALLEL = 20
GAME = {"declarer": "1", "game": "clubs", "matadors": "1", "bid": "18", "points": "70", "tricks": "6"}


def _post_in_parallel() -> tuple[list[int], ScoreSheet]:
    user = get_user_model().objects.create_user("listenfuehrer", password="kreuz-bube-und-pik-bube")
    owner = Client()
    owner.force_login(user)
    owner.post(
        "/liste/",
        {"player1": "Anna", "player2": "Bernd", "player3": "Carla", "dealer": "0", "cents": "0", "grand_base": "24"},
    )
    sheet = ScoreSheet.objects.get(owner=user)
    cookies = owner.cookies
    start = Barrier(PARALLEL)

    def post(_: int) -> int:
        try:
            client = Client()
            client.cookies = cookies
            start.wait()
            return client.post(f"/liste/{sheet.public_id}/spiel/", GAME).status_code
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=PARALLEL) as pool:
        codes = list(pool.map(post, range(PARALLEL)))
    sheet.refresh_from_db()
    return codes, sheet


@pytest.mark.django_db(transaction=True)
def test_parallel_games_are_all_stored() -> None:
    codes, sheet = _post_in_parallel()
    assert codes == [302] * PARALLEL
    assert len(sheet.data["entries"]) == PARALLEL


def _post_in_parallel_as_visitor() -> tuple[list[int], int]:
    """Issue 33, L1: the same for a visitor's sheet, kept in the session (4 of 20 were kept)."""
    visitor = Client()
    visitor.post(
        "/liste/",
        {"player1": "Anna", "player2": "Bernd", "player3": "Carla", "dealer": "0", "cents": "0", "grand_base": "24"},
    )
    cookies = visitor.cookies
    start = Barrier(PARALLEL)

    def post(_: int) -> int:
        try:
            client = Client()
            client.cookies = cookies
            start.wait()
            return client.post("/liste/sitzung/spiel/", GAME).status_code
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=PARALLEL) as pool:
        codes = list(pool.map(post, range(PARALLEL)))
    return codes, len(visitor.session[SESSION_KEY]["entries"])


@pytest.mark.parametrize("engine", ["db", "cached_db"])  # cached_db: production's, with Redis
@pytest.mark.django_db(transaction=True)
def test_parallel_games_of_a_visitor_are_all_stored(settings: Any, engine: str) -> None:
    settings.SESSION_ENGINE = f"django.contrib.sessions.backends.{engine}"
    codes, stored = _post_in_parallel_as_visitor()
    assert codes == [302] * PARALLEL
    assert stored == PARALLEL

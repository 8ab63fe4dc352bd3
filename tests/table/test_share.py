"""Teilen: a learner publishes a stored game's board (opt-in), anyone with the link sees it
without user names and marked noindex, and the learner can revoke it (the link is dead then)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from skatschule.table import services
from skatschule.table.models import TableGame
from tests.present import present
from tests.table.stored import stored_games

pytestmark = pytest.mark.django_db
URL = "/ueben/spiel/"


@pytest.fixture(autouse=True)
def quick_analysis(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(services, "ANALYSIS_NODES", 100_000)
    monkeypatch.setattr(services, "INSIGHT_SAMPLES", 2)
    monkeypatch.setattr(services, "INSIGHT_NODES", 5_000)


def test_a_shared_board_is_public_nameless_noindex_and_revocable(
    client: Client, player: Any, django_user_model: Any
) -> None:
    [(pk, _state)] = stored_games(player, 1)
    row = TableGame.objects.get(pk=present(pk))
    board = client.get(f"{URL}{row.pk}/brett/").content.decode()
    assert "Brett teilen" in board and row.share is None  # nothing is public unasked
    assert client.get(f"{URL}{row.pk}/teilen/").status_code == 405  # only a POST publishes
    answer = client.post(f"{URL}{row.pk}/teilen/")
    assert answer.status_code == 302 and answer["Location"] == f"{URL}{row.pk}/brett/#teilen"
    row.refresh_from_db()
    assert row.share is not None
    link = f"{URL}geteilt/{row.share}/"
    assert link in client.get(f"{URL}{row.pk}/brett/").content.decode()
    # anyone with the link: the board and its analysis, no user name, noindex
    stranger = Client()
    page = stranger.get(link)
    assert page.status_code == 200
    assert page["X-Robots-Tag"] == "noindex, nofollow"
    text = page.content.decode()
    assert '<meta name="robots" content="noindex, nofollow">' in text
    assert "Analysebrett" in text and "Alle Entscheidungen" in text
    assert player.username not in text
    assert "Brett teilen" not in text and "Nicht mehr teilen" not in text  # only the owner decides
    assert stranger.get(link, {"schritt": 3}).status_code == 200
    # another user cannot publish or revoke it
    other = Client()
    other.force_login(django_user_model.objects.create_user("fremd", password="geheim-12345"))
    assert other.post(f"{URL}{row.pk}/teilen/", {"teilen": "aus"}).status_code == 404
    assert stranger.get(link).status_code == 200
    # revoked: the link is dead; shared again: a new link, the old one stays dead
    client.post(f"{URL}{row.pk}/teilen/", {"teilen": "aus"})
    assert stranger.get(link).status_code == 404
    client.post(f"{URL}{row.pk}/teilen/")
    row.refresh_from_db()
    assert row.share is not None and f"{URL}geteilt/{row.share}/" != link
    assert stranger.get(link).status_code == 404
    assert stranger.get(f"{URL}geteilt/{row.share}/").status_code == 200
    assert stranger.get(f"{URL}geteilt/kein-schluessel/").status_code == 404

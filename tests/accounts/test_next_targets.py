"""A ``next`` that is not a URL of this site is ignored, never taken for a view name (found by the fuzz)."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.people import client_for, make_user

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "target", ["0", "dashboard", "training:dashboard", "//evil.example/", "https://evil.example/x"]
)
def test_signed_in_signup_with_a_foreign_next_goes_to_the_dashboard(target: str) -> None:
    client = client_for(make_user("anna"))
    response = client.get("/konto/registrieren/", {"next": target})
    assert response.status_code == 302 and response["Location"] == "/ueben/fortschritt/"


@pytest.mark.parametrize("target", ["0", "regeln", "//evil.example/"])
def test_deck_choice_with_a_foreign_next_goes_home(target: str) -> None:
    response = Client().post("/karten/blatt/", {"deck": "german", "next": target})
    assert response.status_code == 302 and response["Location"] == "/"


def test_a_path_of_this_site_is_kept() -> None:
    response = Client().post("/karten/blatt/", {"deck": "german", "next": "/regeln/3.2.4"})
    assert response.status_code == 302 and response["Location"] == "/regeln/3.2.4"

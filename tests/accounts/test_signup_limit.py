"""Signups per address are limited like wrong join codes (issue 17, §3), and Vary is sent once."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from django.contrib.auth import get_user_model
from django.test import Client, override_settings
from django.urls import reverse

if TYPE_CHECKING:
    from django.test.client import _MonkeyPatchedWSGIResponse

pytestmark = pytest.mark.django_db
SIGNUP = reverse("accounts:signup")


def _signup(name: str, address: str = "198.51.100.7", password: str = "Kreuz-Bube-77x") -> _MonkeyPatchedWSGIResponse:
    client = Client(REMOTE_ADDR=address)  # no cookies: a fresh visitor each time
    return client.post(SIGNUP, {"username": name, "password1": password, "password2": password})


@override_settings(SIGNUP_LIMIT=3, PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"])
def test_signups_from_one_address_are_limited_and_others_are_not() -> None:
    for i in range(3):
        assert _signup(f"neu{i}").status_code == 302
    refused = _signup("neu3")
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) > 0
    assert "zu viele konten" in refused.content.decode().lower()
    assert not get_user_model().objects.filter(username="neu3").exists()
    assert _signup("woanders", address="198.51.100.8").status_code == 302  # another address is not affected
    assert get_user_model().objects.filter(username__startswith="neu").count() == 3


@override_settings(SIGNUP_LIMIT=2, PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"])
def test_a_rejected_form_costs_no_slot() -> None:
    for i in range(5):
        assert _signup(f"tippfehler{i}", password="kurz").status_code == 400  # invalid: shown again
    assert _signup("klappt0").status_code == 302
    assert _signup("klappt1").status_code == 302
    assert _signup("klappt2").status_code == 429


def test_vary_cookie_is_sent_once() -> None:
    client = Client()
    client.get(reverse("training:exercise", args=["augen"]))  # now with a session
    for url in (reverse("home:index"), reverse("training:exercise", args=["augen"]), reverse("rules:index")):
        vary = [v.strip().lower() for v in client.get(url).get("Vary", "").split(",") if v.strip()]
        assert vary.count("cookie") == 1, (url, vary)

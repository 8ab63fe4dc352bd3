"""Password-reset mails are limited per target address and per client address (issue 25, item 13)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client, override_settings
from django.urls import reverse

if TYPE_CHECKING:
    from django.test.client import _MonkeyPatchedWSGIResponse

pytestmark = pytest.mark.django_db
RESET = reverse("accounts:password_reset")


def _ask(email: str, address: str = "198.51.100.20") -> _MonkeyPatchedWSGIResponse:
    return Client(REMOTE_ADDR=address).post(RESET, {"email": email})


@override_settings(PASSWORD_RESET_TARGET_LIMIT=3, PASSWORD_RESET_ADDRESS_LIMIT=100)
def test_mails_to_one_address_are_limited_from_any_client() -> None:
    get_user_model().objects.create_user("ziel", email="ziel@example.org", password="Kreuz-Bube-77x")
    for i in range(3):
        assert _ask("ziel@example.org", address=f"198.51.100.{30 + i}").status_code == 302
    assert len(mail.outbox) == 3
    for i in range(17):  # 20 posts in all, from ever new addresses, and in other spellings
        refused = _ask(" ZIEL@example.org " if i % 2 else "ziel@example.org", address=f"203.0.113.{i}")
        assert refused.status_code == 429
    assert len(mail.outbox) == 3
    assert int(refused["Retry-After"]) > 0
    assert "zu viele mails" in refused.content.decode().lower()
    get_user_model().objects.create_user("andere", email="andere@example.org", password="Kreuz-Bube-77x")
    assert _ask("andere@example.org").status_code == 302  # another target is not affected
    assert len(mail.outbox) == 4


@override_settings(PASSWORD_RESET_TARGET_LIMIT=100, PASSWORD_RESET_ADDRESS_LIMIT=5)
def test_requests_from_one_client_are_limited_whether_the_accounts_exist_or_not() -> None:
    get_user_model().objects.create_user("echt", email="echt@example.org", password="Kreuz-Bube-77x")
    answers = [_ask(f"gibt-es-nicht-{i}@example.org").status_code for i in range(5)]
    assert answers == [302] * 5  # unknown addresses look the same as known ones, and count
    assert _ask("echt@example.org").status_code == 429
    assert not mail.outbox
    assert _ask("echt@example.org", address="198.51.100.99").status_code == 302
    assert len(mail.outbox) == 1


def test_the_defaults_stop_twenty_posts_at_three_mails() -> None:
    get_user_model().objects.create_user("viel", email="viel@example.org", password="Kreuz-Bube-77x")
    codes = [_ask("viel@example.org").status_code for _ in range(20)]
    assert codes.count(302) == 3 and codes.count(429) == 17
    assert len(mail.outbox) == 3

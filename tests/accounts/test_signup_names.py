"""Issue 33, L6: signup does not tell which names exist faster than accounts can be made.

Django's form said "already exists" beside any other error, so a form with a mismatched password
probed a name for free. Now a taken name is told only for an otherwise complete signup, and that
answer costs a slot of the per-address signup limit, as a new account does."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client, override_settings
from django.urls import reverse

pytestmark = pytest.mark.django_db
SIGNUP = reverse("accounts:signup")
GOOD = "Kreuz-Bube-77x"
TAKEN = "Diesen Namen gibt es schon"


def _signup(
    name: str, password: str = GOOD, again: str | None = None, address: str = "198.51.100.7"
) -> tuple[int, str]:
    client = Client(REMOTE_ADDR=address)
    data = {"username": name, "password1": password, "password2": password if again is None else again}
    response = client.post(SIGNUP, data)
    return response.status_code, response.content.decode()


@pytest.fixture
def anna() -> None:
    get_user_model().objects.create_user("anna", password=GOOD)


@override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"])
@pytest.mark.parametrize("password, again", [(GOOD, "anders-Kreuz-77"), ("kurz", "kurz"), ("12345678", "12345678")])
def test_an_incomplete_signup_answers_the_same_for_a_taken_and_a_free_name(
    anna: None, password: str, again: str
) -> None:
    taken = _signup("Anna", password, again)
    free = _signup("berta", password, again)
    assert taken[0] == free[0] == 400
    assert TAKEN not in taken[1] and "existiert bereits" not in taken[1] and "already exists" not in taken[1]
    assert taken[1].replace("Anna", "berta").count("errorlist") == free[1].count("errorlist")


@override_settings(SIGNUP_LIMIT=3, PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"])
def test_a_taken_name_is_told_and_costs_a_slot(anna: None) -> None:
    status, html = _signup("ANNA")  # another spelling of a taken name
    assert status == 400 and TAKEN in html
    assert get_user_model().objects.filter(username__iexact="anna").count() == 1
    assert _signup("anna")[0] == 400
    assert _signup("carla")[0] == 302  # the real user picks another name and is in
    assert _signup("dora")[0] == 429  # three answers from this address in the window: no fourth
    assert _signup("dora", address="198.51.100.8")[0] == 302


@override_settings(SIGNUP_LIMIT=1, PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"])
def test_ipv6_addresses_of_one_64_share_the_signup_limit() -> None:
    assert _signup("erster", address="2001:db8:5:6::1")[0] == 302
    assert _signup("zweiter", address="2001:db8:5:6:ffff::2")[0] == 429
    assert _signup("dritter", address="2001:db8:5:7::1")[0] == 302


@override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"])
def test_the_taken_name_in_english(anna: None) -> None:
    client = Client()
    client.cookies["django_language"] = "en"
    response = client.post(SIGNUP, {"username": "anna", "password1": GOOD, "password2": GOOD})
    assert response.status_code == 400 and "This name is taken" in response.content.decode()

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from skatschule.owners import SESSION_OWNER_KEY
from skatschule.training.models import Attempt, IssuedExercise, ReviewItem
from tests.training.helpers import right_answer, wrong_answer

pytestmark = pytest.mark.django_db
PASSWORD = "kreuz-bube-und-herz-zehn"


def _practise(client: Client, correct: bool) -> IssuedExercise:
    client.get(reverse("training:exercise", kwargs={"kind": "augen"}))
    issued = IssuedExercise.objects.latest("issued_at", "pk")
    answer = right_answer(issued) if correct else wrong_answer(issued)
    client.post(reverse("training:answer", args=[issued.public_id]), {"answer": answer})
    return issued


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("name", ["accounts:signup", "accounts:login"])
def test_pages_render(name: str, lang: str) -> None:
    client = Client()
    client.cookies["django_language"] = lang
    response = client.get(reverse(name))
    assert response.status_code == 200
    html = response.content.decode()
    assert f'<html lang="{lang}"' in html and 'name="password' in html
    assert ("Anmelden" in html) == (lang == "de")


def test_signup_logs_in_and_adopts_the_session() -> None:
    client = Client()
    _practise(client, False)
    _practise(client, True)
    key = client.session[SESSION_OWNER_KEY]
    assert Attempt.objects.filter(session_key=key).count() == 2
    response = client.post(
        reverse("accounts:signup"), {"username": "anna", "password1": PASSWORD, "password2": PASSWORD}
    )
    assert response.status_code == 302 and response["Location"] == reverse("training:dashboard")
    user = get_user_model().objects.get(username="anna")
    assert int(client.session["_auth_user_id"]) == user.pk
    assert client.session.session_key != key  # rotated on login
    assert Attempt.objects.filter(user=user).count() == 2
    assert IssuedExercise.objects.filter(user=user).count() == 2
    assert ReviewItem.objects.filter(user=user).count() == 1
    assert not Attempt.objects.filter(user__isnull=True).exists()
    html = client.get(reverse("training:dashboard")).content.decode()
    assert "<dd>2</dd>" in html  # two answers


def test_signup_errors_are_shown() -> None:
    client = Client()
    response = client.post(reverse("accounts:signup"), {"username": "x", "password1": "a", "password2": "b"})
    assert response.status_code == 400
    assert "errorlist" in response.content.decode()
    assert not get_user_model().objects.exists()


def test_login_adopts_the_session_and_logout_keeps_it() -> None:
    user = get_user_model().objects.create_user("ben", password=PASSWORD)
    client = Client()
    _practise(client, True)
    response = client.post(reverse("accounts:login"), {"username": "ben", "password": PASSWORD})
    assert response.status_code == 302
    assert Attempt.objects.filter(user=user).count() == 1

    assert client.get(reverse("accounts:logout")).status_code == 405  # POST only
    response = client.post(reverse("accounts:logout"))
    assert response.status_code == 302
    assert "_auth_user_id" not in client.session
    # anonymous again: a fresh, empty progress; the user's attempts stay with the user
    _practise(client, False)
    assert Attempt.objects.filter(user=user).count() == 1
    assert Attempt.objects.filter(user__isnull=True).count() == 1
    client.post(reverse("accounts:login"), {"username": "ben", "password": PASSWORD})
    assert Attempt.objects.filter(user=user).count() == 2


def test_login_next_and_authenticated_redirects() -> None:
    get_user_model().objects.create_user("cleo", password=PASSWORD)
    client = Client()
    response = client.post(
        reverse("accounts:login") + "?next=/ueben/", {"username": "cleo", "password": PASSWORD, "next": "/ueben/"}
    )
    assert response["Location"] == "/ueben/"
    assert client.get(reverse("accounts:signup")).status_code == 302
    response = client.post(
        reverse("accounts:signup"),
        {"username": "evil", "password1": PASSWORD, "password2": PASSWORD, "next": "https://evil.example/"},
    )
    assert response["Location"] == reverse("training:dashboard")


def test_users_do_not_see_each_others_exercises() -> None:
    a = get_user_model().objects.create_user("a", password=PASSWORD)
    get_user_model().objects.create_user("b", password=PASSWORD)
    client_a, client_b = Client(), Client()
    client_a.force_login(a)
    client_b.post(reverse("accounts:login"), {"username": "b", "password": PASSWORD})
    client_a.get(reverse("training:exercise", kwargs={"kind": "augen"}))
    issued = IssuedExercise.objects.get(user=a)
    response = client_b.post(reverse("training:answer", args=[issued.public_id]), {"answer": right_answer(issued)})
    assert response.status_code == 404


def test_refused_auth_forms_answer_400_and_keep_the_input() -> None:
    get_user_model().objects.create_user("ben", password=PASSWORD)
    client = Client()
    wrong = client.post(reverse("accounts:login"), {"username": "ben", "password": "falsch"})
    assert wrong.status_code == 400 and 'value="ben"' in wrong.content.decode()
    client.force_login(get_user_model().objects.get(username="ben"))
    mismatch = client.post(
        reverse("accounts:password_change"),
        {"old_password": PASSWORD, "new_password1": "Neu-Passwort-17", "new_password2": "anders-17"},
    )
    assert mismatch.status_code == 400 and "errorlist" in mismatch.content.decode()

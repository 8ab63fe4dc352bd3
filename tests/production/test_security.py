"""Security settings: CSP header, no inline scripts, login rate limit, password rules, admin."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from pytest_django.fixtures import Settings

pytestmark = pytest.mark.django_db
TEMPLATES = Path(settings.BASE_DIR) / "templates"
PASSWORD = "kreuz-bube-und-herz-zehn"


def _directives(header: str) -> dict[str, list[str]]:
    out = {}
    for part in header.split(";"):
        name, *values = part.split()
        out[name] = values
    return out


@pytest.mark.parametrize(
    "url",
    ["/", "/regeln/", "/regeln/kapitel/3/", "/ueben/aufgabe/augen/", "/konto/anmelden/", "/gibt-es-nicht/"],
)
def test_every_page_sends_a_csp_without_inline_scripts(client: Client, url: str) -> None:
    response = client.get(url)
    assert response.status_code in (200, 404)
    policy = _directives(response["Content-Security-Policy"])
    assert policy["default-src"] == ["'self'"]
    assert policy["script-src"] == ["'self'"]
    assert "'unsafe-inline'" not in policy["style-src-elem"]
    assert policy["object-src"] == ["'none'"] and policy["frame-ancestors"] == ["'none'"]


def test_report_only_mode(settings: Settings, client: Client) -> None:
    settings.CONTENT_SECURITY_POLICY_REPORT_ONLY = settings.CONTENT_SECURITY_POLICY
    settings.CONTENT_SECURITY_POLICY = None
    response = client.get("/healthz")
    assert "Content-Security-Policy-Report-Only" in response
    assert "Content-Security-Policy" not in response


INLINE_SCRIPT = re.compile(r"<script(?![^>]*\ssrc=)[^>]*>", re.IGNORECASE)
HANDLER_ATTRIBUTE = re.compile(r"<[a-z][^>]*\son[a-z]+\s*=", re.IGNORECASE)
JS_URL = re.compile(r"""(href|src|action)\s*=\s*["']\s*javascript:""", re.IGNORECASE)


def test_no_template_has_inline_script_or_handler_attributes() -> None:
    """The CSP forbids them, so they would silently not work: keep them out of every template."""
    offenders = []
    for path in sorted(TEMPLATES.rglob("*.html")):
        text = path.read_text(encoding="utf-8")
        for pattern in (INLINE_SCRIPT, HANDLER_ATTRIBUTE, JS_URL):
            for match in pattern.finditer(text):
                offenders.append(f"{path.relative_to(TEMPLATES)}: {match.group(0)[:60]}")
    assert not offenders, "inline script in templates (blocked by the CSP):\n" + "\n".join(offenders)
    assert settings.CSP_POLICY["script-src"] == ["'self'"]


def test_wrong_passwords_lock_the_login(client: Client) -> None:
    get_user_model().objects.create_user("bert", password=PASSWORD)
    url = reverse("accounts:login")
    limit = settings.AXES_FAILURE_LIMIT
    for _ in range(limit - 1):
        response = client.post(url, {"username": "bert", "password": "falsch"}, REMOTE_ADDR="10.0.0.7")
        assert response.status_code == 400  # the form again, with Django's error
    response = client.post(url, {"username": "bert", "password": "falsch"}, REMOTE_ADDR="10.0.0.7")
    assert response.status_code == 429
    html = response.content.decode()
    assert "vorübergehend gesperrt" in html and f"Nach {limit} falschen Passwörtern" in html
    assert response["Retry-After"] == str(int(settings.AXES_COOLOFF_TIME.total_seconds()))
    # now even the right password is refused from that address ...
    response = client.post(url, {"username": "bert", "password": PASSWORD}, REMOTE_ADDR="10.0.0.7")
    assert response.status_code == 429 and "_auth_user_id" not in client.session
    # ... but bert can still log in from elsewhere (the pair username + address is locked)
    other = Client()
    response = other.post(url, {"username": "bert", "password": PASSWORD}, REMOTE_ADDR="10.0.0.8")
    assert response.status_code == 302 and "_auth_user_id" in other.session


@pytest.mark.parametrize("name", ["ä" * 300, "x" * 5000])
def test_a_very_long_username_is_a_failed_login_and_is_locked_too(client: Client, name: str) -> None:
    """Django's login form does not limit the name's length: a failed login with 300 characters
    reached django-axes' 255-character column (a 500 on PostgreSQL). The name axes keeps is cut
    to 255 characters; the login is refused with 400, and locked after the limit (429)."""
    url = reverse("accounts:login")
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert client.post(url, {"username": name, "password": "x"}).status_code == 400
    assert client.post(url, {"username": name, "password": "x"}).status_code == 429
    from axes.models import AccessAttempt

    assert AccessAttempt.objects.get().username == name[:255]


def test_lockout_page_in_english(client: Client) -> None:
    client.cookies["django_language"] = "en"
    url = reverse("accounts:login")
    for _ in range(settings.AXES_FAILURE_LIMIT):
        response = client.post(url, {"username": "nobody", "password": "x"})
    assert response.status_code == 429
    assert "Login temporarily locked" in response.content.decode()


def test_right_password_resets_the_count(client: Client) -> None:
    get_user_model().objects.create_user("carla", password=PASSWORD)
    url = reverse("accounts:login")
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        client.post(url, {"username": "carla", "password": "falsch"})
    assert client.post(url, {"username": "carla", "password": PASSWORD}).status_code == 302
    client.post(reverse("accounts:logout"))
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert client.post(url, {"username": "carla", "password": "falsch"}).status_code == 400


@pytest.mark.parametrize("password", ["12345678", "password", "kurz", "dora1234dora"])
def test_weak_passwords_are_refused_on_signup(client: Client, password: str) -> None:
    response = client.post(
        reverse("accounts:signup"), {"username": "dora1234dora", "password1": password, "password2": password}
    )
    assert response.status_code == 400
    assert not get_user_model().objects.filter(username="dora1234dora").exists()


def test_admin_only_for_staff(client: Client) -> None:
    assert client.get("/admin/").status_code == 302  # to the admin login
    user = get_user_model().objects.create_user("emil", password=PASSWORD)
    client.force_login(user)
    response = client.get("/admin/")
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
    assert client.get("/admin/training/attempt/").status_code == 302
    user.is_staff = True
    user.is_superuser = True
    user.save()
    client.force_login(user)
    assert client.get("/admin/").status_code == 200
    assert client.get("/admin/training/attempt/").status_code == 200


def test_admin_login_is_rate_limited_too(client: Client) -> None:
    get_user_model().objects.create_superuser("fritz", password=PASSWORD)
    for _ in range(settings.AXES_FAILURE_LIMIT):
        response = client.post("/admin/login/", {"username": "fritz", "password": "falsch"})
    assert response.status_code == 429


def test_htmx_posts_carry_the_csrf_token() -> None:
    client = Client(enforce_csrf_checks=True)
    html = client.get("/ueben/aufgabe/augen/").content.decode()
    token = re.search(r'hx-headers=\'\{"X-CSRFToken": "([^"]+)"\}\'', html)
    assert token, "base.html must send the CSRF token to htmx"
    action = re.search(r'hx-post="([^"]+)"', html) or re.search(r'action="(/ueben/antwort/[^"]+)"', html)
    assert action
    assert client.post(action.group(1), {"answer": "1"}).status_code == 403  # no token
    response = client.post(action.group(1), {"answer": "1"}, HTTP_X_CSRFTOKEN=token.group(1), HTTP_HX_REQUEST="true")
    assert response.status_code == 200


def test_healthz(client: Client) -> None:
    response = client.get("/healthz?db=1")
    assert response.status_code == 200 and response.content == b"ok"
    assert client.post("/healthz").status_code == 405


@pytest.mark.parametrize("secure", [True, False])
def test_language_and_deck_cookies_follow_the_production_flags(
    client: Client, settings: Settings, secure: bool
) -> None:
    """Issue 25, item 15: in production (LANGUAGE_COOKIE_SECURE, see test_deploy) both preference
    cookies are Secure and SameSite=Lax; in development (plain HTTP) they must not be Secure."""
    settings.LANGUAGE_COOKIE_SECURE = secure
    settings.LANGUAGE_COOKIE_SAMESITE = "Lax"
    response = client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    language = response.cookies[settings.LANGUAGE_COOKIE_NAME]
    response = client.post(reverse("cards:deck"), {"deck": "german"})
    deck = response.cookies["skatschule_deck"]
    for cookie in (language, deck):
        assert bool(cookie["secure"]) is secure, cookie.key
        assert cookie["samesite"] == "Lax", cookie.key
    assert deck["httponly"]

"""The home page and the site shell (templates/base.html)."""

from __future__ import annotations

import sys
import types

import pytest
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.test import Client
from django.urls import NoReverseMatch, include, path, reverse
from pytest_django.fixtures import Settings

pytestmark = pytest.mark.django_db

OTHER_APP_LINKS = ["rules:index", "rules:glossary", "rules:search", "training:lessons", "training:dashboard"]


def url_or_none(name: str) -> str | None:
    try:
        return reverse(name)
    except NoReverseMatch:
        return None


def test_home_in_german(client: Client) -> None:
    response = client.get("/")
    assert response.status_code == 200
    page = response.content.decode()
    assert '<html lang="de">' in page
    assert "Skat lernen nach der Skatordnung" in page
    assert "Internationalen Skatordnung" in page
    assert 'href="#main"' in page and 'id="main"' in page
    assert 'name="viewport"' in page
    assert f'href="{reverse("cards:gallery")}"' in page
    assert "Kartengalerie" in page
    # The four jacks as cards on the home page.
    assert 'aria-label="Kreuz-Bube"' in page and 'aria-label="Karo-Bube"' in page


def test_home_links_to_what_exists(client: Client) -> None:
    page = client.get("/").content.decode()
    for name in OTHER_APP_LINKS:
        url = url_or_none(name)
        if url is not None:
            assert f'href="{url}"' in page, name


def test_shell_has_switchers_htmx_and_csrf_header(client: Client) -> None:
    page = client.get("/").content.decode()
    assert 'action="/i18n/setlang/"' in page
    assert 'name="language" value="en"' in page and 'name="language" value="de"' in page
    assert f'action="{reverse("cards:deck")}"' in page
    assert 'name="deck"' in page and 'value="tournament"' in page
    assert page.count('name="csrfmiddlewaretoken"') >= 2
    assert "django_htmx/htmx-2.min.js" in page
    assert """hx-headers='{"X-CSRFToken": \"""" in page
    assert "<script>" not in page  # no inline scripts
    assert "/static/css/site.css" in page


def test_home_in_english_after_set_language(client: Client) -> None:
    response = client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert response.status_code == 302
    page = client.get("/").content.decode()
    assert '<html lang="en">' in page
    assert "Learn Skat by the official rules" in page
    assert "Card gallery" in page
    assert 'aria-label="jack of clubs"' in page
    assert "Skat lernen nach der Skatordnung" not in page
    # and back
    client.post("/i18n/setlang/", {"language": "de", "next": "/"})
    assert '<html lang="de">' in client.get("/").content.decode()


def test_home_only_get_and_head(client: Client) -> None:
    assert client.head("/").status_code == 200
    assert client.post("/").status_code == 405


def test_static_css_exists() -> None:
    from django.contrib.staticfiles import finders

    css = finders.find("css/site.css")
    assert css, "static/css/site.css not found"
    text = open(css, encoding="utf-8").read()
    for selector in (
        ".card-img",
        ".card-choice",
        ".rule:target",
        ".annotation.variante",
        ".term",
        ".feedback-correct",
        ".feedback-wrong",
        ".progress",
        ".btn",
        "mark",
        ".variant-note",
        "@media print",
    ):
        assert selector in text, selector


# ---- the shell with and without the other apps' URLs ---------------------------


def _stub(request: HttpRequest) -> HttpResponse:
    return HttpResponse("stub")


def _install_urlconf(settings: Settings, name: str, with_other_apps: bool) -> None:
    module = types.ModuleType(name)
    patterns = [
        path("", include("skatschule.home.urls")),
        path("karten/", include("skatschule.cards.urls")),
        path("i18n/", include("django.conf.urls.i18n")),
    ]
    if with_other_apps:
        patterns += [
            path(
                "r/",
                include(
                    (
                        [
                            path("", _stub, name="index"),
                            path("glossar/", _stub, name="glossary"),
                            path("suche/", _stub, name="search"),
                        ],
                        "rules",
                    )
                ),
            ),
            path("u/", include(([path("", _stub, name="lessons"), path("me/", _stub, name="dashboard")], "training"))),
            path(
                "k/",
                include(
                    (
                        [
                            path("in/", _stub, name="login"),
                            path("out/", _stub, name="logout"),
                            path("neu/", _stub, name="signup"),
                        ],
                        "accounts",
                    )
                ),
            ),
        ]
    module.urlpatterns = patterns  # type: ignore[attr-defined]
    sys.modules[name] = module
    settings.ROOT_URLCONF = name


def test_shell_works_without_the_other_apps(client: Client, settings: Settings) -> None:
    _install_urlconf(settings, "skatschule_test_urls_minimal", with_other_apps=False)
    page = client.get("/").content.decode()
    assert "Kartengalerie" in page
    assert 'role="search"' not in page  # no search form without rules:search
    assert client.get("/karten/").status_code == 200


def test_shell_links_all_apps_when_they_exist(
    client: Client, settings: Settings, django_user_model: type[User]
) -> None:
    _install_urlconf(settings, "skatschule_test_urls_full", with_other_apps=True)
    page = client.get("/").content.decode()
    for url, label in [
        ("/r/", "Skatordnung"),
        ("/r/glossar/", "Glossar"),
        ("/u/", "Lektionen"),
        ("/u/me/", "Mein Fortschritt"),
        ("/k/in/?next=/", "Anmelden"),
        ("/k/neu/", "Registrieren"),
    ]:
        assert f'href="{url}"' in page, url
        assert label in page
    assert 'role="search"' in page and 'action="/r/suche/"' in page and 'name="q"' in page
    assert '<label for="site-search">' in page
    assert "Abmelden" not in page

    client.force_login(django_user_model.objects.create_user("bernd", password="pw-skat-2024"))
    page = client.get("/").content.decode()
    assert 'action="/k/out/" method="post"' in page and "Abmelden" in page and "bernd" in page
    assert "Anmelden" not in page
    assert 'aria-current="page"' not in page  # home is not in the nav
    assert 'href="/r/" aria-current="page"' not in client.get("/karten/").content.decode()
    assert 'href="/karten/" aria-current="page"' in client.get("/karten/").content.decode()


def test_german_first_even_for_an_english_browser(client: Client) -> None:
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9")
    assert response.status_code == 200
    assert response["Content-Language"] == "de"
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert client.get("/", HTTP_ACCEPT_LANGUAGE="de")["Content-Language"] == "en"

"""The per-process caches behind the chapter page: the rendered body and the site header.

The body (rules.views.chapter_body) is shared by every visitor with the same language, deck
and highlight and is emptied when the content is reloaded; the header (home site_chrome) is
shared too, but the CSRF token, the paths, the search query and the user name are filled
in per request.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from skatschule.core.templatetags import site_chrome
from skatschule.rules import views
from skatschule.rules.content import Registry

pytestmark = pytest.mark.django_db

TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
HX_TOKEN = re.compile(r'hx-headers=\'\{"X-CSRFToken": "([^"]+)"\}\'')


def test_body_is_rendered_once_and_reload_renders_new_content(
    client: Client, make_content: Callable[..., Registry]
) -> None:
    make_content()
    first = client.get("/regeln/kapitel/1/").content.decode()
    assert "Drei Gattungen" in first
    assert len(views._bodies) == 1
    cached = next(iter(views._bodies.values()))
    client.get("/regeln/kapitel/1/")
    assert next(iter(views._bodies.values())) is cached  # served from the cache, not re-rendered

    make_content({"regeln/1-grundlagen.md": ("Drei Gattungen", "Vier Gattungen")})  # edits and reloads
    assert views._bodies == {}
    page = client.get("/regeln/kapitel/1/").content.decode()
    assert "Vier Gattungen" in page and "Drei Gattungen" not in page


def test_body_per_language_deck_and_highlight(registry: Registry) -> None:
    german, english = Client(), Client()
    english.post("/i18n/setlang/", {"language": "en", "next": "/"})
    de = german.get("/regeln/kapitel/1/").content.decode()
    en = english.get("/regeln/kapitel/1/").content.decode()
    assert "Drei Gattungen" in de and "Three kinds" not in de
    assert "Three kinds" in en and "Drei Gattungen" not in en
    assert german.get("/regeln/kapitel/1/").content.decode().count("Drei Gattungen") == de.count("Drei Gattungen")

    german.post("/karten/blatt/", {"deck": "german", "next": "/"})
    assert german.get("/regeln/kapitel/1/").content.decode() != de  # other card pictures

    views._bodies.clear()
    for rule_id in ("1.1.1", "1.1.2", "1.2.1"):  # permalinks: all served from the one cached body
        assert '<article class="rule" id="r-1.1.2"' in Client().get(f"/regeln/kapitel/1/?hl={rule_id}").content.decode()
    assert len(views._bodies) == 1


def test_body_cache_is_bounded(registry: Registry, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(views, "BODY_CACHE_SIZE", 2)
    views._bodies.clear()
    client = Client()
    for deck in ("french", "german", "tournament"):
        client.post("/karten/blatt/", {"deck": deck, "next": "/"})
        client.get("/regeln/kapitel/1/")
    assert len(views._bodies) == 2
    assert [key[3] for key in views._bodies] == ["german", "tournament"]


def test_header_is_per_request_for_token_path_and_user(registry: Registry) -> None:
    site_chrome.clear_header_cache()
    anna, ben = Client(), Client()
    first = anna.get("/regeln/kapitel/1/?hl=1.1.1&x=%3Cb%3E").content.decode()
    second = ben.get("/regeln/kapitel/1/").content.decode()
    # each visitor gets their own CSRF token, the same one in every form and in hx-headers
    tokens_a, tokens_b = set(TOKEN.findall(first)), set(TOKEN.findall(second))
    assert len(tokens_a) == 1 and len(tokens_b) == 1 and tokens_a != tokens_b
    assert HX_TOKEN.search(first).group(1) in tokens_a  # type: ignore[union-attr]
    assert "hdrph0" not in first + second  # no placeholder left over
    # the current path, escaped in the forms, urlencoded in the login link
    assert 'name="next" value="/regeln/kapitel/1/?hl=1.1.1&amp;x=%3Cb%3E"' in first
    assert "?next=/regeln/kapitel/1/%3Fhl%3D1.1.1%26x%3D%253Cb%253E" in first
    assert 'name="next" value="/regeln/kapitel/1/"' in second
    # the token works: the deck form posts with it
    response = anna.post("/karten/blatt/", {"deck": "german", "next": "/", "csrfmiddlewaretoken": tokens_a.pop()})
    assert response.status_code == 302

    # a logged-in visitor sees their own (escaped) name and the logout form; anonymous ones do not
    user = get_user_model().objects.create_user("eve<&>", password="x-long-password-1")
    logged_in = Client()
    logged_in.force_login(user)
    mine = logged_in.get("/regeln/kapitel/1/").content.decode()
    assert '<li class="account-name">eve&lt;&amp;&gt;</li>' in mine and "Abmelden" in mine
    other = Client().get("/regeln/kapitel/1/").content.decode()
    assert "eve&lt;" not in other and "Abmelden" not in other and "Anmelden" in other


def test_header_marks_the_active_item_and_keeps_the_search_query(registry: Registry) -> None:
    site_chrome.clear_header_cache()
    client = Client()
    index = client.get("/regeln/").content.decode()
    assert 'href="/regeln/" aria-current="page"' in index
    glossary = client.get("/regeln/glossar/").content.decode()
    assert 'href="/regeln/glossar/" aria-current="page"' in glossary and 'href="/regeln/" aria-current' not in glossary
    chapter = client.get("/regeln/kapitel/1/").content.decode()
    assert 'aria-current="page"' not in chapter.split("</header>")[0]

    found = client.get("/regeln/suche/?q=%3Cs%3E+Schneider").content.decode()
    assert 'value="&lt;s&gt; Schneider"' in found
    again = client.get("/regeln/suche/?q=hdrph0path0q8k2").content.decode()  # a query that looks like a placeholder
    assert 'name="q" maxlength="200"\n               value="hdrph0path0q8k2"' in again
    assert 'id="site-search" type="search" name="q" maxlength="200"\n               value=""' in chapter


def test_header_follows_language_and_deck(registry: Registry) -> None:
    site_chrome.clear_header_cache()
    client = Client()
    de = client.get("/regeln/kapitel/1/").content.decode().split("</header>")[0]
    assert 'value="de" lang="de" class="btn btn-small btn-toggle"\n                  aria-pressed="true"' in de
    client.post("/karten/blatt/", {"deck": "german", "next": "/"})
    de_german = client.get("/regeln/kapitel/1/").content.decode().split("</header>")[0]
    assert '<option value="german" selected>' in de_german and '<option value="german" selected>' not in de
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    en = client.get("/regeln/kapitel/1/").content.decode().split("</header>")[0]
    assert 'value="en" lang="en" class="btn btn-small btn-toggle"\n                  aria-pressed="true"' in en
    assert '<option value="german" selected>' in en and '<option value="german" selected>' not in de
    assert ">Skat rules</a>" in en and ">Skatordnung</a>" in de

"""The pages: table of contents, chapters, permalinks, aliases, glossary, search, languages."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from skatschule.rules.content import Registry

pytestmark = pytest.mark.django_db


def test_index_lists_chapters_sections_rules(client: Client, registry: Registry) -> None:
    page = client.get("/regeln/").content.decode()
    assert "Grundlagen (Testkapitel)" in page and "Drei Gattungen" in page
    assert 'href="/regeln/kapitel/1/#s-1.2"' in page and 'href="/regeln/3.2.3"' in page


def test_chapter_page(client: Client, registry: Registry) -> None:
    response = client.get("/regeln/kapitel/1/")
    assert response.status_code == 200
    page = response.content.decode()
    assert '<article class="rule" id="r-1.1.1"' in page
    assert "früher: SkO 1.1" in page
    assert '<aside class="annotation schiedsrichter"' in page and "Schiedsrichter-Hinweis" in page
    assert 'href="/regeln/3.2.3"' in page  # "see" link
    assert 'class="permalink" href="/regeln/1.1.1"' in page
    assert 'href="/regeln/kapitel/3/"' in page  # next chapter
    assert "Nicht Teil der ISkO" not in page
    assert page.count("<svg") >= 2


def test_pub_chapter_has_banner(client: Client, registry: Registry) -> None:
    page = client.get("/regeln/kapitel/K/").content.decode()
    assert "Nicht Teil der ISkO" in page
    assert client.get("/regeln/kapitel/k/")["Location"] == "/regeln/kapitel/K/"


def test_permalink_redirects_and_highlights(client: Client, registry: Registry) -> None:
    for url in ("/regeln/3.2.4", "/regeln/3.2.4/"):
        response = client.get(url)
        assert response.status_code == 302
        assert response["Location"] == "/regeln/kapitel/3/#r-3.2.4"  # the fragment highlights (:target)
    page = client.get("/regeln/kapitel/3/").content.decode()
    assert '<article class="rule" id="r-3.2.4"' in page and '<article class="rule" id="r-3.2.3"' in page
    # an old link with ?hl= gets the same page as everyone (the one cached chapter body)
    assert client.get("/regeln/kapitel/3/?hl=3.2.4").content.decode().count('class="rule highlight"') == 0


def test_aliases_resolve(client: Client, registry: Registry) -> None:
    for url in (
        "/regeln/SkO-4.2.9/",
        "/regeln/SkO-4.2.9",
        "/regeln/alias/SkO%204.2.9",
        "/regeln/alias/SkO%204.%202.%209",
    ):
        response = client.get(url)
        assert response.status_code == 302, url
        assert response["Location"] == "/regeln/kapitel/3/#r-3.2.3"
    assert client.get("/regeln/1.2")["Location"] == "/regeln/kapitel/1/#s-1.2"  # a section


def test_unknown_rule_is_a_helpful_404(client: Client, registry: Registry) -> None:
    for url in ("/regeln/9.9.9", "/regeln/alias/SkO%209.9", "/regeln/kapitel/7/", "/regeln/9.9.9/einzeln/"):
        response = client.get(url)
        assert response.status_code == 404, url
    page = client.get("/regeln/9.9.9").content.decode()
    assert "9.9.9" in page and 'href="/regeln/suche/?q=9.9.9"' in page


def test_rule_detail_page(client: Client, registry: Registry) -> None:
    page = client.get("/regeln/1.1.2/einzeln/").content.decode()
    assert 'id="r-1.1.2"' in page and 'id="r-1.1.1"' not in page
    assert 'href="/regeln/1.1.1/einzeln/"' in page and 'href="/regeln/1.2.1/einzeln/"' in page
    assert client.get("/regeln/SkO-4.2.9/einzeln/").status_code == 404  # aliases: use the permalink


def test_english_after_set_language(client: Client, registry: Registry) -> None:
    client.post("/i18n/setlang/", {"language": "en", "next": "/regeln/"})
    page = client.get("/regeln/kapitel/1/").content.decode()
    assert "There are suit games" in page and "Es gibt Farbspiele" not in page
    assert "Referee note" in page and "with 2, game 3, hand 4 × clubs 12 = 48" in page
    assert "See also" in page and "Siehe auch" not in page  # interface strings from the .po file
    assert 'aria-label="jack of clubs"' in page
    assert "Three kinds" in client.get("/regeln/").content.decode()


def test_deck_changes_the_card_pictures(client: Client, registry: Registry) -> None:
    french = client.get("/regeln/kapitel/1/").content.decode()
    client.cookies["skatschule_deck"] = "german"
    german = client.get("/regeln/kapitel/1/").content.decode()
    assert "card-french" in french and "card-german" in german and "card-french" not in german


def test_glossary_page(client: Client, registry: Registry) -> None:
    page = client.get("/regeln/glossar/").content.decode()
    assert 'id="g-vorhand"' in page and "forehand" in page and 'href="/regeln/1.1.1"' in page
    order = [m.group(1) for m in re.finditer(r'<dt id="g-([a-z-]+)"', page)]
    assert order == ["schneider", "ueberreizt", "vorhand"]


def test_search_page(client: Client, registry: Registry) -> None:
    hint = client.get("/regeln/suche/")
    assert hint.status_code == 200 and "search-hint" in hint.content.decode()
    page = client.get("/regeln/suche/", {"q": "uberreizt"}).content.decode()
    assert 'href="/regeln/1.2.1"' in page and "<mark>" in page
    nothing = client.get("/regeln/suche/", {"q": "Revolution"}).content.decode()
    assert "Keine Treffer" in nothing


def test_search_too_long_is_400(client: Client, registry: Registry) -> None:
    response = client.get("/regeln/suche/", {"q": "x" * 201})
    assert response.status_code == 400
    assert "zu lang" in response.content.decode()
    assert client.get("/regeln/suche/", {"q": "x" * 200}).status_code == 200


def test_search_htmx_returns_the_partial(client: Client, registry: Registry) -> None:
    page = client.get("/regeln/suche/", {"q": "Schneider"}, HTTP_HX_REQUEST="true").content.decode()
    assert "<html" not in page and "search-results" in page


def test_practice_links_from_training(client: Client, registry: Registry, monkeypatch: pytest.MonkeyPatch) -> None:
    from types import SimpleNamespace

    from skatschule.rules import practice

    monkeypatch.setattr(
        practice,
        "_practice",
        [
            lambda rule_id: (
                [SimpleNamespace(title=f"Übung zu {rule_id}", url=f"/ueben/x/{rule_id}/")] if rule_id == "1.1.2" else []
            )
        ],
    )
    page = client.get("/regeln/kapitel/1/").content.decode()
    assert page.count('class="practice"') == 1
    assert '<a href="/ueben/x/1.1.2/">Übung zu 1.1.2</a>' in page

"""Case pages name cards, suits and games as the chosen deck does (titles, texts, choices),
while the quoted rules keep the ISkO's names; with the French deck nothing changes."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from django.urls import reverse

from skatschule.casebook import cases as casebook

pytestmark = pytest.mark.django_db

FRENCH = {
    "de": re.compile(r"(?<![\wäöüÄÖÜß])(Kreuz|Pik|Herz|Karo|Buben?|Damen?|Asse?)(?![a-zäöüß])"),
    "en": re.compile(r"\b(clubs|spades|diamonds|jacks?|queens?|aces?)\b", re.I),
}
GERMAN = {
    "de": re.compile(r"\b(Eichel|Grün|Rot|Schellen|Unter|Ober|Daus)"),
    "en": re.compile(r"\b(acorns|leaves|bells|Unter|Ober|Daus)", re.I),
}
_DROP = re.compile(
    r'<span[^>]*class="term-def".*?</span>|<a class="rule-ref".*?</a>|<span class="deck-caption">.*?</span>', re.S
)


def _case_words(page: str) -> str:
    """The case's own words: title, situation, question, choices (no rule links, no tooltips)."""
    main = page[
        page.index("<h1") : page.index('<details class="case-ruling"')
        if '<details class="case-ruling"' in page
        else len(page)
    ]
    return html.unescape(re.sub(r"<[^>]+>", " ", _DROP.sub(" ", main)))


@pytest.mark.parametrize("lang", ["de", "en"])
def test_case_pages_use_the_german_decks_names(lang: str) -> None:
    client = Client()
    client.cookies["skatschule_deck"] = "german"
    client.cookies["django_language"] = lang
    named = 0
    for case in casebook.load_cases():
        page = client.get(reverse("casebook:case", args=[case.id])).content.decode()
        words = _case_words(page)
        assert "⟦" not in words, case.id
        assert not FRENCH[lang].search(words), (case.id, FRENCH[lang].findall(words), words[:400])
        named += bool(GERMAN[lang].search(words))
    assert named >= 20, "most cases name a card or a suit"


def test_french_deck_case_page_reads_as_before() -> None:
    page = Client().get(reverse("casebook:case", args=["F-24"])).content.decode()
    words = _case_words(page)
    assert "Herz Hand" in words and "Kreuz-Bube" in words

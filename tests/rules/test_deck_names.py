"""The rules keep the ISkO's names; with the German deck every pictured card is captioned
with the deck's name and the chapter top says once how the names map. Hands in the rules
(``[[cards: hand ...]]``) are sorted as players sort them; other card rows keep their order."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from skatschule.engine import GameType, parse_cards
from skatschule.engine.names import names_for
from skatschule.engine.sorting import sort_hand
from skatschule.rules.directives import render_directive

pytestmark = pytest.mark.django_db


def _client(deck: str, lang: str = "de") -> Client:
    client = Client()
    client.cookies["skatschule_deck"] = deck
    client.cookies["django_language"] = lang
    return client


@pytest.mark.parametrize("lang", ["de", "en"])
def test_german_deck_captions_every_pictured_card_and_notes_the_names_once(lang: str) -> None:
    page = _client("german", lang).get(reverse("rules:chapter", args=["1"])).content.decode()
    assert page.count('class="deck-note"') == 1
    note = page[page.index('class="deck-note"') :]
    note = note[: note.index("</p>")]
    assert (
        ("Kreuz = Eichel" in note and "Bube = Unter" in note)
        if lang == "de"
        else ("clubs = acorns" in note and "jack = Unter" in note)
    )
    names = names_for("german")
    for row in re.findall(
        r'<span class="directive-cards"><span class="cards">(.*?)</span><span class="deck-caption">\((.*?)\)</span>',
        page,
        re.S,
    ):
        codes = re.findall(r'data-card="(\w\w)"', row[0])
        assert row[1] == ", ".join(names.card(c, lang) for c in parse_cards(" ".join(codes)))
    pictured = page.count('<span class="directive-cards">')
    assert pictured == page.count('class="deck-caption"'), "every pictured row has its caption"
    assert pictured >= 10
    if lang == "de":
        assert "Karo-Bube" in page  # the rule's own words stay the ISkO's


@pytest.mark.parametrize("deck", ["french", "tournament"])
def test_french_names_need_no_note_or_caption(deck: str) -> None:
    page = _client(deck).get(reverse("rules:chapter", args=["1"])).content.decode()
    assert "deck-note" not in page and "deck-caption" not in page


def test_hands_in_the_rules_are_sorted_and_other_rows_keep_their_order() -> None:
    html = str(render_directive("[[cards: hand clubs S8 CJ HA SJ CA]]", lang="de", deck="french"))
    shown = re.findall(r'data-card="(\w\w)"', html)
    assert shown == [c.code for c in sort_hand(parse_cards("S8 CJ HA SJ CA"), GameType.CLUBS)]
    assert shown[:3] == ["CJ", "SJ", "CA"]
    trick = str(render_directive("[[cards: H7 SA CA]]", lang="de", deck="french"))
    assert re.findall(r'data-card="(\w\w)"', trick) == ["H7", "SA", "CA"]  # a trick keeps its play order
    page = _client("french").get(reverse("rules:chapter", args=["4"])).content.decode()
    # 4.3.2's example hand is written with S8 last; the page shows it sorted for Kreuz
    hand = parse_cards("CJ SJ CA CT C9 SA SK HA H7 D8 D7 S8")
    rows = [
        re.findall(r'data-card="(\w\w)"', r)
        for r in re.findall(r'<span class="directive-cards">(.*?)</span>', page, re.S)
    ]
    matching = [r for r in rows if sorted(r) == sorted(c.code for c in hand)]
    assert matching and all(r == [c.code for c in sort_hand(hand, GameType.CLUBS)] for r in matching)

"""The ouvert check says "beweisbar sicher" where it proves safety (a Grand from Vorhand with the
top jacks and the top cards of every suit) and numbers carry the language's thousands separator."""

from __future__ import annotations

import pytest
from django.test import Client

from skatschule.engine import CardSet, GameType, parse_cards
from skatschule.engine.ouvert import check_ouvert, sure_from_the_top
from skatschule.table import services

URL = "/ueben/spiel/ouvert/"
FOUR_JACKS = "CJ SJ HJ DJ CA CT SA ST HA DA".split()


def _sure(codes: str, *, skat: str = "") -> bool:
    return sure_from_the_top(
        GameType.GRAND, CardSet(parse_cards(codes.split())), skat=CardSet(parse_cards(skat.split()))
    )


def test_a_top_down_grand_is_proven_and_the_solver_agrees() -> None:
    assert _sure(" ".join(FOUR_JACKS))
    assert _sure("CJ SJ CA CT CK CQ C9 SA HA DA")  # two top jacks draw the other two
    assert not _sure("CJ HJ CA CT CK CQ C9 SA HA DA")  # the Pik-Bube beats the Herz-Bube
    assert not _sure("CJ CA CT CK CQ C9 C8 SA HA DA")  # one jack cannot draw three
    assert not _sure("CJ SJ HJ DJ CA CK SA ST HA DA")  # the Kreuz-Zehn takes the Kreuz-König
    assert _sure("CJ SJ HJ DJ CA CK SA ST HA DA", skat="CT D7")  # unless it lies in the known skat
    assert not sure_from_the_top(GameType.GRAND, CardSet(parse_cards(FOUR_JACKS)), declarer=1)
    assert not sure_from_the_top(GameType.NULL, CardSet(parse_cards("C7 C8 C9 S7 S8 S9 H7 H8 H9 D7".split())))
    # what the rule proves, the solver finds on every distribution it tries
    for codes in (FOUR_JACKS, "CJ SJ CA CT CK CQ C9 SA HA DA".split()):
        found = check_ouvert(GameType.GRAND, parse_cards(codes), samples=30)
        assert found.top_down and found.proven and found.wins == found.tried == 30


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("lang", "proof", "possible"),
    [("de", "Beweisbar sicher, gegen jede Verteilung", "42.678.636"), ("en", "Safe by proof", "42,678,636")],
)
def test_the_page_says_proven_and_groups_thousands(
    client: Client, monkeypatch: pytest.MonkeyPatch, lang: str, proof: str, possible: str
) -> None:
    monkeypatch.setattr(services, "OUVERT_SAMPLES", 4)
    client.cookies["django_language"] = lang
    page = client.get(URL, {"game": "grand", "cards": FOUR_JACKS}).content.decode()
    assert proof in page
    assert possible in page  # C(22, 2) x C(20, 10) distributions
    assert "nicht beweisbar sicher" not in page and "not provably safe" not in page
    # a hand the rule cannot prove keeps the honest "probably"
    risky = "CJ HJ CA CT CK CQ C9 SA HA DA".split()
    other = client.get(URL, {"game": "grand", "cards": risky}).content.decode()
    assert proof not in other

"""A card's name that opens a sentence starts with a capital, in every deck (issue 34 §7).

English names are lower case inside a sentence ("the king of hearts"); generated texts that
begin with a reference once read "king of bells: …" and "spades was better: …"."""

from __future__ import annotations

import pytest

from skatschule.engine.names import render


@pytest.mark.parametrize("deck", ["french", "german", "tournament"])
def test_a_name_opening_a_sentence_is_capitalised(deck: str) -> None:
    text = render("⟦card:HK⟧: yes. ⟦game:spades⟧ was better, not ⟦card:SA⟧!\n⟦rank:Q⟧ and ⟦card:D7⟧", "en", deck)
    sentences = [part.strip() for part in text.replace("!", ".").replace("\n", ".").split(".") if part.strip()]
    assert [s[0].isupper() for s in sentences] == [True, True, True]
    assert text.split("not ")[1][0].islower()  # inside a sentence a name stays lower case
    assert text.split(" and ")[1].startswith("seven")


def test_german_names_are_unchanged() -> None:
    assert render("⟦card:HK⟧ und ⟦rank:A⟧", "de", "french") == "Herz-König und Ass"

"""A card's name that opens a sentence starts with a capital, in every deck (issue 34 §7).

English names are lower case inside a sentence ("the king of hearts"); generated texts that
begin with a reference once read "king of bells: …" and "spades was better: …"."""

from __future__ import annotations

import pytest

from skatschule.engine.names import render


@pytest.mark.parametrize("deck", ["french", "german", "tournament"])
@pytest.mark.parametrize("ref", ["⟦card:HK⟧", "⟦game:spades⟧", "⟦rank:Q⟧", "⟦suit:D⟧"])
def test_a_name_opening_a_sentence_is_capitalised(deck: str, ref: str) -> None:
    inside = render(f"the {ref}", "en", deck).removeprefix("the ")
    opening = inside[:1].upper() + inside[1:]
    for text in (f"{ref}: yes", f"No. {ref} was better", f"Why?  {ref}!", f"one\n{ref}"):
        assert opening in render(text, "en", deck), text
    assert render(f"not {ref}, and {ref}.", "en", deck) == f"not {inside}, and {inside}."
    assert render(ref, "en", deck) == inside  # a name alone is a fragment for another sentence


def test_german_names_are_unchanged() -> None:
    assert render("⟦card:HK⟧ und ⟦rank:A⟧", "de", "french") == "Herz-König und Ass"

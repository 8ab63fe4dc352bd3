"""Cards marked after an answer (render.marked_cards_html): a symbol and words per mark, in every deck."""

from __future__ import annotations

import pytest

from skatschule.cards.render import DECKS, MARKS, marked_cards_html
from skatschule.engine import InvalidCard


@pytest.mark.parametrize("deck", sorted(DECKS))
def test_every_deck_marks_with_symbols_and_words(deck: str) -> None:
    html = marked_cards_html([("CJ", "right"), ("HA", "wrong"), ("S7", "missed"), ("DT", "")], deck)
    assert html.count(f"card-{deck}") == 4
    for mark, (symbol, words) in MARKS.items():
        assert f'card-mark-{mark}"' in html
        assert f'aria-hidden="true">{symbol}</span>' in html
        assert f"({words})" in html
    assert html.count("card-mark-symbol") == 3  # the unmarked card has no badge


def test_unknown_marks_and_cards_are_refused() -> None:
    with pytest.raises(KeyError):
        marked_cards_html([("CJ", "maybe")])
    with pytest.raises(InvalidCard):
        marked_cards_html([("XX", "right")])

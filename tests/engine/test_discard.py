"""Drücken: discards graded by the expected list score over sampled deals (engine/discard.py).

Full ten-card deals are slow for today's solver, so these tests grade a few discards of a Null
hand over two deals; the grades come from the solver, the test only compares them.
"""

from __future__ import annotations

from skatschule.engine.cards import CardSet, parse_cards
from skatschule.engine.discard import deals_for, grade, rank_of
from skatschule.engine.games import Contract, GameType
from skatschule.engine.scoring import game_value

TWELVE = parse_cards("C7 C8 C9 S7 S8 S9 H7 H8 H9 D7 DA SA")


def test_sampled_deals_split_the_other_twenty_cards() -> None:
    deals = deals_for(TWELVE, 30, seed=1)
    mine = CardSet(TWELVE).mask
    assert len(deals) == 30 and len(set(deals)) == 30
    for a, b in deals:
        assert a.bit_count() == b.bit_count() == 10
        assert not a & b and not (a | b) & mine and (a | b | mine) == 0xFFFFFFFF
    assert deals == deals_for(TWELVE, 30, seed=1)


def test_putting_the_dangerous_aces_away_grades_best() -> None:
    pairs = [tuple(parse_cards(p)) for p in ("DA SA", "C7 C8", "DA C7")]
    grades = grade(TWELVE, GameType.NULL, deals=2, discards=pairs)  # type: ignore[arg-type]
    value = game_value(Contract(GameType.NULL)).value
    by_cards = {frozenset(g.cards): g for g in grades}
    safe = by_cards[frozenset(parse_cards("DA SA"))]
    assert grades[0] is safe and safe.won == 2 and safe.total == 2 * value
    for g in grades:
        # every deal scores +value or -2 * value
        assert g.total == g.won * value - (g.deals - g.won) * 2 * value
    assert rank_of(grades, tuple(parse_cards("DA SA"))) == 1  # type: ignore[arg-type]
    assert rank_of(grades, tuple(parse_cards("C8 C7"))) > 1  # type: ignore[arg-type]
    assert safe.augen_away == 22

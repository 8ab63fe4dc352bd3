"""How high may I bid, graded by play (engine/bidplay.py).

The deals, the scores at each bid against the engine's own scoring of every deal, and what the
graded bid must satisfy whatever the play. Few deals each: the playout is the Drücken trainer's.
"""

from __future__ import annotations

import random

import pytest

from skatschule.engine.bidding import BID_VALUES
from skatschule.engine.bidplay import (
    CANDIDATES,
    LADDER,
    BidGrading,
    deals_for,
    grade_bid,
    step_of,
    steps_apart,
)
from skatschule.engine.bots.declaring import choose_discard
from skatschule.engine.cards import CARDS, Card, CardSet, parse_cards
from skatschule.engine.discard import game_tables
from skatschule.engine.games import Contract, GameType
from skatschule.engine.playout import play
from skatschule.engine.scoring import game_value, matadors_in_mask, score_game

TEN = parse_cards("CJ HJ HA HK H9 H7 SA ST C8 D7")


def test_sampled_deals_split_the_other_22_cards_into_skat_and_two_hands() -> None:
    deals = deals_for(TEN, 1, 25, seed=3)
    mine = CardSet(TEN).mask
    assert len(set(deals)) == 25
    for skat, a, b in deals:
        assert skat.bit_count() == 2 and a.bit_count() == b.bit_count() == 10
        assert not (skat & a or skat & b or a & b) and not (skat | a | b) & mine
        assert skat | a | b | mine == 0xFFFFFFFF
    assert deals == deals_for(TEN, 1, 25, seed=3)
    assert deals != deals_for(TEN, 2, 25, seed=3)  # the seat is part of the seed


def _scores_by_engine(position: int, contract: Contract, bid: int, deals: int) -> int:
    """Each deal replayed and scored by scoring.score_game (with the bid: overbid counts)."""
    total = 0
    mine = CardSet(TEN).mask
    game = contract.game
    for skat, a, b in deals_for(TEN, position, deals, seed=0):
        twelve = mine | skat
        x, y = choose_discard([c for c in CARDS if twelve & c.bit], game)
        hands = [0, 0, 0]
        hands[position] = twelve & ~(x.bit | y.bit)
        hands[(position + 1) % 3] = a
        hands[(position + 2) % 3] = b
        result = play(hands[0], hands[1], hands[2], position, 0, game_tables(game))
        if game.is_null:
            outcome = score_game(contract, 0, bid=bid, declarer_points=0, declarer_tricks=result)
        else:
            outcome = score_game(
                contract,
                matadors_in_mask(game, twelve),
                bid=bid,
                declarer_points=(result >> 4) + x.points + y.points,
                declarer_tricks=result & 15,
            )
        total += outcome.score
    return total


@pytest.mark.parametrize("position", [0, 2])
@pytest.mark.parametrize("game", [GameType.HEARTS, GameType.GRAND, GameType.DIAMONDS])
def test_the_score_at_every_bid_is_the_engines_list_entry(position: int, game: GameType) -> None:
    grading = grade_bid(TEN, position, deals=12)
    outcomes = grading.game(Contract(game))
    assert sum(n for _, _, n in outcomes.outcomes) == 12
    for bid in (18, 20, 24, 30, 36, 48, 72):
        assert outcomes.total(bid) == _scores_by_engine(position, Contract(game), bid, 12), bid


def test_null_is_no_candidate_above_its_value() -> None:
    grading = grade_bid(TEN, 0, deals=6)
    null = grading.game(Contract(GameType.NULL))
    null_hand = grading.game(Contract(GameType.NULL, hand=True))
    assert null.expected(23) is not None and null.expected(24) is None
    assert null_hand.expected(35) is not None and null_hand.expected(36) is None
    assert null.limit <= 23 and null_hand.limit <= 35


def _hands(count: int) -> list[tuple[list[Card], int]]:
    rng = random.Random("bidplay-test")
    out: list[tuple[list[Card], int]] = []
    while len(out) < count:
        ten = rng.sample(CARDS, 10)
        if sum(1 for c in ten if c.is_jack) >= 2:  # hands worth playing, more often
            out.append((ten, rng.randrange(3)))
    return out


@pytest.mark.parametrize("ten,position", _hands(5))
def test_the_graded_bid_is_the_last_with_a_positive_expectation(ten: list[Card], position: int) -> None:
    grading = grade_bid(ten, position, deals=16)
    for g in grading.games:
        values = [g.expected(bid) for bid in BID_VALUES]
        known = [v for v in values if v is not None]
        assert known == sorted(known, reverse=True)  # bidding higher never gains
        if g.limit:
            assert g.expected(g.limit) > 0  # type: ignore[operator]
        above = [v for bid, v in zip(BID_VALUES, values) if bid > g.limit and v is not None]
        assert all(v <= 0 for v in above)
    assert grading.limit == max(g.limit for g in grading.games)
    assert grading.best.limit == grading.limit
    assert BidGrading.from_json(grading.as_json()) == grading


def test_four_jacks_and_six_standing_cards_bid_at_least_grand_with_four() -> None:
    ten = parse_cards("CJ SJ HJ DJ CA CT SA ST HA HT")
    grading = grade_bid(ten, 1, deals=20)
    plain = game_value(Contract(GameType.GRAND), 4).value
    assert grading.limit >= plain
    assert grading.best.contract.game is GameType.GRAND
    assert grading.best.win_chance(plain) > 0.9


def test_the_bid_ladder() -> None:
    assert LADDER[0] == 0 and LADDER[1:] == BID_VALUES
    assert step_of(0) == 0 and step_of(18) == 1 and steps_apart(0, 20) == 2 and steps_apart(23, 22) == 1
    with pytest.raises(ValueError):
        step_of(19)
    assert len(CANDIDATES) == 7

"""Aus meinen Fehlern beyond card play (engine/own_mistakes.py): the learner's bidding and
discarding read from a finished game and judged against the trainers' own gradings.

Few deals per grading (the judgement takes the grading as it is); the thresholds are the
module's constants, and every expected verdict is derived from the grading, never written down.
"""

from __future__ import annotations

import random

import pytest

from skatschule.engine.bidding import BID_VALUES, Bid, Hold, Pass
from skatschule.engine.bidplay import LADDER, BidGrading, grade_bid, step_of
from skatschule.engine.cards import CARDS
from skatschule.engine.discard import HandGrading, grade_hand
from skatschule.engine.game import Declare, Discard, GameState, PickUp
from skatschule.engine.games import Contract, GameType
from skatschule.engine.own_mistakes import (
    DISCARD_MARGIN,
    DISCARD_TOP,
    OVER_STEPS,
    UNDER_STEPS,
    Bidding,
    bid_spot,
    bidding_of,
    discard_spot,
    judge_bid,
    judge_discard,
)
from skatschule.engine.seats import Seat

DEALS = 30


def _graded_hand(at_least: int) -> BidGrading:
    """A seeded random hand whose graded limit lies at least ``at_least`` steps up the ladder."""
    rng = random.Random("own-mistakes")
    while True:
        grading = grade_bid(rng.sample(CARDS, 10), rng.randrange(3), deals=DEALS)
        if step_of(grading.limit) >= at_least:
            return grading


@pytest.fixture(scope="module")
def playing() -> BidGrading:
    return _graded_hand(UNDER_STEPS + 1)


def test_the_thresholds_are_the_documented_ones() -> None:
    assert (OVER_STEPS, UNDER_STEPS, DISCARD_TOP) == (1, 2, 3) and DISCARD_MARGIN == 5.0


def test_bidding_at_the_limit_or_holding_it_is_no_mistake(playing: BidGrading) -> None:
    assert judge_bid(Bidding(playing.limit, 0), playing) is None
    below = LADDER[step_of(playing.limit) - 1]
    assert judge_bid(Bidding(below, 0), playing) is None  # outbid or won low: nothing to judge


def test_bidding_above_the_limit_is_a_mistake(playing: BidGrading) -> None:
    above = LADDER[step_of(playing.limit) + OVER_STEPS]
    found = judge_bid(Bidding(above, 0), playing)
    assert found is not None and found.over and found.answer == above and found.limit == playing.limit
    # passing after having held too much is still the overbid
    later = LADDER[step_of(above) + 1]
    found = judge_bid(Bidding(above, later), playing)
    assert found is not None and found.over


def test_passing_one_step_low_is_no_mistake_two_steps_are(playing: BidGrading) -> None:
    # refusing the limit itself: the answer is the step below, which the trainer counts right
    assert Bidding(0, playing.limit).answer == LADDER[step_of(playing.limit) - 1]
    assert judge_bid(Bidding(0, playing.limit), playing) is None
    refused = LADDER[step_of(playing.limit) - 1]
    found = judge_bid(Bidding(0, refused), playing)
    assert found is not None and not found.over
    assert step_of(found.limit) - step_of(found.answer) == UNDER_STEPS


def test_a_hand_graded_pass_is_never_passed_too_low() -> None:
    rng = random.Random("own-mistakes-pass")
    grading = next(g for g in (grade_bid(rng.sample(CARDS, 10), 0, deals=DEALS) for _ in range(40)) if g.limit == 0)
    assert judge_bid(Bidding(0, BID_VALUES[0]), grading) is None
    found = judge_bid(Bidding(BID_VALUES[0], 0), grading)
    assert found is not None and found.over


def test_the_bidding_is_read_from_the_auction() -> None:
    state = GameState(seed=5)
    for move in (
        Bid(Seat.MIDDLEHAND, 18),
        Hold(Seat.FOREHAND),
        Bid(Seat.MIDDLEHAND, 20),
        Pass(Seat.FOREHAND),
        Pass(Seat.REARHAND),
    ):
        state.push(move)
    assert bidding_of(state, 0) == Bidding(18, 20)  # held 18, would not hold 20
    assert bidding_of(state, 1) == Bidding(20, 0)  # the declarer never passed
    assert bidding_of(state, 2) == Bidding(0, 22)  # would not say the next bid after 20
    assert Bidding(0, 22).answer == 20 and Bidding(18, 20).answer == 18
    spot = bid_spot(state, 0)
    assert spot is not None and spot.position == 0 and set(spot.cards) == set(state.deal.hand(0))
    assert spot.bidding == Bidding(18, 20)


def test_the_discard_is_read_from_the_game_and_judged_in_the_declared_game() -> None:
    state = GameState(seed=11)
    state.push(Bid(Seat.MIDDLEHAND, 18))
    state.push(Pass(Seat.FOREHAND))
    state.push(Pass(Seat.REARHAND))
    state.push(PickUp())
    twelve = sorted(state.hand(1))
    grading = grade_hand(twelve, GameType.GRAND, deals=DEALS, screen=10)
    worst = grading.chosen.grades[-1]
    state.push(Discard(worst.cards))
    state.push(Declare(Contract(GameType.GRAND)))
    spot = discard_spot(state, 1)
    assert spot is not None and spot.game is GameType.GRAND and spot.pair == worst.cards
    assert sorted(spot.cards) == twelve
    assert discard_spot(state, 0) is None  # not the declarer
    assert bid_spot(state, 2) is not None
    _judged(grading)


def _judged(grading: HandGrading) -> None:
    chosen = grading.chosen
    assert judge_discard(chosen.best.cards, grading) is None
    for grade in chosen.grades[1:DISCARD_TOP]:
        assert judge_discard(grade.cards, grading) is None  # among the best few
    worst = chosen.grades[-1]
    assert chosen.best.expected - worst.expected >= DISCARD_MARGIN  # putting a jack away costs
    found = judge_discard(worst.cards, grading)
    assert found is not None and found.rank == chosen.rank(worst.cards) and found.best == chosen.best.expected
    close = [g for g in chosen.grades[DISCARD_TOP:] if chosen.best.expected - g.expected < DISCARD_MARGIN]
    for grade in close:
        assert judge_discard(grade.cards, grading) is None  # too close to the best to call a mistake


def test_a_hand_game_or_an_unpicked_skat_has_no_discard() -> None:
    state = GameState(seed=11)
    state.push(Bid(Seat.MIDDLEHAND, 18))
    state.push(Pass(Seat.FOREHAND))
    state.push(Pass(Seat.REARHAND))
    state.push(Declare(Contract(GameType.GRAND, hand=True)))
    assert discard_spot(state, 1) is None

"""Which end results can happen (engine/feasible.py), checked against a count over the deck's card values."""

from __future__ import annotations

import itertools
import random
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skatschule.engine import Contract
from skatschule.engine.feasible import declarer_points_possible, game_possible, spitze_possible
from skatschule.engine.games import GameType

from .test_game_properties import contracts, random_game

# the deck by card value: twelve blanks (7, 8, 9), four each of jack 2, queen 3, king 4, ten 10, ace 11
VALUES = {0: 12, 2: 4, 3: 4, 4: 4, 10: 4, 11: 4}


@cache
def totals(cards: int) -> frozenset[int]:
    """Every total ``cards`` cards can hold: tried over how many of each value are taken."""
    kinds = sorted(VALUES)
    found = set()
    for counts in itertools.product(*(range(VALUES[v] + 1) for v in kinds)):
        if sum(counts) == cards:
            found.add(sum(v * c for v, c in zip(kinds, counts, strict=True)))
    return frozenset(found)


@pytest.mark.parametrize("tricks", range(11))
def test_points_against_tricks_match_a_count_over_card_values(tricks: int) -> None:
    for points in range(121):
        assert declarer_points_possible(points, tricks) == (points in totals(3 * tricks + 2)), (points, tricks)


def test_the_issues_impossible_games() -> None:
    # 61 Augen with 9 tricks leaves the defenders 59 in one trick; a trick holds at most 33
    assert not declarer_points_possible(61, 9)
    assert declarer_points_possible(87, 9)  # 33 in the defenders' trick
    assert not declarer_points_possible(86, 9)
    assert not declarer_points_possible(23, 0)  # the skat holds at most 22
    assert declarer_points_possible(22, 0)
    assert not declarer_points_possible(0, 10) and declarer_points_possible(120, 10)
    assert declarer_points_possible(120, 9)  # the defenders' trick can be 7, 8, 9


def test_matadors_bound_the_tricks() -> None:
    # "mit 6" in a suit game: at least four of the top six trumps are in his hand, each takes a trick
    assert not game_possible(GameType.CLUBS, matadors=6, points=61, tricks=3)
    assert game_possible(GameType.CLUBS, matadors=6, points=61, tricks=4)
    # "ohne 4": the four jacks are the defenders', two at most fall in one trick
    assert not game_possible(GameType.GRAND, matadors=-4, points=98, tricks=9)
    assert game_possible(GameType.GRAND, matadors=-4, points=98, tricks=8)  # 4 jacks, ace, queen
    # 0 Augen: any jack or trump ace of his is worth something
    assert not game_possible(GameType.HEARTS, matadors=1, points=0, tricks=0)
    assert game_possible(GameType.GRAND, matadors=-4, points=0, tricks=0)


def test_spitzen_need_their_trumps_and_tricks() -> None:
    assert not spitze_possible(GameType.GRAND, matadors=-4, spitze=1)  # no jack left for him
    assert not spitze_possible(GameType.GRAND, matadors=3, spitze=1)  # "mit 3" lacks the jack of diamonds
    assert spitze_possible(GameType.GRAND, matadors=4, spitze=2)
    assert not spitze_possible(GameType.GRAND, matadors=-3, spitze=2)  # the jack of hearts is theirs
    assert spitze_possible(GameType.CLUBS, matadors=-6, spitze=2)
    args = {"matadors": 2, "points": 15, "spitze": 2}  # two jacks, 7, 8 of clubs and an ace
    assert not game_possible(GameType.CLUBS, tricks=1, spitze_made=True, **args)
    assert game_possible(GameType.CLUBS, tricks=1, spitze_made=False, **args)
    assert game_possible(GameType.CLUBS, tricks=2, spitze_made=True, **args)


def test_the_next_trump_may_end_on_either_side() -> None:
    # "mit 1": the defenders' jack of spades can fall into one of his ten tricks
    assert game_possible(GameType.GRAND, matadors=1, points=120, tricks=10)
    # "ohne 1": his own jack of spades can be lost, so a skat of two aces and nothing else fits
    assert game_possible(GameType.CLUBS, matadors=-1, points=22, tricks=0)
    # Spitzen that are not made may be lost as well
    assert game_possible(GameType.GRAND, matadors=-1, points=0, tricks=0, spitze=1)
    assert not game_possible(GameType.GRAND, matadors=-1, points=0, tricks=0, spitze=1, spitze_made=True)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 10**9), contracts, st.integers(0, 2), st.randoms(use_true_random=False))
def test_every_game_the_engine_plays_out_is_possible(
    seed: int, contract: Contract, declarer: int, rng: random.Random
) -> None:
    state = random_game(seed, contract, declarer, rng)
    if contract.game.is_null or state.trick_count < 10:
        return  # Null has no matadors; an early end leaves cards unplayed
    assert game_possible(
        contract.game,
        matadors=state.matadors(),
        points=state.declarer_augen(),
        tricks=state.declarer_trick_count,
    ), (contract, state.matadors(), state.declarer_augen(), state.declarer_trick_count)

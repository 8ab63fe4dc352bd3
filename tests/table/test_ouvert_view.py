"""In an ouvert game the declarer lays his cards open before the first lead (rule 1.2.5): every
seat's view counts them as seen, and no deal drawn for a defender (the bots, the puzzles' view
of a player, "Hätte ich es wissen können?") moves an open card."""

from __future__ import annotations

import random

import pytest

from skatschule.engine import Contract, GameState, GameType
from skatschule.engine.bots import SeatView, choose_card, sample_deal, unseen_cards
from skatschule.engine.cards import deal_cards
from skatschule.table.analysis import insight_at

OUVERT = [Contract(GameType.GRAND, hand=True, ouvert=True), Contract(GameType.NULL, hand=True, ouvert=True)]


def _games(contract: Contract, count: int) -> list[GameState]:
    """Positions of seeded ouvert games: at the first lead and after (up to) 1, 4 and 11 random cards."""
    found = []
    for k in range(count):
        rng = random.Random(k)
        deal = deal_cards(rng=rng)
        declarer = k % 3
        for cards in (0, 1, 4, 11):
            state = GameState.start(deal, declarer=declarer, bid=18, contract=contract)
            for _ in range(cards):
                if not state.is_over():  # an ouvert game ends with the declarer's first lost trick
                    state.play(rng.choice(sorted(state.legal_cards())))
            if not state.is_over():
                found.append(state)
    return found


@pytest.mark.parametrize("contract", OUVERT, ids=["grand-ouvert", "null-ouvert"])
def test_no_drawn_deal_moves_an_open_card(contract: Contract) -> None:
    draws = 0
    for state in _games(contract, 5):
        declarer = state.declarer
        assert declarer is not None
        open_hand = state.hands[declarer]
        for seat in range(3):
            if seat == declarer:
                continue
            view = SeatView.of(state, seat)
            assert view.open_hand == open_hand
            assert not view.unseen & open_hand  # seen, not unseen
            unseen, counts, skat = unseen_cards(state, seat)
            assert counts[declarer] == 0 and counts[seat] == 0 and skat == 2
            assert unseen.bit_count() == sum(counts) + skat
            rng = random.Random(seat)
            for kwargs in ({}, {"inference": True}, {"inference": True, "reach_bid": True}):
                for _ in range(4):
                    drawn = sample_deal(view, rng, **kwargs)
                    assert drawn is not None
                    hands, skat_mask = drawn
                    draws += 1
                    assert hands[declarer] == open_hand
                    assert hands[seat] == state.hands[seat]
                    # the other defender's hand and the skat are the rest of the unseen cards
                    other = 3 - seat - declarer
                    assert hands[other] | skat_mask == unseen
                    assert hands[other].bit_count() == state.hands[other].bit_count()
    assert draws


def test_the_declarers_own_view_is_unchanged_by_the_open_hand() -> None:
    state = _games(OUVERT[0], 1)[1]
    declarer = state.declarer
    assert declarer is not None
    view = SeatView.of(state, declarer)
    assert view.hidden_counts()[declarer] == 0
    assert sum(view.hidden_counts()) == state.hands[(declarer + 1) % 3].bit_count() + state.hands[
        (declarer + 2) % 3
    ].bit_count()


def test_a_suit_game_keeps_the_declarers_hand_hidden() -> None:
    state = _games(Contract(GameType.CLUBS, hand=True), 1)[1]
    declarer = state.declarer
    assert declarer is not None
    seat = (declarer + 1) % 3
    view = SeatView.of(state, seat)
    assert view.open_hand == 0 and view.unseen & state.hands[declarer] == state.hands[declarer]


def test_a_defender_in_an_ouvert_game_can_know_and_a_bot_defends_on_it() -> None:
    """With every card but the partner's and the skat's known the insight draws deals with the
    open hand in place; a defending bot decides on them (no error, a legal card)."""
    for state in _games(OUVERT[0], 3):
        seat = state.to_move
        assert seat is not None
        if seat == state.declarer:
            continue
        found = insight_at(state, seat, 61, samples=3, max_nodes=20_000, seed=1)
        assert found is not None and found.tried == 3
        choice = choose_card(state, rng=random.Random(0), time_cap=0.05)
        assert choice.card in state.legal_cards()

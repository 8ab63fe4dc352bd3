"""In an ouvert game the declarer lays his cards open before the first lead (rule 1.2.5): every
seat's view counts them as seen, and no deal drawn for a defender (the bots, the puzzles' view
of a player, "Hätte ich es wissen können?") moves an open card."""

from __future__ import annotations

import random

import pytest
from django.test import Client

from skatschule.engine import Contract, Deal, GameState, GameType
from skatschule.engine.bots import SeatView, bid_reachable, choose_card, sample_deal, unseen_cards
from skatschule.engine.cards import deal_cards
from skatschule.engine.iss import write_record
from skatschule.table import services
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
    assert (
        sum(view.hidden_counts())
        == state.hands[(declarer + 1) % 3].bit_count() + state.hands[(declarer + 2) % 3].bit_count()
    )


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


def _overbid_grand() -> GameState:
    """A Grand Hand bid to 120 whose declarer (Vorhand) has led the Kreuz-Bube while Mittelhand
    holds the Pik-Bube: he plays "mit 1", worth at most 4 x 24 = 96 with Schneider, and
    Mittelhand can tell."""
    deal = Deal.from_codes(
        [
            "CJ CA CT CK SA ST HA HT DA DT".split(),
            "SJ C7 C8 S7 S8 H7 H8 D7 D8 D9".split(),
            "HJ DJ C9 CQ S9 SQ SK H9 HQ HK".split(),
            "DQ DK".split(),
        ]
    )
    state = GameState.start(deal, declarer=0, bid=120, contract=Contract(GameType.GRAND, hand=True))
    state.play(next(c for c in state.legal_cards() if c.code == "CJ"))
    return state


def test_an_overbid_game_says_so_and_still_draws_deals() -> None:
    """No deal can reach the bid, so none fits it: the insight says the game was overbid and
    draws its deals without the bid, instead of "none of 0 deals"."""
    state = _overbid_grand()
    view = SeatView.of(state, 1)
    assert not bid_reachable(view)
    assert bid_reachable(SeatView.of(_games(OUVERT[0], 1)[0], 1))  # an ordinary game's bid can be reached
    found = insight_at(state, 1, 61, samples=3, max_nodes=50_000, seed=1)
    assert found is not None and found.overbid
    assert found.tried == 3 and found.samples > 0
    # a game bid within reach draws with the bid, as before
    fair = GameState.start(state.deal, declarer=0, bid=18, contract=Contract(GameType.GRAND, hand=True))
    fair.play(next(c for c in fair.legal_cards() if c.code == "CJ"))
    assert not insight_at(fair, 1, 61, samples=2, max_nodes=50_000, seed=1).overbid  # type: ignore[union-attr]


@pytest.mark.django_db
def test_the_board_of_an_overbid_game_says_it_was_overbid(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(services, "INSIGHT_SAMPLES", 3)
    monkeypatch.setattr(services, "INSIGHT_NODES", 30_000)
    monkeypatch.setattr(services, "ANALYSIS_NODES", 200_000)
    state = _overbid_grand()
    rng = random.Random(3)
    while not state.is_over():
        state.play(rng.choice(sorted(state.legal_cards())))
    record = write_record(state, game_id="1")
    client.post("/ueben/spiel/iss/", {"records": record})
    page = client.get("/ueben/spiel/iss/brett/", {"spiel": 0, "platz": 1, "schritt": 1}).content.decode()
    assert "war das Spiel überreizt" in page and "Gebot von 120" in page
    assert "Keine der 0 gezogenen" not in page
    assert "Gezogen: 3 Verteilungen" in page

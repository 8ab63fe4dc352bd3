""" "Was würde der Computer tun, und warum?" before the first card (issue 37 §3): in the auction
the bid the hand is worth (the bidding trainer's grading), at the discard the two cards (the
Drücken trainer's), at the declaration the game; only from the learner's own cards; and a game
with a hint no longer counts for the lesson. Checked against the gradings asked on their own."""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client

from skatschule.engine import CardSet, GameState, Phase
from skatschule.engine.advice import advise
from skatschule.engine.bidding import Bid, Hold, Pass
from skatschule.engine.bidplay import grade_bid
from skatschule.engine.discard import CANDIDATE_GAMES, grade_hand
from skatschule.engine.names import render
from skatschule.jobs.models import Job
from skatschule.table import services, work
from tests.table.stored import session_game

URL = "/ueben/spiel/"
DEALS = 30


@pytest.fixture(autouse=True)
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(services, "BOT_TIME_CAP", 0.02)
    monkeypatch.setattr(services, "ADVICE_DEALS", DEALS)


def _auction_positions(count: int) -> list[GameState]:
    """Seeded auctions at the learner's turn after random legal bids and passes."""
    found = []
    for seed in range(count):
        rng = random.Random(seed)
        state = GameState(seed=seed)
        for _ in range(rng.randrange(4)):
            if state.phase is not Phase.AUCTION:
                break
            state.push(rng.choice([m for m in state.legal_moves() if not isinstance(m, Bid) or m.value <= 30]))
        if state.phase is Phase.AUCTION:
            found.append(state)
    return found


def test_the_auction_hint_is_the_graded_bid_and_says_what_to_do_now() -> None:
    for state in _auction_positions(12):
        seat = state.to_move
        assert seat is not None
        said = advise(state, seat, deals=DEALS, seed=7).text.de
        graded = grade_bid(tuple(CardSet(state.hands[seat])), seat, deals=DEALS, seed=7)
        moves = state.legal_moves()
        if not graded.limit:
            assert said.startswith("Passen")
            continue
        assert f"bis {graded.limit} wert" in said
        assert graded.best.contract.ref("de") in said
        if any(isinstance(m, Hold) for m in moves):
            assert said.endswith("Also: ja, halten.") == (state.auction.value <= graded.limit)
        else:
            lowest = min(m.value for m in moves if isinstance(m, Bid))
            assert said.endswith(f"Also: {lowest} sagen.") == (lowest <= graded.limit)
        assert any(isinstance(m, Pass) for m in moves)


def _at_discard(seed: int) -> GameState:
    """Vorhand wins the auction at 18 and picks up the skat."""
    state = GameState(seed=seed)
    while state.phase is Phase.AUCTION:
        moves = state.legal_moves()
        if state.to_move == 0:
            state.push(next(m for m in moves if isinstance(m, (Bid, Hold))))
        else:
            state.push(next(m for m in moves if isinstance(m, Pass)))
    state.push(state.legal_moves()[0])  # pick up the skat
    assert state.phase is Phase.DISCARD
    return state


def test_the_discard_hint_names_the_trainers_best_pair_and_game() -> None:
    for seed in range(3):
        state = _at_discard(seed)
        said = render(advise(state, 0, deals=DEALS, seed=seed).text.de, "de", "french")
        twelve = tuple(CardSet(state.hands[0]))
        assert state.bid == 18  # every game reaches it
        best = grade_hand(twelve, CANDIDATE_GAMES[0], deals=DEALS, seed=seed).best.best
        names = [render(f"⟦card:{c.code}⟧", "de", "french") for c in best.cards]
        assert said.startswith(f"Drücken: {names[0]} und {names[1]}, dann ")
        assert f"über {DEALS} Verteilungen" in said


def test_advice_only_for_the_seat_to_move_before_the_first_card() -> None:
    state = GameState(seed=1)
    other = next(s for s in range(3) if s != state.to_move)
    with pytest.raises(ValueError):
        advise(state, other)


def test_the_hint_reads_only_the_learners_cards() -> None:
    """Two deals with the same cards for the learner (the others' hands swapped) get the same hint."""
    state = GameState(seed=3)
    seat = state.to_move
    assert seat is not None
    hands = [CardSet(h) for h in state.hands]
    a, b = [s for s in range(3) if s != seat]
    hands[a], hands[b] = hands[b], hands[a]
    from skatschule.engine import Deal

    swapped = GameState(Deal(tuple(hands[0]), tuple(hands[1]), tuple(hands[2]), tuple(CardSet(state.skat))))
    assert advise(state, seat, deals=DEALS).text == advise(swapped, seat, deals=DEALS).text


@pytest.mark.django_db
def test_a_hint_in_the_auction_at_the_table_and_the_game_no_longer_counts(client: Client) -> None:
    for _ in range(20):
        client.post(URL, {"action": "new", "confirm": "1"})
        table, state = session_game(client)
        if state.phase is Phase.AUCTION and state.to_move == table.seat:
            break
    else:
        raise AssertionError("the learner never spoke in the auction")
    page = client.get(URL).content.decode()
    assert "Was würde der Computer reizen und warum?" in page
    response = client.post(URL, {"action": "hint"})
    assert response.status_code == 200
    job = Job.objects.get(kind=work.HINT)
    assert job.is_done and job.data is not None
    text = response.content.decode()
    assert re.search(r"Das Blatt ist bis \d+ wert|Passen: Kein Spiel", text)
    table, _state = session_game(client)
    assert table.took_back  # the game no longer counts for the lesson

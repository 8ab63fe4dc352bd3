"""Reizen am Tisch: the learner plays one seat of the auction against engine bots."""

import pytest

from skatschule.engine import BID_VALUES, SkatError
from skatschule.engine.names import strip_refs
from skatschule.training.services.auction_play import (
    Table, auction_of, hand_limit, new_table, play_user_move,
)


def test_bots_only_make_legal_moves_and_stop_at_the_learners_turn():
    for seed in range(200):
        table = new_table(seed)
        auction = auction_of(table)  # replays every move through the engine
        assert auction.is_over or auction.to_move == table.seat


def test_a_whole_auction_against_the_bots_ends_correctly():
    for seed in range(100):
        table = new_table(seed)
        auction = auction_of(table)
        while not auction.is_over:
            auction = play_user_move(table, "p")  # the learner always passes
        assert auction.declarer != table.seat
        if auction.declarer is not None:
            assert auction.value <= hand_limit(table.deal.hand(auction.declarer)).value


def test_illegal_steps_are_refused_by_the_engine():
    table = next(t for t in (new_table(s) for s in range(50)) if not auction_of(t).is_over and not auction_of(t).pending)
    with pytest.raises(SkatError, match="kein Reizwert"):
        play_user_move(table, "19")
    with pytest.raises(SkatError):
        play_user_move(table, "y")  # the speaker cannot hold
    with pytest.raises(SkatError):
        play_user_move(table, "drop table")


def test_hand_limit_is_the_engine_value_of_the_best_game():
    from skatschule.engine import parse_cards

    limit = hand_limit(tuple(parse_cards("CJ SJ CA CT CK C9 C8 HA SA D7")))
    assert limit.value == 36 and "Kreuz" in strip_refs(limit.text_de)  # Kreuz mit 2, Spiel 3 x 12
    assert hand_limit(tuple(parse_cards("C7 C8 S7 S8 H7 H8 D7 D8 C9 S9"))).value == 0
    assert limit.value in BID_VALUES


@pytest.mark.django_db
def test_the_table_page(client):
    page = client.get("/ueben/reizen-am-tisch/")
    assert page.status_code == 200
    table = Table.from_session(client.session["auction_table"])
    assert table is not None
    html = page.content.decode()
    auction = auction_of(table)
    if not auction.is_over:  # the other hands stay hidden while the auction runs
        other = [c.name_de for s in range(3) if s != table.seat for c in table.deal.hand(s)]
        mine = [c.name_de for c in table.hand()]
        assert all(name in html for name in mine)  # the learner's own cards are drawn, by name
        assert not any(name in html for name in other)
        assert "Auswertung" not in html
    bad = client.post("/ueben/reizen-am-tisch/", {"action": "19"})
    assert bad.status_code == 400 or auction.is_over
    again = client.post("/ueben/reizen-am-tisch/", {"action": "new"})
    assert again.status_code == 200
    passes = client.post("/ueben/reizen-am-tisch/", {"action": "custom", "custom": "abc"})
    assert passes.status_code in (200, 400)

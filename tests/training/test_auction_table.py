"""Reizen am Tisch: the learner plays one seat of the auction against engine bots."""

import pytest
from django.test import Client

from skatschule.engine import BID_VALUES, Auction, Bid, Hold, SkatError, deal_cards
from skatschule.engine.bots import choose_bid
from skatschule.engine.evaluation import bid_limit, evaluate
from skatschule.engine.names import card_name, strip_refs
from skatschule.training.services.auction_play import (
    Table,
    auction_of,
    hand_limit,
    new_table,
    play_user_move,
)
from tests.traced import traced_first


def test_bots_only_make_legal_moves_and_stop_at_the_learners_turn() -> None:
    for seed in range(200):
        table = new_table(seed=seed)
        auction = auction_of(table=table)  # replays every move through the engine
        assert auction.is_over or auction.to_move == table.seat


def test_a_whole_auction_against_the_bots_ends_correctly() -> None:
    for seed in range(100):
        table = new_table(seed=seed)
        auction = auction_of(table=table)
        while not auction.is_over:
            auction = play_user_move(table=table, action="p")  # the learner always passes
        assert auction.declarer != table.seat
        if auction.declarer is not None:
            assert auction.value <= hand_limit(cards=table.deal.hand(auction.declarer)).value


def test_illegal_steps_are_refused_by_the_engine() -> None:
    table = next(
        t
        for t in (new_table(seed=s) for s in range(50))
        if not auction_of(table=t).is_over and not auction_of(table=t).pending
    )
    with pytest.raises(SkatError, match="kein Reizwert"):
        play_user_move(table=table, action="19")
    with pytest.raises(SkatError):
        play_user_move(table=table, action="y")  # the speaker cannot hold
    with pytest.raises(SkatError):
        play_user_move(table=table, action="drop table")


def test_hand_limit_is_the_engine_value_of_the_best_game() -> None:
    from skatschule.engine import parse_cards

    cards = tuple(parse_cards("CJ SJ CA CT CK C9 C8 HA SA D7"))
    limit = hand_limit(cards=cards)
    assert limit.value == evaluate(cards).limit == 72 and "Grand" in strip_refs(limit.text.de)  # mit 2, Spiel 3 x 24
    assert hand_limit(cards=tuple(parse_cards("C8 C9 S8 S9 H8 H9 D8 D9 CK SK"))).value == 0
    assert hand_limit(cards=tuple(parse_cards("C7 C8 S7 S8 H7 H8 D7 D8 C9 S9"))).value == 35  # a safe Null Hand
    assert hand_limit(cards=tuple(parse_cards("S9 SQ S7 D8 S8 DQ CT SK HK H7"))).value == 0  # once held to 77
    assert limit.value in BID_VALUES
    assert len(limit.lines) == 6 and all(line.de and line.en for line in limit.lines)  # four suits, Grand, Null


def test_no_bot_bids_beyond_its_own_evaluation_over_10000_deals() -> None:
    """Three bots at one table, 10,000 seeded deals: every bid and every hold stays within the
    value of the game the bot's own evaluation would declare; a bot that would pass never
    bids, and the winner of the auction has a game to declare."""
    bids = 0
    for seed in traced_first(range(10_000)):
        deal = deal_cards(seed)
        limits = [bid_limit(deal.hand(seat)) for seat in range(3)]
        if seed % 20 == 0:  # the bots' quick limit is the evaluation the learner is shown
            assert limits == [hand_limit(cards=deal.hand(seat)).value for seat in range(3)]
        auction = Auction()
        while not auction.is_over:
            seat = auction.to_move
            assert seat is not None
            move = choose_bid(auction, deal.hand(seat))
            if isinstance(move, (Bid, Hold)):
                said = move.value if isinstance(move, Bid) else auction.value
                assert said <= limits[seat], (seed, seat, said, limits[seat])
                bids += 1
            auction = auction.apply(move)
        if auction.declarer is not None:
            assert 18 <= auction.value <= limits[auction.declarer]
    assert bids > 5_000  # the bots do bid (the evaluation is not "always pass")


@pytest.mark.django_db
def test_the_table_page(client: Client) -> None:
    page = client.get("/ueben/reizen-am-tisch/")
    assert page.status_code == 200
    table = Table.from_session(client.session["auction_table"])
    assert table is not None
    html = page.content.decode()
    auction = auction_of(table=table)
    if not auction.is_over:  # the other hands stay hidden while the auction runs
        other = [card_name(c) for s in range(3) if s != table.seat for c in table.deal.hand(s)]
        mine = [card_name(c) for c in table.hand()]
        assert all(name in html for name in mine)  # the learner's own cards are drawn, by name
        assert not any(name in html for name in other)
        assert "Auswertung" not in html
        # the hint "what could I play?" rates the learner's own hand, with the evaluation's numbers
        limit = hand_limit(cards=table.hand())
        assert "Was könnte ich spielen?" in html and "⟦" not in html
        assert (f"bis {limit.value}:" in html) == (limit.value > 0)
    bad = client.post("/ueben/reizen-am-tisch/", {"action": "19"})
    assert bad.status_code == 400 or auction.is_over
    again = client.post("/ueben/reizen-am-tisch/", {"action": "new"})
    assert again.status_code == 200
    passes = client.post("/ueben/reizen-am-tisch/", {"action": "custom", "custom": "abc"})
    assert passes.status_code in (200, 400)


@pytest.mark.parametrize("step", ["²", "٨٠", "１８", "1" * 4])
def test_a_bid_that_is_not_plain_ascii_digits_is_an_unknown_step(step: str) -> None:
    """ "²" passes ``str.isdigit`` but not ``int`` (it was a 500 at /ueben/reizen-am-tisch/);
    "٨٠" and "１８" would be read as 80 and 18."""
    table = next(
        t
        for t in (new_table(seed=s) for s in range(50))
        if not auction_of(table=t).is_over and not auction_of(table=t).pending
    )
    moves = list(table.moves)
    with pytest.raises(SkatError, match="Unbekannter Reizschritt"):
        play_user_move(table=table, action=step)
    assert table.moves == moves

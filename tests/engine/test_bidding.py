import pytest

from skatschule.engine import BID_VALUES, PRE1999, Auction, Bid, GameOver, Hold, IllegalBid, Pass, run_auction
from skatschule.engine.bidding import parse_auction_move
from skatschule.engine.seats import Seat


def test_bid_values_are_all_game_values() -> None:
    assert BID_VALUES[:8] == (18, 20, 22, 23, 24, 27, 30, 33) and BID_VALUES[-1] == 264
    assert 23 in BID_VALUES and 59 in BID_VALUES and 19 not in BID_VALUES
    assert 360 in PRE1999.bid_values()


def test_who_speaks_and_who_listens() -> None:
    a = Auction()
    assert a.to_move == 1  # Mittelhand speaks to Vorhand
    a = a.apply(Bid(Seat(1), 18))
    assert a.to_move == 0 and {type(m) for m in a.legal_moves()} == {Hold, Pass}
    a = a.apply(Hold(Seat(0))).apply(Pass(Seat(1)))
    assert a.to_move == 2 and a.listener == 0  # Hinterhand speaks to the survivor
    a = a.apply(Pass(Seat(2)))
    assert a.is_over and a.declarer == 0 and a.value == 18


@pytest.mark.parametrize(
    "moves, message",
    [
        ([[1, 18], [0, 20]], "hört"),
        ([[1, 18], [0, "y"], [1, "y"]], "halten kann nur"),
        ([[1, 18], [0, "y"], [1, 18]], "nicht höher"),
        ([[1, 21]], "kein Reizwert"),
        ([[2, 18]], "nicht an der Reihe"),
        ([[1, "p"], [2, "p"], [0, "y"]], "Reizwert nennen"),
        ([[1, 18], [0, "p"], [2, "p"], [0, "p"]], "beendet"),
        ([[1, "x"]], "Unlesbar"),
    ],
)
def test_illegal_steps_have_clear_errors(moves: list[object], message: str) -> None:
    with pytest.raises((IllegalBid, GameOver), match=message):
        run_auction(moves)


def test_passed_in_and_vorhand_alone() -> None:
    assert run_auction([[1, "p"], [2, "p"], [0, "p"]]).passed_in
    a = run_auction([[1, "p"], [2, 20], [0, "y"], [2, 22], [0, "p"]])
    assert a.declarer == 2 and a.value == 22
    assert run_auction([[1, "p"], [2, "p"], [0, 24]]).value == 24


def test_seats_come_out_of_the_engine_as_seat() -> None:
    """The engine hands out seats as Seat (an int, so 0-2 still index and compare)."""
    from skatschule.engine import SEATS, GameState, Seat, deal_cards

    auction = run_auction([[1, 18], [0, "y"], [1, "p"], [2, "p"]])
    # a Seat is an int: mypy's strict equality does not know IntEnum members equal ints
    assert auction.declarer is Seat.FOREHAND and auction.declarer == 0  # type: ignore[comparison-overlap]
    assert all(isinstance(m.seat, Seat) for m in auction.moves)
    assert Auction().to_move is Seat.MIDDLEHAND and SEATS[2].text.de == "Hinterhand" and Seat.REARHAND.next == 0
    state = GameState(deal_cards(seed=1))
    assert state.to_move is Seat.MIDDLEHAND
    for move in ([1, "p"], [2, "p"], [0, 18]):
        state.push(parse_auction_move(move))
    # the move changed the state: mypy still holds the narrowing from the assert before it
    assert state.declarer is Seat.FOREHAND and state.to_move is Seat.FOREHAND  # type: ignore[comparison-overlap]


@pytest.mark.parametrize("lang", ["en", "en-gb", "EN-us"])
def test_the_auction_is_described_in_english_for_every_english_reader(lang: str) -> None:
    """One language rule (:func:`engine.text.lang_of`): "en-gb" reads English too, and the
    English sentence starts with a capital."""
    assert Auction().describe(lang) == "Middlehand to move"
    assert run_auction([[1, 18], [0, "y"], [1, "p"], [2, "p"]]).describe(lang) == "Forehand becomes declarer at 18"
    assert run_auction([[1, "p"], [2, "p"], [0, "p"]]).describe(lang) == "Passed in: nobody plays"


@pytest.mark.parametrize("lang", ["de", None, "fr"])
def test_the_auction_is_described_in_german_for_everyone_else(lang: str | None) -> None:
    assert Auction().describe(lang) == "Mittelhand ist am Zug"
    assert run_auction([[1, 18], [0, "y"], [1, "p"], [2, "p"]]).describe(lang) == "Vorhand wird Alleinspieler bei 18"

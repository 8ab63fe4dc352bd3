from collections.abc import Iterable

import pytest

from skatschule.engine import (
    CardSet,
    Contract,
    GameType,
    InvalidDeclaration,
    SkatError,
    is_trump,
    legal_cards,
    parse_card,
    parse_cards,
    parse_game,
    trick_winner,
    trump_order,
)
from skatschule.engine.cards import Card


def codes(cs: Iterable[Card]) -> list[str]:
    return sorted(c.code for c in cs)


def test_trumps_per_game_type() -> None:
    assert len(trump_order(GameType.HEARTS)) == 11 and len(trump_order(GameType.GRAND)) == 4
    assert trump_order(GameType.NULL) == ()
    assert [c.code for c in trump_order(GameType.SPADES)][:6] == ["CJ", "SJ", "HJ", "DJ", "SA", "ST"]
    assert is_trump(GameType.DIAMONDS, parse_card("HJ")) and not is_trump(GameType.GRAND, parse_card("CA"))
    assert not is_trump(GameType.NULL, parse_card("CJ"))


def test_null_order_is_ace_king_queen_jack_ten() -> None:
    # in Null the ten ranks below the jack and the jack follows its suit
    assert trick_winner(GameType.NULL, parse_cards("DT DJ D9")) == 1
    assert trick_winner(GameType.NULL, parse_cards("DJ DQ DT")) == 1
    assert trick_winner(GameType.NULL, parse_cards("D7 HA D8")) == 2


def test_trick_winner_trumps_and_suits() -> None:
    assert trick_winner(GameType.CLUBS, parse_cards("HA HT C7")) == 2
    assert trick_winner(GameType.CLUBS, parse_cards("HA HT D7")) == 0
    assert trick_winner(GameType.GRAND, parse_cards("DJ CJ SJ")) == 1
    assert trick_winner(GameType.HEARTS, parse_cards("HA DJ H7")) == 1
    with pytest.raises(SkatError):
        trick_winner(GameType.HEARTS, [])


def test_jacks_follow_trump_not_their_suit() -> None:
    hand = CardSet("SJ S7 D8")
    assert codes(legal_cards(GameType.HEARTS, hand, parse_cards("SA"))) == ["S7"]
    assert codes(legal_cards(GameType.HEARTS, hand, parse_cards("HA"))) == ["SJ"]
    assert codes(legal_cards(GameType.NULL, hand, parse_cards("SA"))) == ["S7", "SJ"]
    assert codes(legal_cards(GameType.GRAND, hand, parse_cards("CJ"))) == ["SJ"]


def test_contract_rules_for_declarations() -> None:
    assert Contract(GameType.CLUBS, hand=True, ouvert=True).schwarz_announced
    assert Contract(GameType.CLUBS, hand=True, schwarz_announced=True).schneider_announced
    assert not Contract(GameType.CLUBS, ouvert=True).is_valid
    assert Contract(GameType.NULL, ouvert=True).is_valid
    assert not Contract(GameType.NULL, hand=True, schneider_announced=True).is_valid
    with pytest.raises(InvalidDeclaration, match="Handspiel"):
        Contract(GameType.GRAND, schneider_announced=True).validate()
    assert Contract.parse("kreuz hand schneider_angesagt") == Contract(
        GameType.CLUBS, hand=True, schneider_announced=True
    )
    assert str(Contract.parse("null ouvert hand")) == "Null ouvert Hand"
    assert parse_game("Karo") is GameType.DIAMONDS
    with pytest.raises(SkatError):
        parse_game("ramsch")


def test_validity_check_agrees_with_the_listed_problems() -> None:
    import itertools

    for game in GameType:
        for hand, ouvert, schneider, schwarz in itertools.product((False, True), repeat=4):
            contract = Contract(
                game, hand=hand, ouvert=ouvert, schneider_announced=schneider, schwarz_announced=schwarz
            )
            problems = contract.problems()
            assert contract.is_valid == (not problems)
            if problems:
                with pytest.raises(InvalidDeclaration) as err:
                    contract.validate()
                assert str(err.value) == problems[0][0]
            else:
                contract.validate()


def test_game_types_hash_and_compare_by_identity() -> None:
    assert {game: game.value for game in GameType}[GameType.NULL] == "null"
    assert GameType("grand") is GameType.GRAND and GameType.NULL.is_null and not GameType.GRAND.is_null
    assert [g.trump_suit is not None for g in GameType] == [g.is_suit_game for g in GameType]

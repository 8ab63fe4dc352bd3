"""The hand evaluation behind the bots' bidding limits (issue 13 §5), on fixed hands."""

import pytest

from skatschule.engine import Contract, GameType, game_value, matadors, parse_cards
from skatschule.engine.cards import Card, CardSet, Suit
from skatschule.engine.evaluation import check_game, evaluate, null_safe, null_unsafe_cards


def hand(codes: str) -> list[Card]:
    cards = parse_cards(codes)
    assert len(cards) == 10 == len(set(cards))
    return cards


def test_no_jack_no_ace_passes() -> None:
    # Five small spades and nothing else: the bot that held 77 with it must pass.
    e = evaluate(hand("S9 SQ S7 D8 S8 DQ CT SK HK H7"))
    assert e.best is None and e.limit == 0
    spades = check_game(hand("S9 SQ S7 D8 S8 DQ CT SK HK H7"), GameType.SPADES)
    assert not spades.playable and "hohe davon (⟦ranks:J⟧, ⟦rank:A⟧, Zehn): 0" in spades.steps[0].de


def test_four_aces_three_tens_and_a_jack_is_a_grand() -> None:
    cards = hand("DJ CA CT SA ST HA HT DA D7 C7")
    e = evaluate(cards)
    assert e.contract == Contract(GameType.GRAND)
    assert e.limit == game_value(Contract(GameType.GRAND), matadors(GameType.GRAND, cards)).value  # ohne 3: 96


def test_three_jacks_and_weak_clubs_stay_below_80() -> None:
    cards = hand("CJ SJ HJ C7 C8 C9 S7 S8 H7 D9")
    e = evaluate(cards)
    assert e.limit < 80
    assert e.contract == Contract(GameType.CLUBS)  # six trumps, three of them high: Kreuz mit 3
    assert e.limit == game_value(Contract(GameType.CLUBS), 3).value
    assert not check_game(cards, GameType.GRAND).playable  # seven losers in the suits


@pytest.mark.parametrize(
    "codes,game",
    [
        ("CJ SJ CA CT CK C9 C8 HA SA D7", GameType.GRAND),  # two jacks and a standing clubs run
        ("CJ HJ HA HK H9 H7 SA ST C8 D7", GameType.HEARTS),  # six hearts, three high, two side winners
        ("DJ HJ DA DT D9 D8 D7 C8 S8 H9", GameType.DIAMONDS),  # seven trumps, four high, no side winner
    ],
)
def test_sensible_games_are_found(codes: str, game: GameType) -> None:
    cards = hand(codes)
    e = evaluate(cards)
    assert e.contract is not None and e.contract.game is game
    assert e.limit == game_value(Contract(game), matadors(game, cards)).value


def test_weak_suit_games_are_refused() -> None:
    # Five trumps but only one high one and no side winner; five trumps, two high, nothing else.
    assert not check_game(hand("CJ H7 H8 H9 HQ S7 S8 D7 D8 C9"), GameType.HEARTS).playable
    assert not check_game(hand("CJ HA H7 H8 H9 S7 S8 D7 D8 C9"), GameType.HEARTS).playable
    assert check_game(hand("CJ HA H7 H8 H9 SA S8 D7 D8 C9"), GameType.HEARTS).playable  # plus a side ace


def test_null_safety_and_null_values() -> None:
    cards = CardSet(parse_cards("C7 C9 CJ S8"))
    assert null_safe(cards, Suit.CLUBS)  # 7, 9, jack: every lead can be ducked
    assert not null_safe(cards, Suit.SPADES)  # a lone eight takes the seven
    assert null_safe(cards, Suit.HEARTS)  # no card of the suit at all
    e = evaluate(hand("C7 C9 CJ S7 S9 H7 H8 D7 D9 DJ"))
    assert e.contract == Contract(GameType.NULL, hand=True) and e.limit == 35
    assert null_unsafe_cards(CardSet(parse_cards("D7 D8 DK DA")), Suit.DIAMONDS) == 2  # king and ace must go
    pickup = evaluate(hand("C7 C9 CT S7 S9 H7 H9 D7 DK DA"))  # DK and DA are the two to put away
    assert pickup.contract == Contract(GameType.NULL) and pickup.limit == 23


def test_junk_passes_and_the_steps_read() -> None:
    e = evaluate(hand("C8 C9 S8 S9 H8 H9 D8 D9 CK SK"))
    assert e.limit == 0 and "passen" in e.summary("de") and "pass" in e.summary("en")
    good = evaluate(hand("CJ SJ CA CT CK C9 C8 HA SA D7"))
    assert good.summary("de").startswith("spielbar: mit 2, Spiel 3 × ⟦game:grand⟧ 24 = 72")
    assert all(len(check.steps) == 2 for check in good.checks)

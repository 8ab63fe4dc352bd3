"""The deal completed from what a situation names (engine.completion, used by own questions)."""

from __future__ import annotations

import random

import pytest

from skatschule.engine import CardSet, Contract, GameState, GameType, SkatError, deal_cards, legal_cards, parse_cards
from skatschule.engine.completion import PartialDeal


def _partial_from_game(seed: int, played: int) -> tuple[PartialDeal, GameState]:
    """A random Grand or suit game, ``played`` random legal cards into it, described as a PartialDeal."""
    rng = random.Random(seed)
    deal = deal_cards(rng=rng)
    game = rng.choice([GameType.GRAND, GameType.CLUBS, GameType.HEARTS, GameType.NULL])
    declarer = rng.randrange(3)
    state = GameState.start(deal, declarer=declarer, bid=18, contract=Contract(game, hand=True))
    plays = []
    for _ in range(played):
        if state.is_over():
            break
        card = rng.choice(list(state.legal_cards()))
        state.play(card)
        plays.append(card)
    part = PartialDeal(game, declarer, tuple(deal.hand(declarer)), tuple(deal.skat), tuple(plays))
    return part, state


@pytest.mark.parametrize("seed", range(60))
def test_every_completion_replays_the_plays_legally(seed: int) -> None:
    part, true_state = _partial_from_game(seed, played=seed % 30)
    deals = part.completions()
    assert 1 <= len(deals) <= 2
    for deal in deals:
        assert deal.hand(part.declarer) == true_state.deal.hand(part.declarer) and deal.skat == true_state.deal.skat
        state = GameState.start(deal, declarer=part.declarer, bid=18, contract=Contract(part.game, hand=True))
        for card, seat in zip(part.plays, part.seats()):
            assert state.to_move == seat
            state.play(card)  # raises if the completion made a play illegal
        assert state.declarer_augen() == true_state.declarer_augen()


def test_a_defender_who_did_not_follow_gets_no_card_of_that_suit() -> None:
    # Grand, Vorhand declares; Mittelhand follows the Kreuz-Ass, Hinterhand throws a Herz: Hinterhand has no Kreuz
    hand = tuple(parse_cards("CJ SJ HJ DJ CA CT SA ST HA HT".split()))
    part = PartialDeal(
        GameType.GRAND, 0, hand, tuple(parse_cards(["D7", "D8"])), tuple(parse_cards(["CA", "C7", "H7"]))
    )
    for deal in part.completions():
        clubs = CardSet(parse_cards("CK CQ C9 C8".split()))
        assert not CardSet(deal.hand(2)).mask & clubs.mask
        held = CardSet(deal.hand(2))
        assert legal_cards(GameType.GRAND, held, list(parse_cards(["CA"]))) == held


def test_a_seat_that_must_follow_gets_a_card_to_follow_with() -> None:
    hand = tuple(parse_cards("CJ SJ HJ DJ CA CT SA ST HA HT".split()))
    revoke = parse_cards(["DK"])[0]
    part = PartialDeal(
        GameType.GRAND,
        0,
        hand,
        tuple(parse_cards(["D7", "D8"])),
        tuple(parse_cards(["SA", "S7"])),
        holds=((2, revoke),),
        can_follow=(2, parse_cards(["SA"])[0]),
    )
    for deal in part.completions():
        held = CardSet(deal.hand(2))
        assert held.mask & revoke.bit
        assert legal_cards(GameType.GRAND, held, list(parse_cards(["SA", "S7"]))) != held  # he could follow


@pytest.mark.parametrize(
    "plays,holds,message",
    [
        (["CA", "C7", "H7", "CT", "C8", "C9"], (), "vorher nicht bedient"),  # Hinterhand throws, then follows Kreuz
        (["D7", "C7", "H7"], (), "liegt im Skat"),  # the declarer leads a card he put away
        (["C7", "C8", "H7"], (), "nicht unter seinen Karten"),  # the declarer leads a card he does not hold
        (["CA", "HA", "H7"], (), "gehört aber dem Alleinspieler"),  # a defender plays the declarer's card
        (["CA", "C7", "H7"], ((2, "CK"),), "nicht mehr haben"),  # Hinterhand cannot hold a Kreuz after throwing
        (["CA", "CA"], (), "zweimal"),
    ],
)
def test_impossible_situations_are_refused(plays: list[str], holds: tuple[tuple[int, str], ...], message: str) -> None:
    hand = tuple(parse_cards("CJ SJ HJ DJ CA CT SA ST HA HT".split()))
    part = PartialDeal(
        GameType.GRAND,
        0,
        hand,
        tuple(parse_cards(["D7", "D8"])),
        tuple(parse_cards(plays)),
        holds=tuple((seat, parse_cards([code])[0]) for seat, code in holds),
    )
    with pytest.raises(SkatError) as info:
        part.completions()
    assert message in info.value.text.de


def test_two_completions_when_the_free_cards_can_go_either_way() -> None:
    hand = tuple(parse_cards("CJ SJ HJ DJ CA CT SA ST HA HT".split()))
    part = PartialDeal(GameType.GRAND, 0, hand, tuple(parse_cards(["D7", "D8"])))
    first, second = part.completions()
    assert first.hand(1) != second.hand(1) and CardSet(first.hand(0)) == CardSet(second.hand(0)) == CardSet(hand)

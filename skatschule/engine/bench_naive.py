"""The naive oracle of the random-games benchmark (``python -m skatschule.engine.bench``).

The same random game as :func:`.bench.play_random_game`, written the plain way, without a
thought for speed: hands are lists of :class:`~.cards.Card`, the legal cards are the hand
filtered by the card led, a trick is taken by comparing ranks card by card, the matadors are
counted from the top trump down, and the result comes from the checked
:func:`~.scoring.score_game`. It draws the same random numbers in the same order, so for a
seed both play the same game to the same :class:`~.scoring.Outcome`
(``tests/engine/test_bench.py``): it checks the engine, and it is the reference the
benchmark measures the engine against in the same run.

The bench's declarations announce nothing (no Schneider, Schwarz or ouvert), so a game ends
early only in Null, with the declarer's first trick. Do not call it from the site.
"""

from __future__ import annotations

import random

from .cards import CARDS, Card, Rank, Suit, deal_cards
from .games import Contract, GameType
from .scoring import Outcome, Termination, score_game

__all__ = ["play_naive_game"]

_GAMES = (GameType.CLUBS, GameType.SPADES, GameType.HEARTS, GameType.DIAMONDS, GameType.GRAND, GameType.NULL)
_TRUMP_SUIT = {GameType.CLUBS: Suit.CLUBS, GameType.SPADES: Suit.SPADES, GameType.HEARTS: Suit.HEARTS}
_TRUMP_SUIT[GameType.DIAMONDS] = Suit.DIAMONDS
_SUIT_ORDER = (Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.NINE, Rank.EIGHT, Rank.SEVEN)
_NULL_ORDER = (Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.TEN, Rank.NINE, Rank.EIGHT, Rank.SEVEN)
_JACKS = (Suit.CLUBS, Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS)


def _is_trump(game: GameType, card: Card) -> bool:
    if game is GameType.NULL:
        return False
    return card.rank is Rank.JACK or card.suit is _TRUMP_SUIT.get(game)


def _group(game: GameType, card: Card) -> str:
    """What must follow ``card``: ``"trump"`` or the name of its suit."""
    return "trump" if _is_trump(game, card) else card.suit.name


def _strength(game: GameType, card: Card) -> int:
    """Higher beats lower within one group; trumps above every plain card."""
    if game is GameType.NULL:
        return 10 - _NULL_ORDER.index(card.rank)
    if card.rank is Rank.JACK:
        return 100 - _JACKS.index(card.suit)
    base = 50 if _is_trump(game, card) else 10
    return base - _SUIT_ORDER.index(card.rank)


def _legal(game: GameType, hand: list[Card], trick: list[Card]) -> list[Card]:
    if not trick:
        return sorted(hand)
    led = _group(game, trick[0])
    follow = [card for card in hand if _group(game, card) == led]
    return sorted(follow or hand)


def _winner(game: GameType, trick: list[Card]) -> int:
    """The position (0-2) of the card that takes the trick."""
    best = 0
    for i in (1, 2):
        card, top = trick[i], trick[best]
        if _is_trump(game, card) and not _is_trump(game, top):
            best = i
        elif _group(game, card) == _group(game, top) and _strength(game, card) > _strength(game, top):
            best = i
    return best


def _matadors(game: GameType, cards: list[Card]) -> int:
    if game is GameType.NULL:
        return 0
    trumps = [CARDS[suit * 8 + Rank.JACK] for suit in _JACKS]
    if game is not GameType.GRAND:
        trumps += [CARDS[_TRUMP_SUIT[game] * 8 + rank] for rank in _SUIT_ORDER]
    having = trumps[0] in cards
    count = 0
    for trump in trumps:
        if (trump in cards) != having:
            break
        count += 1
    return count if having else -count


def play_naive_game(rng: random.Random) -> Outcome:
    """One random legal game, drawn like :func:`.bench.play_random_game`, and its outcome."""
    deal = deal_cards(rng=rng)
    hand_game = rng.random() < 0.25
    game = _GAMES[int(rng.random() * 6)]
    declarer = int(rng.random() * 3)
    hands = [list(deal.hand(seat)) for seat in range(3)]
    skat = list(deal.skat)
    twelve = hands[declarer] + skat
    if not hand_game:
        i = int(rng.random() * 12)
        j = int(rng.random() * 11)
        skat = [twelve[i], twelve[j + (j >= i)]]
        hands[declarer] = [card for card in twelve if card not in skat]
    declarer_points = sum(card.points for card in skat)
    declarer_tricks = 0
    termination = Termination.PLAYED_OUT
    leader = 0
    for number in range(1, 11):
        trick: list[Card] = []
        for k in range(3):
            seat = (leader + k) % 3
            legal = _legal(game, hands[seat], trick)
            card = legal[int(rng.random() * len(legal))]
            hands[seat].remove(card)
            trick.append(card)
        leader = (leader + _winner(game, trick)) % 3
        if leader == declarer:
            declarer_points += sum(card.points for card in trick)
            declarer_tricks += 1
            if game is GameType.NULL and number < 10:  # the tenth trick ends every game anyway
                termination = Termination.NULL_TRICK
                break
    return score_game(
        Contract(game, hand=hand_game),
        _matadors(game, twelve),
        bid=18,
        declarer_points=declarer_points,
        declarer_tricks=declarer_tricks,
        declarer_cards=twelve if game is GameType.NULL else None,
        termination=termination,
    )

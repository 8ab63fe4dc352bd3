"""The card orders: hands sorted the way players hold them (:func:`sort_hand`, the one every
page uses for a hand) and a fixed order that tells nothing (:func:`neutral_order`, for cards
whose order must not hint at an answer).

- **Suit or Grand game:** the jacks first (Kreuz, Pik, Herz, Karo); in a suit game then
  the trump suit (A 10 K Q 9 8 7); then the other suits, black and red alternating where
  the hand allows it.
- **Null:** every suit A K Q J 10 9 8 7, colours alternating.
- **Before the game is known:** the Grand order, with the longest suit first.

>>> from skatschule.engine.cards import parse_cards
>>> from skatschule.engine.games import GameType
>>> hand = parse_cards("HA C8 SA ST DA DJ HQ HT DT CA")
>>> " ".join(c.code for c in sort_hand(hand))
'DJ HA HT HQ CA C8 DA DT SA ST'
>>> " ".join(c.code for c in sort_hand(hand, GameType.DIAMONDS))
'DJ DA DT CA C8 HA HT HQ SA ST'
>>> " ".join(c.code for c in sort_hand(parse_cards("CJ C7 CA HK HJ"), GameType.NULL))
'CA CJ C7 HK HJ'
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import permutations

from .cards import Card, Rank, Suit
from .games import GameType

__all__ = ["sort_hand", "neutral_order"]

_BLACK = (Suit.CLUBS, Suit.SPADES)
# Rank order within a suit, highest first.
_SUIT_ORDER = (Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.NINE, Rank.EIGHT, Rank.SEVEN)
_NULL_ORDER = (Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.TEN, Rank.NINE, Rank.EIGHT, Rank.SEVEN)


def _black(suit: Suit) -> bool:
    return suit in _BLACK


def _suit_sequence(first: Suit | None, others: list[Suit], length: dict[Suit, int]) -> list[Suit]:
    """``first`` (if any), then ``others`` so that colours alternate as far as possible;
    ties go to the longer suit, then to the usual order Kreuz, Pik, Herz, Karo."""

    def cost(order: tuple[Suit, ...]) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
        seq = ([first] if first is not None else []) + list(order)
        clashes = sum(_black(a) == _black(b) for a, b in zip(seq, seq[1:]))
        return clashes, tuple(-length[s] for s in order), tuple(int(s) for s in order)

    best = min(permutations(others), key=cost) if others else ()
    return ([first] if first is not None else []) + list(best)


def sort_hand(cards: Iterable[Card], game: GameType | None = None) -> list[Card]:
    """``cards`` in the order a player sorts them for ``game`` (None: not yet declared)."""
    hand = list(cards)
    if game is GameType.NULL:
        by_suit = {s: [c for c in hand if c.suit == s] for s in Suit}
        present = [s for s in Suit if by_suit[s]]
        length = {s: len(by_suit[s]) for s in Suit}
        order = _suit_sequence(None, present, length)
        return [c for s in order for c in sorted(by_suit[s], key=lambda c: _NULL_ORDER.index(c.rank))]

    jacks = sorted((c for c in hand if c.rank == Rank.JACK), key=lambda c: c.suit)
    rest = {
        s: sorted((c for c in hand if c.suit == s and c.rank != Rank.JACK), key=lambda c: _SUIT_ORDER.index(c.rank))
        for s in Suit
    }
    length = {s: len(rest[s]) for s in Suit}
    present = [s for s in Suit if rest[s]]
    trump = game.trump_suit if game is not None else None
    if game is None and present:
        # not yet declared: the longest suit leads (ties in the usual suit order)
        trump = min(present, key=lambda s: (-length[s], int(s)))
    first = trump if trump in present else None
    others = [s for s in present if s != first]
    order = _suit_sequence(first, others, length)
    return jacks + [c for s in order for c in rest[s]]


def neutral_order(cards: Iterable[Card], *, jacks_first: bool = False) -> list[Card]:
    """``cards`` in a fixed order that says nothing about an answer: by suit (Kreuz, Pik, Herz,
    Karo), each A 10 K D B 9 8 7, the jacks in their printed suit (nothing about trumps); with
    ``jacks_first`` the four jacks lead (a hand whose game is known: sorting by suit length would
    put the short suit, the cards to put away, last).

    >>> from skatschule.engine.cards import parse_cards
    >>> hand = parse_cards("HA C8 DJ SA CJ")
    >>> " ".join(c.code for c in neutral_order(hand)), " ".join(c.code for c in neutral_order(hand, jacks_first=True))
    ('CJ C8 SA HA DJ', 'CJ DJ C8 SA HA')
    """
    return sorted(cards, key=lambda c: (jacks_first and c.rank != Rank.JACK, c.index))

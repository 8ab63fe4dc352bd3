"""Cards, suits, ranks and sets of cards.

Notation follows the International Skat Server: suit letter + rank letter,
``CJ`` is the Kreuz-Bube, ``HT`` the Herz-Zehn. A card's index is
``suit * 8 + rank`` with suits in jack order (Kreuz, Pik, Herz, Karo) and
ranks in the order A T K Q J 9 8 7, so a set of cards is a 32-bit integer.
"""

from __future__ import annotations

import operator
import random
import struct
from collections.abc import Iterable, Iterator
from enum import IntEnum
from typing import NamedTuple

from .errors import InvalidCard

__all__ = [
    "Suit",
    "Rank",
    "Card",
    "CardSet",
    "CARDS",
    "DECK",
    "Deal",
    "parse_card",
    "parse_cards",
    "deal_cards",
    "mask_points",
]


class Suit(IntEnum):
    """The four suits, in the order of the jacks (Kreuz highest)."""

    CLUBS = 0
    SPADES = 1
    HEARTS = 2
    DIAMONDS = 3

    @property
    def letter(self) -> str:
        return "CSHD"[self]

    @property
    def symbol(self) -> str:
        return ("♣", "♠", "♥", "♦")[self]


class Rank(IntEnum):
    """The eight ranks in the order of a suit in Farbspiele (Ass highest)."""

    ACE = 0
    TEN = 1
    KING = 2
    QUEEN = 3
    JACK = 4
    NINE = 5
    EIGHT = 6
    SEVEN = 7

    @property
    def letter(self) -> str:
        return "ATKQJ987"[self]

    @property
    def points(self) -> int:
        """Augen: Ass 11, Zehn 10, König 4, Dame 3, Bube 2, the rest 0."""
        return (11, 10, 4, 3, 2, 0, 0, 0)[self]


class Card:
    """One of the 32 cards. Cards are interned: use :data:`CARDS` or :func:`parse_card`."""

    __slots__ = ("suit", "rank", "index", "bit", "points", "code")

    suit: Suit
    rank: Rank
    index: int
    bit: int
    points: int
    code: str

    def __init__(self, suit: Suit, rank: Rank) -> None:
        index = suit * 8 + rank
        for name, value in (
            ("suit", suit),
            ("rank", rank),
            ("index", index),
            ("bit", 1 << index),
            ("points", rank.points),
            ("code", suit.letter + rank.letter),
        ):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Card) and other.index == self.index

    def __hash__(self) -> int:
        return self.index

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (parse_card, (self.code,))

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code!r})"

    @classmethod
    def parse(cls, text: str) -> Card:
        return parse_card(text)

    @property
    def is_jack(self) -> bool:
        return self.rank is Rank.JACK


def _make(index: int) -> Card:
    return Card(Suit(index // 8), Rank(index % 8))


CARDS: tuple[Card, ...] = tuple(_make(i) for i in range(32))
"""All 32 cards, indexed by :attr:`Card.index`."""

_BY_CODE: dict[str, Card] = {c.code: c for c in CARDS}
_BY_CODE.update({c.code.lower(): c for c in CARDS})
# "10" is a common spelling of the Zehn: C10, h10.
_BY_CODE.update({c.suit.letter + "10": c for c in CARDS if c.rank is Rank.TEN})
_BY_CODE.update({c.suit.letter.lower() + "10": c for c in CARDS if c.rank is Rank.TEN})

POINTS_BY_INDEX: tuple[int, ...] = tuple(c.points for c in CARDS)

# Augen of every subset of one suit (8 bits, ranks A T K Q J 9 8 7): the same for all suits.
_BYTE_POINTS: tuple[int, ...] = tuple(sum(POINTS_BY_INDEX[r] for r in range(8) if byte >> r & 1) for byte in range(256))


def mask_points(mask: int) -> int:
    """The Augen of the cards in a 32-bit mask: one table look-up per suit."""
    return (
        _BYTE_POINTS[mask & 0xFF]
        + _BYTE_POINTS[mask >> 8 & 0xFF]
        + _BYTE_POINTS[mask >> 16 & 0xFF]
        + _BYTE_POINTS[mask >> 24 & 0xFF]
    )


def parse_card(text: str) -> Card:
    """Parse ``"CJ"`` (case-insensitive, also mixed case like ``sT``; ``C10`` also works) into a :class:`Card`."""
    card = _BY_CODE.get(text.strip().upper()) if isinstance(text, str) else None
    if card is None:
        raise InvalidCard(
            f"{text!r} ist keine Karte: erwartet werden Farbe (C S H D) und Wert (A T K Q J 9 8 7), z. B. CJ",
            f"{text!r} is not a card: expected suit (C S H D) and rank (A T K Q J 9 8 7), e.g. CJ",
        )
    return card


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Parse ``"CJ SJ HA"`` (or a list of codes) into cards, keeping the order."""
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [parse_card(t) for t in items]


class CardSet:
    """An immutable set of cards stored as a 32-bit mask, like python-chess's SquareSet."""

    __slots__ = ("mask",)

    mask: int

    def __init__(self, cards: int | Iterable[Card] | str = 0) -> None:
        if isinstance(cards, int):
            mask = cards
        elif isinstance(cards, str):
            mask = 0
            for c in parse_cards(cards):
                mask |= c.bit
        else:
            mask = 0
            for c in cards:
                mask |= c.bit
        object.__setattr__(self, "mask", mask & 0xFFFFFFFF)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("CardSet is immutable")

    def __iter__(self) -> Iterator[Card]:
        mask = self.mask
        while mask:
            low = mask & -mask
            yield CARDS[low.bit_length() - 1]
            mask ^= low

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __bool__(self) -> bool:
        return self.mask != 0

    def __contains__(self, card: object) -> bool:
        return isinstance(card, Card) and bool(self.mask & card.bit)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CardSet):
            return self.mask == other.mask
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.mask)

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask | other.mask)

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & other.mask)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & ~other.mask)

    def __repr__(self) -> str:
        return f"CardSet({str(self)!r})"

    def __str__(self) -> str:
        return " ".join(c.code for c in self)

    @property
    def points(self) -> int:
        """The Augen of the cards in this set."""
        return mask_points(self.mask)

    def codes(self) -> list[str]:
        return [c.code for c in self]


DECK: CardSet = CardSet((1 << 32) - 1)


class Deal(NamedTuple):
    """The cards of one deal: Vorhand, Mittelhand, Hinterhand (10 each) and the skat (2)."""

    vorhand: tuple[Card, ...]
    mittelhand: tuple[Card, ...]
    hinterhand: tuple[Card, ...]
    skat: tuple[Card, ...]

    def hand(self, seat: int) -> tuple[Card, ...]:
        return (self.vorhand, self.mittelhand, self.hinterhand)[seat]

    @classmethod
    def from_codes(cls, hands: Iterable[Iterable[str]]) -> Deal:
        """Build and check a deal from four lists of codes (three hands of 10, skat of 2)."""
        parts = [tuple(parse_cards(list(h))) for h in hands]
        if len(parts) != 4 or [len(p) for p in parts] != [10, 10, 10, 2]:
            raise InvalidCard(
                "Ein Blatt besteht aus drei Händen zu zehn Karten und zwei Karten im Skat",
                "A deal is three hands of ten cards and two cards in the skat",
            )
        seen = [c for p in parts for c in p]
        if len(set(seen)) != 32:
            dupes = sorted({c.code for c in seen if seen.count(c) > 1})
            raise InvalidCard(f"Karten doppelt gegeben: {' '.join(dupes)}", f"Cards dealt twice: {' '.join(dupes)}")
        return cls(parts[0], parts[1], parts[2], parts[3])

    def codes(self) -> list[list[str]]:
        return [[c.code for c in part] for part in self]


# Positions in the shuffled pack: 3 each, the skat (positions 9 and 10), 4 each, 3 each.
_VORHAND = operator.itemgetter(0, 1, 2, 11, 12, 13, 14, 23, 24, 25)
_MITTELHAND = operator.itemgetter(3, 4, 5, 15, 16, 17, 18, 26, 27, 28)
_HINTERHAND = operator.itemgetter(6, 7, 8, 19, 20, 21, 22, 29, 30, 31)
_SKAT = operator.itemgetter(9, 10)
_RANGE32 = range(32)
_KEYS = struct.Struct("<32I").unpack
_new_tuple = tuple.__new__


def deal_cards(seed: int | None = None, rng: random.Random | None = None) -> Deal:
    """Shuffle and deal as the Skatordnung prescribes: 3 each, 2 to the skat, 4 each, 3 each.

    Vorhand receives first. The same seed always gives the same deal (the 32 keys
    are read little-endian). The shuffle sorts the pack by independent uniform
    32-bit keys, which gives every order the same chance and is several times
    faster than a Python-level Fisher-Yates loop.
    """
    r = rng if rng is not None else random.Random(seed)
    # 32 independent 32-bit keys from one call to the generator (ties: about 1 in 10 million)
    # (a list: its __getitem__ is a cheaper sort key than a tuple's)
    keys = list(_KEYS(r.getrandbits(1024).to_bytes(128, "little")))
    # the cards in the order of their keys (an itemgetter collects them in one C call)
    pack = operator.itemgetter(*sorted(_RANGE32, key=keys.__getitem__))(CARDS)
    # tuple.__new__ skips the Python-level NamedTuple constructor; the four parts are exact.
    return _new_tuple(Deal, (_VORHAND(pack), _MITTELHAND(pack), _HINTERHAND(pack), _SKAT(pack)))

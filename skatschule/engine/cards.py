"""Cards, suits, ranks and sets of cards.

Notation follows the International Skat Server: suit letter + rank letter,
``CJ`` is the Kreuz-Bube, ``HT`` the Herz-Zehn. A card's index is
``suit * 8 + rank`` with suits in jack order (Kreuz, Pik, Herz, Karo) and
ranks in the order A T K Q J 9 8 7, so a set of cards is a 32-bit integer.
"""

from __future__ import annotations

import random
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
    def name_de(self) -> str:
        return ("Kreuz", "Pik", "Herz", "Karo")[self]

    @property
    def name_en(self) -> str:
        return ("clubs", "spades", "hearts", "diamonds")[self]

    @property
    def name_german_deck(self) -> str:
        """The suit's name in the German deck (Eichel, Grün, Rot, Schellen)."""
        return ("Eichel", "Grün", "Rot", "Schellen")[self]

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

    @property
    def name_de(self) -> str:
        return ("Ass", "Zehn", "König", "Dame", "Bube", "Neun", "Acht", "Sieben")[self]

    @property
    def name_en(self) -> str:
        return ("ace", "ten", "king", "queen", "jack", "nine", "eight", "seven")[self]

    @property
    def short_de(self) -> str:
        """Corner index on French cards: A 10 K D B 9 8 7."""
        return ("A", "10", "K", "D", "B", "9", "8", "7")[self]


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

    @property
    def name_de(self) -> str:
        """German name with hyphen, as the ISkO writes it: ``Kreuz-Bube``."""
        return f"{self.suit.name_de}-{self.rank.name_de}"

    @property
    def name_en(self) -> str:
        return f"{self.rank.name_en} of {self.suit.name_en}"

    @property
    def label(self) -> str:
        """Short label with the suit symbol: ``♣B``."""
        return f"{self.suit.symbol}{self.rank.short_de}"


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


def parse_card(text: str) -> Card:
    """Parse ``"CJ"`` (case-insensitive; ``C10`` also works) into a :class:`Card`."""
    card = _BY_CODE.get(text.strip()) if isinstance(text, str) else None
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
        return sum(c.points for c in self)

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
            raise InvalidCard(
                f"Karten doppelt gegeben: {' '.join(dupes)}", f"Cards dealt twice: {' '.join(dupes)}"
            )
        return cls(parts[0], parts[1], parts[2], parts[3])

    def codes(self) -> list[list[str]]:
        return [[c.code for c in part] for part in self]


_PACKETS = ((0, 0, 3), (1, 3, 6), (2, 6, 9), (0, 11, 15), (1, 15, 19), (2, 19, 23), (0, 23, 26), (1, 26, 29), (2, 29, 32))
"""(seat, from, to) of the shuffled pack: 3 each, the skat (positions 9 and 10), 4 each, 3 each."""
_RANGE32 = range(32)


def deal_cards(seed: int | None = None, rng: random.Random | None = None) -> Deal:
    """Shuffle and deal as the Skatordnung prescribes: 3 each, 2 to the skat, 4 each, 3 each.

    Vorhand receives first. The same seed always gives the same deal (on
    little-endian machines, which is all we run on). The shuffle sorts the pack by
    independent uniform 32-bit keys, which gives every order the same chance and is
    several times faster than a Python-level Fisher-Yates loop.
    """
    r = rng if rng is not None else random.Random(seed)
    # 32 independent 32-bit keys from one call to the generator (ties: about 1 in 10 million)
    keys = memoryview(r.getrandbits(1024).to_bytes(128, "little")).cast("I")
    pack = [CARDS[i] for i in sorted(_RANGE32, key=keys.__getitem__)]
    hands: tuple[list[Card], list[Card], list[Card]] = ([], [], [])
    for seat, a, b in _PACKETS:
        hands[seat].extend(pack[a:b])
    return Deal(tuple(hands[0]), tuple(hands[1]), tuple(hands[2]), (pack[9], pack[10]))

"""Card, suit and game names per deck and language: the one place that names a card.

Domain text (exercise prompts, options, feedback, derivations, case texts) never writes
a card or suit name itself. It writes a *reference*, a marker that :func:`render` turns
into the name the reader's deck uses:

>>> from skatschule.engine.cards import parse_card, Suit
>>> text = f"Du möchtest {suit_ref(Suit.SPADES)} spielen und hast {card_ref(parse_card('SQ'))}."
>>> render(text, "de", "french")
'Du möchtest Pik spielen und hast Pik-Dame.'
>>> render(text, "de", "german")
'Du möchtest Grün spielen und hast Grün-Ober.'
>>> render(text, "en", "german")
'Du möchtest leaves spielen und hast Ober of leaves.'
>>> render(f"{article_ref(parse_card('SQ'), 'nom')} sticht", "de", "german")
'der Grün-Ober sticht'
>>> render(f"mit {article_ref(parse_card('CJ'), 'dat')}", "de", "french")
'mit dem Kreuz-Buben'

Markers look like ``⟦kind:arg⟧`` (U+27E6, U+27E7, which never occur in prose):

=================  ==============================================================
``⟦card:SQ⟧``      the card's name: Pik-Dame, Grün-Ober, queen of spades
``⟦suit:S⟧``       the suit's name: Pik, Grün, spades, leaves
``⟦Suit:S⟧``       the same, capitalised in English (start of a sentence, a heading);
                   any kind may be capitalised so (``⟦Card:CJ⟧``, ``⟦Art-nom:CJ⟧``)
``⟦game:spades⟧``  a game: the suit's name for suit games, Grand and Null otherwise
``⟦rank:Q⟧``       a rank: Dame, Ober, queen; ``⟦ranks:Q⟧`` the plural: Damen, Ober, queens
``⟦short:SQ⟧``     the card's short code as the deck prints it: ♠D, ♠Q, Grün-O
``⟦art-nom:SQ⟧``   German article and name, nominative (die Pik-Dame, der Grün-Ober);
                   also ``art-acc`` and ``art-dat``; English: "the queen of spades"
=================  ==============================================================

The French deck uses the ISkO's own names; the four-colour tournament deck is the French
deck with other colours and so names cards the same way. The German deck (Eichel, Grün,
Rot, Schellen; Daus, Ober, Unter) names them as its pictures show.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Literal

from .cards import Card, Rank, Suit, parse_card
from .text import lang_of

__all__ = [
    "DeckNames",
    "DECK_NAMES",
    "DEFAULT_DECK",
    "names_for",
    "card_name",
    "card_ref",
    "cards_ref",
    "suit_ref",
    "game_ref",
    "rank_ref",
    "short_ref",
    "article_ref",
    "render",
    "strip_refs",
]

Case = Literal["nom", "acc", "dat"]
Gender = Literal["m", "f", "n"]

_ARTICLES: dict[Gender, dict[Case, str]] = {
    "m": {"nom": "der", "acc": "den", "dat": "dem"},
    "f": {"nom": "die", "acc": "die", "dat": "der"},
    "n": {"nom": "das", "acc": "das", "dat": "dem"},
}


_WEAK_NOUNS = {"Bube": "Buben"}
"""German nouns that take -n outside the nominative (den Buben, dem Buben)."""


@dataclass(frozen=True, slots=True)
class DeckNames:
    """How one deck names its four suits and eight ranks, in German and English.

    Tuples are indexed like :class:`Suit` (Kreuz, Pik, Herz, Karo) and :class:`Rank`
    (A T K Q J 9 8 7).
    """

    key: str
    suits_de: tuple[str, str, str, str]
    suits_en: tuple[str, str, str, str]
    ranks_de: tuple[str, ...]
    ranks_de_plural: tuple[str, ...]
    genders_de: tuple[Gender, ...]
    ranks_en: tuple[str, ...]
    ranks_en_plural: tuple[str, ...]
    index_de: tuple[str, ...]
    """The corner index printed on the card face under the German interface."""
    index_en: tuple[str, ...]
    """The corner index under the English interface."""

    def suit(self, suit: Suit, lang: str = "de") -> str:
        return self.suits_de[suit] if lang_of(lang) != "en" else self.suits_en[suit]

    def rank(self, rank: Rank, lang: str = "de", *, plural: bool = False) -> str:
        if lang_of(lang) != "en":
            return (self.ranks_de_plural if plural else self.ranks_de)[rank]
        return (self.ranks_en_plural if plural else self.ranks_en)[rank]

    def card(self, card: Card, lang: str = "de") -> str:
        """``Kreuz-Bube``, ``Eichel-Unter``, ``jack of clubs``, ``Unter of acorns``."""
        if lang_of(lang) != "en":
            return f"{self.suits_de[card.suit]}-{self.ranks_de[card.rank]}"
        return f"{self.ranks_en[card.rank]} of {self.suits_en[card.suit]}"

    def index(self, rank: Rank, lang: str = "de") -> str:
        return (self.index_de if lang_of(lang) != "en" else self.index_en)[rank]

    def with_article(self, card: Card, lang: str = "de", case: Case = "nom") -> str:
        if lang != "de":
            return f"the {self.card(card, lang)}"
        name = self.card(card, lang)
        rank = self.ranks_de[card.rank]
        if case != "nom" and rank in _WEAK_NOUNS:  # den/dem Kreuz-Buben (the Unter does not change)
            name = name[: -len(rank)] + _WEAK_NOUNS[rank]
        return f"{_ARTICLES[self.genders_de[card.rank]][case]} {name}"

    def game(self, game: str, lang: str = "de") -> str:
        """A game by its engine value (``clubs`` ... ``grand``, ``null``)."""
        if game in _GAME_SUITS:
            return self.suit(_GAME_SUITS[game], lang)
        return {"grand": "Grand", "null": "Null"}[game]


_GAME_SUITS = {"clubs": Suit.CLUBS, "spades": Suit.SPADES, "hearts": Suit.HEARTS, "diamonds": Suit.DIAMONDS}

_FRENCH = DeckNames(
    key="french",
    suits_de=("Kreuz", "Pik", "Herz", "Karo"),
    suits_en=("clubs", "spades", "hearts", "diamonds"),
    ranks_de=("Ass", "Zehn", "König", "Dame", "Bube", "Neun", "Acht", "Sieben"),
    ranks_de_plural=("Asse", "Zehnen", "Könige", "Damen", "Buben", "Neunen", "Achten", "Siebenen"),
    genders_de=("n", "f", "m", "f", "m", "f", "f", "f"),
    ranks_en=("ace", "ten", "king", "queen", "jack", "nine", "eight", "seven"),
    ranks_en_plural=("aces", "tens", "kings", "queens", "jacks", "nines", "eights", "sevens"),
    index_de=("A", "10", "K", "D", "B", "9", "8", "7"),
    index_en=("A", "10", "K", "Q", "J", "9", "8", "7"),
)

DECK_NAMES: dict[str, DeckNames] = {
    "french": _FRENCH,
    # The tournament deck is the French deck in four colours: same names, same faces.
    "tournament": replace(_FRENCH, key="tournament"),
    # The German deck: Daus, Ober and Unter are kept as proper names in English too
    # (the glossary explains them); the suits get their usual English names.
    "german": DeckNames(
        key="german",
        suits_de=("Eichel", "Grün", "Rot", "Schellen"),
        suits_en=("acorns", "leaves", "hearts", "bells"),
        ranks_de=("Daus", "Zehn", "König", "Ober", "Unter", "Neun", "Acht", "Sieben"),
        ranks_de_plural=("Daus", "Zehnen", "Könige", "Ober", "Unter", "Neunen", "Achten", "Siebenen"),
        genders_de=("n", "f", "m", "m", "m", "f", "f", "f"),
        ranks_en=("Daus", "ten", "king", "Ober", "Unter", "nine", "eight", "seven"),
        ranks_en_plural=("Dauses", "tens", "kings", "Obers", "Unters", "nines", "eights", "sevens"),
        index_de=("A", "10", "K", "O", "U", "9", "8", "7"),
        index_en=("A", "10", "K", "O", "U", "9", "8", "7"),
    ),
}
DEFAULT_DECK = "french"


def names_for(deck: str | None) -> DeckNames:
    """The names of ``deck``; the French (ISkO) names for an unknown or missing deck."""
    return DECK_NAMES.get(deck or DEFAULT_DECK, _FRENCH)


# -- references ------------------------------------------------------------------------


def card_name(card: Card | str, lang: str = "de", deck: str | None = DEFAULT_DECK) -> str:
    """A card's name in ``deck`` (the ISkO's French names by default): ``Kreuz-Bube``,
    ``jack of clubs``, ``Eichel-Unter``."""
    return names_for(deck).card(parse_card(card) if isinstance(card, str) else card, lang)


def card_ref(card: Card | str) -> str:
    code = card if isinstance(card, str) else card.code
    return f"⟦card:{code}⟧"


def cards_ref(cards: Iterable[Card | str], sep: str = ", ") -> str:
    """Several cards, each as a reference, joined by ``sep``."""
    return sep.join(card_ref(c) for c in cards)


def suit_ref(suit: Suit, *, capital: bool = False) -> str:
    return f"⟦{'Suit' if capital else 'suit'}:{suit.letter}⟧"


def game_ref(game: object) -> str:
    """A game by :class:`~skatschule.engine.games.GameType` or its value (``clubs``)."""
    value = getattr(game, "value", game)
    return f"⟦game:{value}⟧"


def rank_ref(rank: Rank, *, plural: bool = False) -> str:
    return f"⟦{'ranks' if plural else 'rank'}:{rank.letter}⟧"


def short_ref(card: Card | str) -> str:
    code = card if isinstance(card, str) else card.code
    return f"⟦short:{code}⟧"


def article_ref(card: Card | str, case: Case = "nom") -> str:
    code = card if isinstance(card, str) else card.code
    return f"⟦art-{case}:{code}⟧"


_REF = re.compile(r"⟦([A-Za-z-]+):([A-Za-z0-9]+)⟧")
_RANK_BY_LETTER = {r.letter: r for r in Rank}
_SUIT_BY_LETTER = {s.letter: s for s in Suit}
_SYMBOLS = ("♣", "♠", "♥", "♦")


def _opens_sentence(text: str, at: int) -> bool:
    """Whether a sentence begins at ``at``: the text's start, a line's start, or after a full
    stop, question or exclamation mark and a space (looks back over the spaces only). A name that
    is the whole text is a fragment for a template's sentence and is left as it is."""
    i = at
    while i > 0 and text[i - 1] in " \t":
        i -= 1
    if i == 0 or text[i - 1] == "\n":
        return True
    return i < at and text[i - 1] in ".!?"


def _name(kind: str, arg: str, lang: str, names: DeckNames) -> str:
    if kind[:1].isupper() and kind != "Suit":
        # any kind with a capital (``⟦Card:CJ⟧``, ``⟦Art-nom:CJ⟧``): the same, capitalised
        text = _name(kind[:1].lower() + kind[1:], arg, lang, names)
        return text[:1].upper() + text[1:]
    if kind == "card":
        return names.card(parse_card(arg), lang)
    if kind in ("suit", "Suit"):
        text = names.suit(_SUIT_BY_LETTER[arg], lang)
        return text[:1].upper() + text[1:] if kind == "Suit" else text
    if kind == "game":
        return names.game(arg, lang)
    if kind in ("rank", "ranks"):
        return names.rank(_RANK_BY_LETTER[arg], lang, plural=kind == "ranks")
    if kind == "short":
        card = parse_card(arg)
        index = names.index(card.rank, lang)
        if names.key == "german":
            return f"{names.suit(card.suit, lang)}-{index}"
        return f"{_SYMBOLS[card.suit]}{index}"
    if kind.startswith("art-") and kind[4:] in ("nom", "acc", "dat"):
        case: Case = kind[4:]  # type: ignore[assignment]
        return names.with_article(parse_card(arg), lang, case)
    raise ValueError(f"unknown name reference ⟦{kind}:{arg}⟧")


def render(text: str, lang: str = "de", deck: str | None = DEFAULT_DECK) -> str:
    """``text`` with every reference replaced by the name ``deck`` uses in ``lang``."""
    if "⟦" not in text:
        return text
    names = names_for(deck)
    lang = lang_of(lang)

    def name(m: re.Match[str]) -> str:
        kind = m.group(1)
        if _opens_sentence(text, m.start()) and text.strip() != m.group(0):
            kind = kind[:1].upper() + kind[1:]  # a name that opens a sentence starts with a capital
        return _name(kind, m.group(2), lang, names)

    return _REF.sub(name, text)


def strip_refs(text: str) -> str:
    """``text`` in the ISkO's own (French) names in German: for logs, search and tests."""
    return render(text, "de", DEFAULT_DECK)

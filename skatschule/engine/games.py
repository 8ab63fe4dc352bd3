"""Game types (Farbspiele, Grand, Null), contracts, trumps, legal cards and tricks.

Every game type precomputes its tables once: the mask of trumps, for each led
card the mask of cards that follow it, and a 32 x 32 table that says whether a
card beats the card currently winning the trick. Legal cards and trick winners
are then a few integer operations.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from .cards import CARDS, Card, CardSet, Rank, Suit, parse_card
from .errors import InvalidDeclaration, SkatError
from .names import game_ref, names_for, render, suit_ref
from .text import lang_of

__all__ = [
    "GameType",
    "Contract",
    "trump_order",
    "legal_cards",
    "trick_winner",
    "is_trump",
    "parse_game",
    "TOTAL_POINTS",
    "WIN_POINTS",
    "SPLIT_POINTS",
    "SCHNEIDER_POINTS",
    "OUT_OF_SCHNEIDER",
    "TRICKS",
    "augen_needed",
    "augen_to_stop",
    "tricks_from_augen",
]

# The game's numbers (ISkO 4.2): one name each, used wherever a rule counts Augen.
TOTAL_POINTS = 120
"""All the Augen of a deck."""
WIN_POINTS = 61
"""The declarer wins a suit or Grand game with his 61st Auge (4.2.2)."""
SPLIT_POINTS = 60
"""60 for each party: lost for the declarer, the defenders win with their 60th Auge."""
SCHNEIDER_POINTS = 90
"""A party with 90 Augen has made the other Schneider (4.2.3)."""
OUT_OF_SCHNEIDER = 31
"""A party with 31 Augen is out of Schneider (4.2.3; a house rule makes it 30 for the defenders)."""
TRICKS = 10
"""The tricks of a game."""

_SUIT_MASK = tuple(0xFF << (8 * s) for s in range(4))
_JACKS = sum(1 << (8 * s + Rank.JACK) for s in range(4))
# Rank order inside a suit when jacks are trumps (Farbspiel, Grand) and in Null.
_SUIT_ORDER = (Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.NINE, Rank.EIGHT, Rank.SEVEN)
_NULL_ORDER = (Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.TEN, Rank.NINE, Rank.EIGHT, Rank.SEVEN)


class GameType(Enum):
    """What the declarer plays: a trump suit, Grand or Null."""

    CLUBS = "clubs"
    SPADES = "spades"
    HEARTS = "hearts"
    DIAMONDS = "diamonds"
    GRAND = "grand"
    NULL = "null"

    # Tables and flags, filled in below for every member: plain attributes, because
    # the game loop reads them for every trick.
    trump_mask: int
    follow_mask: tuple[int, ...]
    beats: tuple[bool, ...]
    trick_winners: bytes
    """Who takes a full trick: entry ``a << 10 | b << 5 | c`` (card indexes in play order)
    is the position (0, 1, 2) of the winning card: one look-up per trick."""
    trumps_in_order: tuple[Card, ...]
    trump_suit: Suit | None
    """The trump suit of a Farbspiel; None for Grand and Null."""
    is_suit_game: bool
    is_null: bool

    # Members are singletons, so identity is equality: hash them by identity, in C,
    # instead of Enum's Python-level hash of the name (they key many small tables).
    __hash__ = object.__hash__

    @property
    def name_de(self) -> str:
        """The game's name in the ISkO (``Kreuz``, ``Grand``), from :mod:`.names`."""
        return names_for(None).game(self.value, "de")

    @property
    def name_en(self) -> str:
        return names_for(None).game(self.value, "en")

    @property
    def max_matadors(self) -> int:
        """Spitzen go up to 11 in a suit game (4 jacks and 7 trump cards) and 4 in Grand."""
        return len(self.trumps_in_order)


_TRUMP_SUIT = {
    GameType.CLUBS: Suit.CLUBS,
    GameType.SPADES: Suit.SPADES,
    GameType.HEARTS: Suit.HEARTS,
    GameType.DIAMONDS: Suit.DIAMONDS,
}
_ALIASES = {
    "kreuz": GameType.CLUBS,
    "eichel": GameType.CLUBS,
    "c": GameType.CLUBS,
    "pik": GameType.SPADES,
    "grün": GameType.SPADES,
    "s": GameType.SPADES,
    "herz": GameType.HEARTS,
    "rot": GameType.HEARTS,
    "h": GameType.HEARTS,
    "karo": GameType.DIAMONDS,
    "schellen": GameType.DIAMONDS,
    "d": GameType.DIAMONDS,
    "g": GameType.GRAND,
    "n": GameType.NULL,
}


def parse_game(text: str) -> GameType:
    """``"clubs"``, ``"Kreuz"``, ``"grand"``, ``"null"`` ... into a :class:`GameType`."""
    key = text.strip().lower() if isinstance(text, str) else ""
    try:
        return GameType(key)
    except ValueError:
        pass
    if key in _ALIASES:
        return _ALIASES[key]
    raise SkatError(
        f"Unbekanntes Spiel {text!r}: erlaubt sind clubs, spades, hearts, diamonds, grand, null",
        f"Unknown game {text!r}: use clubs, spades, hearts, diamonds, grand or null",
    )


def _build_tables() -> None:
    for game in GameType:
        suit = _TRUMP_SUIT.get(game)
        # The trumps from the highest down: jacks, then the trump suit without its jack.
        order: list[Card] = []
        if game is not GameType.NULL:
            order = [CARDS[8 * s + Rank.JACK] for s in range(4)]
            if suit is not None:
                order += [CARDS[8 * suit + r] for r in _SUIT_ORDER]
        trump_mask = sum(c.bit for c in order)
        # strength: trumps 100+, plain cards by rank within their suit (1..8)
        trump_strength = {c.index: 100 + (len(order) - i) for i, c in enumerate(order)}
        rank_order = _NULL_ORDER if game is GameType.NULL else _SUIT_ORDER
        plain_strength = {r: len(rank_order) - i for i, r in enumerate(rank_order)}

        def group(c: Card, trump_mask: int = trump_mask) -> int:
            # -1 for trumps, else the suit
            return -1 if c.bit & trump_mask else int(c.suit)

        follow = []
        for c in CARDS:
            if c.bit & trump_mask:
                follow.append(trump_mask)
            else:
                follow.append(_SUIT_MASK[c.suit] & ~trump_mask)
        beats = []
        for challenger in CARDS:
            for winner in CARDS:
                if challenger.index in trump_strength or winner.index in trump_strength:
                    beats.append(trump_strength.get(challenger.index, 0) > trump_strength.get(winner.index, 0))
                else:
                    beats.append(
                        group(challenger) == group(winner)
                        and plain_strength[challenger.rank] > plain_strength[winner.rank]
                    )
        game.trump_suit = suit
        game.is_suit_game = suit is not None
        game.is_null = game is GameType.NULL
        game.trump_mask = trump_mask
        game.follow_mask = tuple(follow)
        game.beats = tuple(beats)
        game.trick_winners = _winner_table(beats)
        game.trumps_in_order = tuple(order)


def _winner_table(beats: list[bool]) -> bytes:
    # column[w][c]: 1 if card c beats card w. For each (a, b) the row over c is that
    # column for the better of a and b, translated to positions (0 -> best of a, b; 1 -> 2).
    column = [bytes(beats[c * 32 + w] for c in range(32)) for w in range(32)]
    rows = []
    for a in range(32):
        for b in range(32):
            b_wins = beats[b * 32 + a]
            rows.append(column[b if b_wins else a].translate(bytes((int(b_wins), 2)) + bytes(254)))
    return b"".join(rows)


_build_tables()


def is_trump(game: GameType, card: Card) -> bool:
    """Is ``card`` a trump in ``game``? (Jacks always, except in Null.)"""
    return bool(game.trump_mask & card.bit)


def trump_order(game: GameType) -> tuple[Card, ...]:
    """The trumps of ``game`` from the highest (Kreuz-Bube) down; empty for Null."""
    return game.trumps_in_order


def legal_cards(game: GameType, hand: CardSet, trick: Sequence[Card]) -> CardSet:
    """The cards of ``hand`` that may be played to ``trick`` (0-2 cards already played).

    Whoever can follow the led suit (or trump, when trump is led) must; otherwise
    any card may be played (ISkO 3.2.1, 3.2.2).
    """
    if not trick:
        return hand
    following = hand.mask & game.follow_mask[trick[0].index]
    return CardSet(following) if following else hand


def trick_winner(game: GameType, trick: Sequence[Card]) -> int:
    """Index (0-2) of the card that takes the trick so far (ISkO 3.4.2)."""
    if not trick:
        raise SkatError("Ein leerer Stich hat keinen Gewinner", "An empty trick has no winner")
    beats = game.beats
    best = 0
    for i in range(1, len(trick)):
        if beats[trick[i].index * 32 + trick[best].index]:
            best = i
    return best


@dataclass(frozen=True, slots=True)
class Contract:
    """A declaration: the game and its announcements.

    ``hand`` means the skat was not picked up. Announcements are normalised:
    Schwarz angesagt includes Schneider angesagt, and an open suit or Grand
    game counts as Schwarz angesagt (ISkO 4.2.5, 4.2.6).
    """

    game: GameType
    hand: bool = False
    ouvert: bool = False
    schneider_announced: bool = False
    schwarz_announced: bool = False

    def __post_init__(self) -> None:
        if not self.game.is_null:
            if self.ouvert:
                object.__setattr__(self, "schwarz_announced", True)
            if self.schwarz_announced:
                object.__setattr__(self, "schneider_announced", True)

    @classmethod
    def parse(cls, text: str) -> Contract:
        """``"clubs hand schneider_angesagt"``, ``"null ouvert"``, ``"grand ouvert hand"`` ..."""
        words = text.lower().replace(",", " ").split()
        if not words:
            raise SkatError("Keine Spielansage angegeben", "No declaration given")
        game = parse_game(words[0])
        flags = set(words[1:])
        unknown = flags - _CONTRACT_WORDS
        if unknown:
            raise SkatError(
                f"Unbekannte Angabe in der Spielansage: {' '.join(sorted(unknown))}",
                f"Unknown word in the declaration: {' '.join(sorted(unknown))}",
            )
        return cls(
            game,
            hand="hand" in flags,
            ouvert="ouvert" in flags or "offen" in flags,
            schneider_announced=bool(flags & {"schneider_angesagt", "schneider_announced"}),
            schwarz_announced=bool(flags & {"schwarz_angesagt", "schwarz_announced"}),
        )

    @property
    def is_open(self) -> bool:
        return self.ouvert

    def problems(self) -> list[tuple[str, str]]:
        """Why this declaration is not allowed (German, English); empty when it is valid."""
        out: list[tuple[str, str]] = []
        if self.game.is_null:
            if self.schneider_announced or self.schwarz_announced:
                out.append(
                    (
                        "Im Nullspiel gibt es keine Gewinnstufen: Schneider oder Schwarz kann nicht angesagt werden",
                        "A Null game has no levels: Schneider or Schwarz cannot be announced",
                    )
                )
            return out
        if not self.hand:
            if self.ouvert:
                out.append(
                    (
                        f"⟦game:{self.game.value}⟧ ouvert ist nur als Handspiel erlaubt, nicht nach Aufnahme des Skats",
                        f"Open ⟦game:{self.game.value}⟧ is allowed only as a hand game, not after picking up the skat",
                    )
                )
            elif self.schwarz_announced:
                out.append(
                    (
                        "Schwarz ansagen darf nur, wer den Skat nicht aufgenommen hat (Handspiel)",
                        "Schwarz may only be announced in a hand game, not after picking up the skat",
                    )
                )
            elif self.schneider_announced:
                out.append(
                    (
                        "Schneider ansagen darf nur, wer den Skat nicht aufgenommen hat (Handspiel)",
                        "Schneider may only be announced in a hand game, not after picking up the skat",
                    )
                )
        return out

    @property
    def is_valid(self) -> bool:
        # The same conditions as :meth:`problems`, without building the messages.
        if self.game.is_null:
            return not (self.schneider_announced or self.schwarz_announced)
        return self.hand or not (self.ouvert or self.schwarz_announced or self.schneider_announced)

    def validate(self) -> None:
        """Raise :class:`InvalidDeclaration` if the ISkO forbids this declaration (ISkO 2.4.4)."""
        if self.is_valid:
            return
        problems = _problems(self)
        raise InvalidDeclaration(problems[0][0], problems[0][1])

    def ref(self, lang: str = "de", *, capital: bool = False, game: str | None = None) -> str:
        """The contract's one name, with the game as a name reference for the reader's deck:
        ``⟦game:clubs⟧ Hand Schneider angesagt``, ``⟦game:null⟧ ouvert Hand``. ``capital``
        starts an English name with a capital (``⟦Suit:C⟧ Hand``); ``game`` names a house game
        in place of the engine's (``Revolution ouvert Hand``).

        What an ouvert suit or Grand game implies (Hand, Schwarz angesagt) is not said again;
        an announcement the ISkO forbids is named, so an invalid declaration keeps its fault
        (``⟦game:null⟧ Hand Schneider angesagt``)."""
        de = lang_of(lang) != "en"
        suit = self.game.trump_suit
        if game is not None:
            parts = [game]
        else:
            parts = [suit_ref(suit, capital=True) if capital and not de and suit is not None else game_ref(self.game)]
        if self.ouvert:
            parts.append("ouvert")
        if self.hand and not (self.ouvert and not self.game.is_null):
            parts.append("Hand")
        if self.game.is_null or not self.ouvert:
            if self.schwarz_announced:
                parts.append("Schwarz angesagt" if de else "Schwarz announced")
            elif self.schneider_announced:
                parts.append("Schneider angesagt" if de else "Schneider announced")
        return " ".join(parts)

    def name(self, lang: str = "de") -> str:
        """``Kreuz Hand Schneider angesagt``, ``Null ouvert Hand``, ``Grand ouvert`` ...: :meth:`ref`
        in the ISkO's (French) names."""
        return render(self.ref(lang, capital=True), lang)

    def __str__(self) -> str:
        return self.name("de")


def augen_needed(contract: Contract) -> int | None:
    """The Augen the declarer needs to win ``contract``: 61, or 90 with Schneider announced
    (4.2.2, 4.2.5); None in Null and with Schwarz announced, where tricks decide, not Augen.
    Whether the game was overbid is not looked at."""
    if contract.game.is_null or contract.schwarz_announced:
        return None
    return SCHNEIDER_POINTS if contract.schneider_announced else WIN_POINTS


def augen_to_stop(need: int) -> int:
    """The Augen the other party needs so that a party cannot reach ``need``: 60 against 61,
    31 against 90 (out of Schneider), 1 against 120."""
    return TOTAL_POINTS - need + 1


def tricks_from_augen(points: int, *, schwarz: bool = False) -> int:
    """The declarer's tricks in a suit or Grand game when only his Augen are known: all ten with
    all 120 Augen, none with none, otherwise five (only Schwarz depends on the count). With
    ``schwarz`` (someone took every trick) the Augen say who: ten tricks from 61 Augen on."""
    if schwarz:
        return TRICKS if points >= WIN_POINTS else 0
    return TRICKS if points == TOTAL_POINTS else 0 if points == 0 else TRICKS // 2


@functools.cache
def _problems(contract: Contract) -> tuple[tuple[str, str], ...]:
    """Cached :meth:`Contract.problems`: there are only a few dozen contracts."""
    return tuple(contract.problems())


_CONTRACT_WORDS = {
    "hand",
    "ouvert",
    "offen",
    "schneider_angesagt",
    "schneider_announced",
    "schwarz_angesagt",
    "schwarz_announced",
}


def card(text: str) -> Card:
    """Shorthand for :func:`parse_card`, handy in examples."""
    return parse_card(text)

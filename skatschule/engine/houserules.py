"""House-rule games under the one variant model (chapter K.5 and K.7; not ISkO).

A house-rule profile is a :class:`~.rules.RuleSet`: the ISkO plus named switches. A score
sheet enters a finished game as a :class:`HouseGame`; :func:`score_house` hands it to
:func:`.scoring.score_game`, the one function that values every game under every rule set:
won or lost, Schneider, Schwarz, overbid, the unplayable Null of 2.4.4 and each switch (K.7)
are decided there, each deviation named in the derivation.

Here also: the named profiles, the Revolution's variants, and the cards of the Spitze and
the Saxon Spitze.

Game names in derivation texts are references (``⟦game:clubs⟧``) that
:func:`.names.render` turns into the reader's deck and language.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from .cards import Card, Rank, Suit
from .errors import SkatError
from .games import Contract, GameType
from .rules import (
    DOUBLING_LEVELS,
    EXTENDED_DOUBLING_LEVELS,
    ISKO,
    REVOLUTION_VALUE,
    SAXON_BASE,
    SWITCHES,
    HandOverbid,
    RuleSet,
    Special,
    house_rule,
)
from .scoring import HouseCalls, Outcome, score_game

__all__ = [
    "Special",
    "HandOverbid",
    "HouseGame",
    "score_house",
    "house_rule",
    "doublings",
    "PROFILES",
    "DOUBLING_LEVELS",
    "EXTENDED_DOUBLING_LEVELS",
    "SWITCHES",
    "Revolution",
    "REVOLUTION_VARIANTS",
    "spitze_cards",
    "spitze_made",
    "saxon_trick_winner",
    "REVOLUTION_VALUE",
    "SAXON_BASE",
]


@dataclass(frozen=True, slots=True)
class Revolution:
    """What a Revolution variant allows (K.5.1): its value is always 92."""

    variant: int
    defenders_swap: bool
    defenders_take_skat: bool
    declarer_leads: bool
    hand: bool


REVOLUTION_VARIANTS: Mapping[int, Revolution] = MappingProxyType(
    {
        1: Revolution(1, defenders_swap=True, defenders_take_skat=False, declarer_leads=False, hand=True),
        2: Revolution(2, defenders_swap=False, defenders_take_skat=True, declarer_leads=False, hand=False),
        3: Revolution(3, defenders_swap=True, defenders_take_skat=True, declarer_leads=True, hand=False),
    }
)

PROFILES: Mapping[str, RuleSet] = MappingProxyType(
    {
        "isko": RuleSet(),
        "alt": RuleSet(grand_ouvert_base=36, hand_not_punished=True),
        "kneipe": RuleSet(jacks_only_matadors=True, hand_overbid=HandOverbid.SKAT, schneider_at_30=True),
        "bunt": RuleSet(
            jacks_only_matadors=True,
            spitze=True,
            rum=True,
            revolution=1,
            saxon_spitze=True,
            doubling_levels=EXTENDED_DOUBLING_LEVELS,
        ),
    }
)


@dataclass(frozen=True, slots=True)
class HouseGame:
    """A finished game as a score sheet enters it.

    ``matadors`` counts over all the declarer's cards, skat included, as the ISkO does
    (``+N`` mit, ``-N`` ohne); a profile that counts only jacks cuts it down.
    ``matadors_without_skat`` is needed only for a hand game that the skat made overbid.
    """

    game: GameType | None = None
    special: Special | None = None
    hand: bool = False
    ouvert: bool = False
    schneider_announced: bool = False
    schwarz_announced: bool = False
    matadors: int = 0
    matadors_without_skat: int | None = None
    bid: int = 18
    declarer_points: int = 0
    declarer_tricks: int = 0
    conceded: bool = False
    spitze: int = 0
    spitze_made: bool = True
    rum: bool = False
    doublings: int = 0
    bock: bool = False


def doublings(*, kontra: bool, re: bool, more: int, null_closed: bool, pub: bool) -> int:
    """How many times Kontra, Re and the further levels double a game (K.1, K.7.10), checked:
    only under pub rules, Re only after Kontra, further levels only after Re, no Re on a Null
    or Null Hand (``null_closed``)."""
    if (kontra or re or more) and not pub:
        raise SkatError("Kontra und Re nur mit Kneipenregeln (K.1)", "Kontra and Re only with pub rules (K.1)")
    if re and not kontra:
        raise SkatError("Re gibt es nur nach einem Kontra (K.1.3)", "Re is only possible after a Kontra (K.1.3)")
    if more < 0 or (more and not re):
        raise SkatError("Weitere Stufen erst nach Re (K.7.10)", "Further levels only after Re (K.7.10)")
    if re and null_closed:
        raise SkatError("Auf Null und Null Hand gibt es kein Re (K.1.3)", "There is no Re on Null or Null Hand (K.1.3)")
    return int(kontra) + int(re) + more


def score_house(game: HouseGame, rules: RuleSet = ISKO) -> Outcome:
    """Value ``game`` under ``rules`` with :func:`.scoring.score_game`, the one scoring
    function: this only hands the sheet's record over as a contract and house calls (the
    Revolution on a Null contract, the Saxon Spitze on a Grand contract). Under rules with
    Kontra (the pub rules) ``game.doublings`` counts Kontra, Re and the further levels."""
    if (game.game is None) == (game.special is None):
        raise SkatError("Entweder ein Spiel der ISkO oder ein Sonderspiel", "Either an ISkO game or a special game")
    if game.special is Special.REVOLUTION:
        kind = GameType.NULL
    elif game.special is Special.SAXON:
        kind = GameType.GRAND
    else:
        assert game.game is not None
        kind = game.game
    null_like = kind.is_null
    contract = Contract(
        kind,
        hand=game.hand,
        ouvert=game.ouvert,
        schneider_announced=game.schneider_announced and not null_like,
        schwarz_announced=game.schwarz_announced and not null_like,
    )
    calls = HouseCalls(
        special=game.special,
        spitze=game.spitze,
        spitze_made=game.spitze_made,
        rum=game.rum,
        more=max(0, game.doublings - 2),
        conceded=game.conceded,
        matadors_without_skat=game.matadors_without_skat,
        announced=(game.schneider_announced, game.schwarz_announced),
    )
    if not 0 <= game.doublings <= len(rules.doubling_levels):
        levels = rules.doubling_levels
        raise SkatError(
            f"Höchstens {len(levels)} Verdopplungen ({', '.join(levels)})",
            f"At most {len(levels)} doublings ({', '.join(levels)})",
        )
    return score_game(
        contract,
        0 if null_like else game.matadors,
        bid=game.bid,
        declarer_points=game.declarer_points,
        declarer_tricks=game.declarer_tricks,
        rules=rules,
        kontra=game.doublings >= 1,
        re=game.doublings >= 2,
        bock=game.bock,
        null_matadors=game.matadors if kind is GameType.NULL and game.special is None and game.matadors else None,
        calls=calls,
    )


# ---- Spitze and Saxon Spitze: the cards


def spitze_cards(game: GameType, count: int) -> tuple[Card, ...]:
    """The game's lowest trumps that must take the last ``count`` tricks, last trick first
    (K.5.5): in a suit game the seven of trumps, then the eight ...; in Grand the jack of
    diamonds, then of hearts ..."""
    if game.is_null:
        raise SkatError("Nullspiele haben keine Spitze", "Null games have no Spitze")
    if not 1 <= count <= 4:
        raise SkatError("Angesagt werden 1 bis 4 Spitzen", "1 to 4 Spitzen may be announced")
    return tuple(reversed(game.trumps_in_order))[:count]


def spitze_made(game: GameType, count: int, winning_cards: Sequence[Card]) -> bool:
    """Did the declarer take the last ``count`` tricks with the announced trumps?
    ``winning_cards`` holds the card that won each of the last tricks for the declarer,
    last trick first (``None``-free; a trick the declarer lost breaks the Spitze)."""
    needed = spitze_cards(game, count)
    return len(winning_cards) >= count and tuple(winning_cards[:count]) == needed


_SAXON_SUIT_ORDER = (Rank.SEVEN, Rank.EIGHT, Rank.NINE, Rank.QUEEN, Rank.KING, Rank.TEN, Rank.ACE)
_SAXON_JACKS = (Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES, Suit.CLUBS)


def _saxon_strength(card: Card, led: Suit) -> int:
    if card.rank is Rank.JACK:
        return 100 + (len(_SAXON_JACKS) - _SAXON_JACKS.index(card.suit))
    if card.suit is led:
        return 50 + (len(_SAXON_SUIT_ORDER) - _SAXON_SUIT_ORDER.index(card.rank))
    return 0


def saxon_trick_winner(trick: Sequence[Card]) -> int:
    """Position (0-2) of the card that takes a full trick in Saxon Spitze (K.5.5): jacks
    are trumps with the jack of diamonds highest, and in the suits the order runs upwards
    from the seven (seven highest, ace lowest)."""
    if len(trick) != 3:
        raise SkatError("Ein Stich hat drei Karten", "A trick has three cards")
    first = trick[0]
    led = first.suit if first.rank is not Rank.JACK else None
    strengths = [
        (100 + (4 - _SAXON_JACKS.index(c.suit)))
        if c.rank is Rank.JACK
        else (_saxon_strength(c, led) if led is not None else 0)
        for c in trick
    ]
    return max(range(3), key=lambda i: strengths[i])

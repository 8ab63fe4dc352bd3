"""Rule sets as data: the ISkO, the older Skatordnung (pre1999) and pub rules.

A rule set is a frozen record of numbers and switches; the scoring code reads
it and never asks for a rule set by name.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from .errors import SkatError
from .games import GameType

__all__ = ["RuleSet", "ISKO", "PRE1999", "PUB", "RULESETS", "get_rules"]

_BASE = MappingProxyType(
    {
        GameType.DIAMONDS: 9,
        GameType.HEARTS: 10,
        GameType.SPADES: 11,
        GameType.CLUBS: 12,
        GameType.GRAND: 24,
    }
)
# (hand, ouvert) -> fixed value of the Null game
_NULL = MappingProxyType({(False, False): 23, (True, False): 35, (False, True): 46, (True, True): 59})


@dataclass(frozen=True)
class RuleSet:
    """Everything in which rule sets differ, as plain data."""

    name: str
    title_de: str
    title_en: str
    base_values: Mapping[GameType, int] = field(default_factory=lambda: _BASE)
    null_values: Mapping[tuple[bool, bool], int] = field(default_factory=lambda: _NULL)
    grand_ouvert_base: int = 24
    """Base value of Grand ouvert (24 in the ISkO, 36 before 1999)."""
    grand_ouvert_level: bool = True
    """Does ``offen`` count as a level in Grand ouvert? (not before 1999)"""
    lost_factor: int = 2
    """A lost game is written with this multiple of its value."""
    lost_hand_factor: int = 2
    """The same for lost hand games (1 before 1999: "Hand wird nicht bestraft")."""
    doublings: bool = False
    """Kontra, Re and Bock each double the list entry (pub rules)."""
    ramsch_when_passed: bool = False
    """Pub rules play Ramsch instead of throwing in the deal."""
    rule_ids: tuple[str, ...] = ()

    def base_value(self, game: GameType, ouvert: bool = False) -> int:
        if game is GameType.NULL:
            raise SkatError("Nullspiele haben keinen Grundwert", "Null games have no base value")
        if game is GameType.GRAND and ouvert:
            return self.grand_ouvert_base
        return self.base_values[game]

    def null_value(self, hand: bool, ouvert: bool) -> int:
        return self.null_values[(hand, ouvert)]

    def loss_factor(self, hand: bool) -> int:
        return self.lost_hand_factor if hand else self.lost_factor

    def bid_values(self) -> list[int]:
        """Every value a game can have under these rules, i.e. every legal bid (ascending)."""
        values: set[int] = set(self.null_values.values())
        for game, base in self.base_values.items():
            top = 18 if game is not GameType.GRAND else 11
            for multiplier in range(2, top + 1):
                values.add(base * multiplier)
        if self.grand_ouvert_base != self.base_values[GameType.GRAND]:
            # Grand ouvert is a hand game with Schwarz angesagt: at least 7 Fälle.
            top = 4 + 6 + (1 if self.grand_ouvert_level else 0)
            for multiplier in range(7, top + 1):
                values.add(self.grand_ouvert_base * multiplier)
        return sorted(v for v in values if v >= 18)


ISKO = RuleSet("isko", "Internationale Skatordnung", "International Skat Rules")
PRE1999 = RuleSet(
    "pre1999",
    "Skatordnung vor 1999",
    "Skat order before 1999",
    grand_ouvert_base=36,
    grand_ouvert_level=False,
    lost_hand_factor=1,
)
PUB = RuleSet(
    "pub",
    "Kneipenregeln (nicht ISkO)",
    "Pub rules (not ISkO)",
    doublings=True,
    ramsch_when_passed=True,
)
RULESETS: Mapping[str, RuleSet] = MappingProxyType({r.name: r for r in (ISKO, PRE1999, PUB)})


def get_rules(name: str | RuleSet | None) -> RuleSet:
    if isinstance(name, RuleSet):
        return name
    if name is None:
        return ISKO
    try:
        return RULESETS[name]
    except KeyError:
        raise SkatError(
            f"Unbekannte Regeln {name!r}: isko, pre1999 oder pub",
            f"Unknown rules {name!r}: isko, pre1999 or pub",
        ) from None

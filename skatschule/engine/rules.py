"""Rule sets: the ISkO plus named deviations (one variant model).

A :class:`RuleSet` is the ISkO with a frozen record of named switches, like the options
of a Skat program (and like python-chess's one ``Board`` with variant hooks): the older
Skatordnung (``pre1999``), the pub rules (``pub``) and every house-rule switch of chapter
K.7 are switches of this one model. With every switch off it is the ISkO. The scoring
code reads the numbers the switches give (:meth:`RuleSet.base_value`,
:meth:`RuleSet.loss_factor` ...) and never asks for a rule set by name.

:data:`SWITCHES` is the one list of the house-rule switches, with their rule ids and
bilingual labels (engine :class:`~.explain.Text`), for the score sheet and the exercises.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from enum import Enum
from types import MappingProxyType

from .errors import SkatError
from .explain import Text
from .games import OUT_OF_SCHNEIDER, GameType

__all__ = [
    "RuleSet",
    "Special",
    "REVOLUTION_VALUE",
    "SAXON_BASE",
    "HandOverbid",
    "BockReading",
    "Switch",
    "SWITCHES",
    "DOUBLING_LEVELS",
    "EXTENDED_DOUBLING_LEVELS",
    "ISKO",
    "PRE1999",
    "PUB",
    "RULESETS",
    "get_rules",
    "house_rule",
]

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

DOUBLING_LEVELS = ("Kontra", "Re")
EXTENDED_DOUBLING_LEVELS = ("Kontra", "Re", "Bock", "Hirsch", "Blatt", "Lachs", "Schuss")
"""Seed 002's further doublings after Re (Hirsch is also called Tischkante-Stuhl)."""


REVOLUTION_VALUE = 92
"""The Revolution's fixed value (K.5.1)."""
SAXON_BASE = 20
"""The Saxon Spitze's base value (K.5.5)."""

_KEYS: dict[tuple[object, ...], int] = {}


class Special(Enum):
    """Games that exist only under a house switch: the Revolution (K.5.1, a Null-like game
    worth 92) and the Saxon Spitze (K.5.5, a Grand-like game with base value 20)."""

    REVOLUTION = "revolution"
    SAXON = "saxon"


class HandOverbid(Enum):
    """How a hand game that would be overbid by the skat counts when it may not be overbid (K.5.8)."""

    HAND = "hand"
    """At the value of the hand cards (without the skat)."""
    SKAT = "skat"
    """At the value with the skat."""


class BockReading(Enum):
    """How "Kontra verloren" starts a Bock round (K.2.1): the seeds read it two ways."""

    DECLARER_LOST = "declarer_lost"
    """Seed 004 (the default): the declarer lost a game with Kontra; Kontra with Re triggers
    whatever the result."""
    DEFENDERS_LOST = "defenders_lost"
    """Seed 002's pairing "verlorenes Kontra oder gewonnenes Re": the defenders who said Kontra
    lost it, i.e. the declarer won a Kontra game; Kontra with Re triggers whatever the result."""


@dataclass(frozen=True)
class RuleSet:
    """The ISkO plus named deviations: every field below the titles is a switch whose
    default is the ISkO."""

    name: str = field(default="house", compare=False)
    title_de: str = field(default="Hausregeln", compare=False)
    title_en: str = field(default="House rules", compare=False)
    jacks_only_matadors: bool = False
    """K.7.2: at most the four jacks count as matadors."""
    grand_base: int = 24
    """K.7.3: Grand 24 (ISkO) or 20."""
    grand_ouvert_base: int | None = None
    """K.7.3: 36 or 30: Grand ouvert with its own base value and without the level "offen"
    (the older Skatordnung: 36)."""
    schneider_doubles: bool = False
    """K.7.4: Schneider and Schwarz double the value instead of adding a multiplier."""
    hand_not_punished: bool = False
    """K.7.5: a lost hand game counts single (the older Skatordnung)."""
    hand_overbid: HandOverbid | None = None
    """K.7.5: None: a hand game can be overbid (ISkO 4.4.2)."""
    schneider_at_30: bool = False
    """K.7.4: the defenders are out of Schneider with 30 (the declarer is not helped)."""
    free_announcements: bool = False
    revolution: int | None = None
    spitze: bool = False
    rum: bool = False
    saxon_spitze: bool = False
    doubling_levels: tuple[str, ...] = DOUBLING_LEVELS
    """K.7.10: the names of the doublings in order, Kontra and Re first."""
    doublings: bool = False
    """Pub rules: Kontra, Re and Bock each double the list entry."""
    ramsch_when_passed: bool = False
    """Pub rules: Ramsch instead of throwing in the deal."""
    bock_reading: BockReading = BockReading.DECLARER_LOST
    """Pub rules: how "Kontra verloren" starts a Bock round (K.2.1)."""
    rule_ids: tuple[str, ...] = field(default=(), compare=False)
    house: bool = field(default=True, compare=False)
    """Are the deviations house rules, named in a derivation as they apply (``Hausregel „Grand
    20“``)? Not for the named rule sets (the ISkO, the older Skatordnung, whose numbers are its
    own rules, and the pub rules) until a house switch is set on them."""
    key: int = field(default=0, init=False, compare=False, repr=False)
    """A small number for the switches (equal rule sets share it): a cheap cache key."""

    def __post_init__(self) -> None:
        if self.grand_base not in (20, 24):
            raise SkatError("Der Grand zählt 24 oder 20", "Grand counts 24 or 20")
        if self.grand_ouvert_base not in (None, 36, 30):
            raise SkatError("Grand ouvert zählt wie der Grand, 36 oder 30", "Grand ouvert counts as Grand, 36 or 30")
        if self.revolution not in (None, 1, 2, 3):
            raise SkatError("Die Revolution hat die Spielweisen 1, 2 und 3", "Revolution has the variants 1, 2 and 3")
        levels = self.doubling_levels
        if (
            tuple(levels[:2]) != DOUBLING_LEVELS
            or len(set(levels)) != len(levels)
            or not all(isinstance(n, str) and n.strip() for n in levels)
        ):
            raise SkatError(
                "Die Verdopplungen beginnen mit Kontra und Re, jede mit eigenem Namen",
                "The doublings start with Kontra and Re, each with a name of its own",
            )
        switches = tuple(getattr(self, f.name) for f in fields(self) if f.compare)
        object.__setattr__(self, "key", _KEYS.setdefault(switches, len(_KEYS)))

    # ---- the numbers the switches give

    @property
    def base_values(self) -> Mapping[GameType, int]:
        if self.grand_base == _BASE[GameType.GRAND]:
            return _BASE
        return MappingProxyType({**_BASE, GameType.GRAND: self.grand_base})

    @property
    def null_values(self) -> Mapping[tuple[bool, bool], int]:
        return _NULL

    @property
    def grand_ouvert_level(self) -> bool:
        """Does ``offen`` count as a level in Grand ouvert? (not with its own base value)"""
        return self.grand_ouvert_base is None

    @property
    def lost_factor(self) -> int:
        """A lost game is written with this multiple of its value (4.3.4)."""
        return 2

    @property
    def lost_hand_factor(self) -> int:
        """The same for lost hand games (1 under "Hand wird nicht bestraft")."""
        return 1 if self.hand_not_punished else 2

    def base_value(self, game: GameType, ouvert: bool = False) -> int:
        if game is GameType.NULL:
            raise SkatError("Nullspiele haben keinen Grundwert", "Null games have no base value")
        if game is GameType.GRAND:
            if ouvert and self.grand_ouvert_base is not None:
                return self.grand_ouvert_base
            return self.grand_base
        return _BASE[game]

    def null_value(self, hand: bool, ouvert: bool) -> int:
        return _NULL[(hand, ouvert)]

    def loss_factor(self, hand: bool) -> int:
        return self.lost_hand_factor if hand else self.lost_factor

    @property
    def out_of_schneider(self) -> int:
        """The defenders are out of Schneider with this many Augen: 31, or 30 under "mit 30 aus dem
        Schneider" (K.7.4; it helps the defenders only, the declarer is Schneider with 30)."""
        return OUT_OF_SCHNEIDER - 1 if self.schneider_at_30 else OUT_OF_SCHNEIDER

    def max_matadors(self, game: GameType) -> int:
        """The most matadors that count in ``game`` (4 with jacks only)."""
        return min(game.max_matadors, 4) if self.jacks_only_matadors else game.max_matadors

    def bid_values(self) -> list[int]:
        """Every value a game can have under these rules, i.e. every legal bid (ascending)."""
        values: set[int] = set(self.null_values.values())
        for game, base in self.base_values.items():
            top = 18 if game is not GameType.GRAND else 11
            for multiplier in range(2, top + 1):
                values.add(base * multiplier)
        if self.grand_ouvert_base is not None:
            # Grand ouvert is a hand game with Schwarz angesagt: at least 7 Fälle.
            top = 4 + 6 + (1 if self.grand_ouvert_level else 0)
            for multiplier in range(7, top + 1):
                values.add(self.grand_ouvert_base * multiplier)
        return sorted(v for v in values if v >= 18)

    # ---- the switches as data

    @property
    def is_isko(self) -> bool:
        return self == ISKO

    def switches(self) -> dict[str, object]:
        """The house-rule switches that differ from the ISkO, by field name."""
        return {name: getattr(self, name) for name in _SWITCH_FIELDS if getattr(self, name) != getattr(ISKO, name)}

    def as_dict(self) -> dict[str, object]:
        out: dict[str, object] = {}
        for name, value in self.switches().items():
            out[name] = value.value if isinstance(value, Enum) else list(value) if isinstance(value, tuple) else value
        return out

    def with_switches(self, data: Mapping[str, object]) -> RuleSet:  # noqa: C901 - over the budget since issue 27; to be split
        """This rule set with the house-rule switches of ``data`` (field name -> value) set."""
        unknown = set(data) - set(_SWITCH_FIELDS)
        if unknown:
            raise SkatError(
                f"Unbekannte Schalter: {', '.join(sorted(unknown))}", f"Unknown switches: {', '.join(sorted(unknown))}"
            )
        kwargs: dict[str, object] = dict(data)
        for name, enum in (("hand_overbid", HandOverbid), ("bock_reading", BockReading)):
            if kwargs.get(name) is not None and not isinstance(kwargs[name], enum):
                try:
                    kwargs[name] = enum(kwargs[name])
                except ValueError:
                    choices = " / ".join(e.value for e in enum)
                    raise SkatError(f"{name}: {choices}", f"{name}: {choices}") from None
        if "bock_reading" in kwargs and kwargs["bock_reading"] is None:
            kwargs["bock_reading"] = BockReading.DECLARER_LOST
        if "doubling_levels" in kwargs:
            levels = kwargs["doubling_levels"]
            if not isinstance(levels, (list, tuple)):
                raise SkatError("doubling_levels: eine Liste von Namen", "doubling_levels: a list of names")
            kwargs["doubling_levels"] = tuple(levels)
        for name in _SWITCH_FIELDS:
            if name in kwargs and _BOOL_SWITCH.get(name) and not isinstance(kwargs[name], bool):
                raise SkatError(f"{name}: ja oder nein", f"{name}: yes or no")
        for name in ("grand_base", "grand_ouvert_base", "revolution"):
            value = kwargs.get(name)
            if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
                raise SkatError(f"{name}: eine Zahl", f"{name}: a number")
        if "grand_base" in kwargs and kwargs["grand_base"] is None:
            kwargs["grand_base"] = 24
        if kwargs.get("revolution") == 0:
            kwargs["revolution"] = None  # 0: no Revolution, like an absent switch
        return replace(self, house=self.house or bool(kwargs), **kwargs)  # type: ignore[arg-type]

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> RuleSet:
        """The ISkO with the switches of ``data`` (as :meth:`as_dict` writes them)."""
        return ISKO.with_switches(data)

    @property
    def label(self) -> Text:
        return Text(self.title_de, self.title_en)

    def active_switches(self) -> tuple[tuple[Switch, Text], ...]:
        """The switches that differ from the ISkO, in :data:`SWITCHES` order, each with its name
        and, where it says more, its value (``Grand ouvert 36 oder 30: 36``) in both languages."""
        on = self.switches()
        out = []
        for switch in SWITCHES:
            if switch.field not in on:
                continue
            value = on[switch.field]
            label = switch.label
            if isinstance(value, HandOverbid):
                with_skat = value is HandOverbid.SKAT
                de = " (gezählt mit dem Skat)" if with_skat else " (gezählt ohne den Skat)"
                en = " (counted with the skat)" if with_skat else " (counted without the skat)"
            elif isinstance(value, (bool, tuple, BockReading)):
                de = en = ""
            else:
                de = en = f": {value}"
            out.append((switch, Text(label.de + de, label.en + en)))
        return tuple(out)


_BOOL_SWITCH = {f.name: f.type in ("bool", bool) for f in fields(RuleSet)}
_SWITCH_FIELDS: tuple[str, ...] = (
    "jacks_only_matadors",
    "grand_base",
    "grand_ouvert_base",
    "schneider_doubles",
    "hand_not_punished",
    "hand_overbid",
    "schneider_at_30",
    "free_announcements",
    "revolution",
    "spitze",
    "rum",
    "saxon_spitze",
    "doubling_levels",
    "bock_reading",
)


@dataclass(frozen=True, slots=True)
class Switch:
    """One house-rule switch: its field, its rule in chapter K and its name in two languages."""

    field: str
    rule_id: str
    label: Text


SWITCHES: tuple[Switch, ...] = (
    Switch("jacks_only_matadors", "K.7.2", Text("Spitzen nur mit ⟦ranks:J⟧", "Matadors with ⟦ranks:J⟧ only")),
    Switch("grand_base", "K.7.3", Text("Grand 20", "Grand 20")),
    Switch("grand_ouvert_base", "K.7.3", Text("Grand ouvert 36 oder 30", "Grand ouvert 36 or 30")),
    Switch("schneider_doubles", "K.7.4", Text("Schneider und Schwarz verdoppeln", "Schneider and Schwarz double")),
    Switch("hand_not_punished", "K.7.5", Text("Hand wird nicht bestraft", "Hand is not punished")),
    Switch("hand_overbid", "K.7.5", Text("Kein Überreizen beim Handspiel", "No overbidding in hand games")),
    Switch("schneider_at_30", "K.7.4", Text("Mit 30 aus dem Schneider", "Out of Schneider with 30")),
    Switch("free_announcements", "K.7.6", Text("Freie Ansagen", "Free announcements")),
    Switch("revolution", "K.7.7", Text("Revolution (92)", "Revolution (92)")),
    Switch("spitze", "K.7.8", Text("Spitze (Patrouille)", "Spitze (Patrouille)")),
    Switch("rum", "K.7.8", Text("Rum", "Rum")),
    Switch("saxon_spitze", "K.7.9", Text("Sächsische Spitze", "Saxon Spitze")),
    Switch("doubling_levels", "K.7.10", Text("Kontra mit weiteren Stufen", "Kontra with further levels")),
    Switch(
        "bock_reading",
        "K.2.1",
        Text(
            "„Kontra verloren“ heißt: die Gegenspieler haben verloren",
            "“Kontra lost” means: the defenders lost",
        ),
    ),
)
"""Every house-rule switch, in the order the score sheet lists them."""

_LABELS = {switch.field: switch.label for switch in SWITCHES}


def house_rule(field: str, *, start: bool = False) -> tuple[str, str]:
    """``Hausregel „Grand 20“`` / ``house rule “Grand 20”``: how a derivation names the switch it
    applies (``start``: at the start of a sentence, ``House rule`` in English)."""
    label = _LABELS[field]
    return f"Hausregel „{label.de}“", f"{'House' if start else 'house'} rule “{label.en}”"


ISKO = RuleSet("isko", "Internationale Skatordnung", "International Skat Rules", house=False)
PRE1999 = RuleSet(
    "pre1999",
    "Skatordnung vor 1999",
    "Skat order before 1999",
    grand_ouvert_base=36,
    hand_not_punished=True,
    house=False,
)
PUB = RuleSet(
    "pub",
    "Kneipenregeln (nicht ISkO)",
    "Pub rules (not ISkO)",
    doublings=True,
    ramsch_when_passed=True,
    house=False,
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

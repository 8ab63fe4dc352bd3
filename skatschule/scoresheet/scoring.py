"""The score sheet's one door to the engine: house-rule profiles and their switch names,
scoring a game, the bid values and which end results can happen at all.

Everything the sheet (``sheet.replay``), its forms and the house-rule page need from the
engine's scoring goes through here, so a change of the engine's API is a change in this
module only. No Django here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from skatschule.engine.feasible import game_possible
from skatschule.engine.games import GameType
from skatschule.engine.houserules import (
    REVOLUTION_VALUE,
    SAXON_BASE,
    SWITCHES,
    HandOverbid,
    HouseGame,
    score_house,
)
from skatschule.engine.names import render
from skatschule.engine.rules import ISKO, PUB, RuleSet
from skatschule.engine.scoring import Outcome

__all__ = [
    "HouseGame",
    "bid_values",
    "is_possible",
    "needs_matadors_without_skat",
    "null_above_value",
    "rules_from",
    "score",
    "switch_label",
    "switch_names",
]


def rules_from(profile: Mapping[str, object], *, pub: bool = False) -> RuleSet:
    """The rule set of a sheet: the ISkO, or the pub rules (Kontra, Re, Bock and Ramsch) with
    ``pub``, plus the house-rule profile it stores (switch name -> value; empty: none)."""
    return (PUB if pub else ISKO).with_switches(profile)


def null_above_value(game: HouseGame) -> bool:
    """Is ``game`` a Null announced although the bid is above its value (ISkO 2.4.4)?"""
    return game.game is GameType.NULL and game.bid > ISKO.null_value(game.hand, game.ouvert)


def score(game: HouseGame, rules: RuleSet) -> Outcome:
    """The list entry of ``game`` under ``rules`` with its derivation. A Null above its value is
    lost as the cheapest suit or Grand game with the declarer's matadors (ISkO 2.4.4); the forms
    ask for them (an entry stored before they were asked for keeps the Null's own multiple)."""
    return score_house(game, rules)


def needs_matadors_without_skat(game: HouseGame, rules: RuleSet) -> bool:
    """Under "no overbidding in hand games, the value without the skat counts" (K.7.5), a hand
    game that the skat made overbid is valued by the matadors without the skat: are they needed?"""
    if not game.hand or rules.hand_overbid is not HandOverbid.HAND or game.matadors_without_skat is not None:
        return False
    if game.game is None or game.game is GameType.NULL or not game.matadors:
        return False
    return score_house(game, replace(rules, hand_overbid=None)).overbid


def bid_values(rules: RuleSet) -> frozenset[int]:
    """Every value one may bid: the rule set's bid values, and under house rules also the values
    Spitzen, Rum, doubling Schneider, the Saxon Spitze and the Revolution make (a generous superset)."""
    values = set(rules.bid_values()) | set(ISKO.bid_values())
    if not rules.switches():
        return frozenset(values)
    bases = {9, 10, 11, 12, rules.grand_base}
    if rules.grand_ouvert_base is not None:
        bases.add(rules.grand_ouvert_base)
    if rules.saxon_spitze:
        bases.add(SAXON_BASE)
    top = 18 + (4 if rules.spitze else 0) + (1 if rules.rum else 0)
    doublings = 4 if rules.schneider_doubles else 0
    values |= {b * m * 2**k for b in bases for m in range(2, top + 1) for k in range(doublings + 1)}
    if rules.revolution is not None:
        values.add(REVOLUTION_VALUE)
    return frozenset(values)


def is_possible(game: HouseGame) -> bool:
    """Can a suit or Grand game end with these matadors, Augen, tricks and Spitzen at all
    (:func:`~skatschule.engine.feasible.game_possible`)? Null, the special games and conceded
    games are not checked here (only their tricks count)."""
    if game.game is None or game.game is GameType.NULL or game.conceded:
        return True
    return game_possible(
        game.game,
        matadors=game.matadors,
        points=game.declarer_points,
        tricks=game.declarer_tricks,
        spitze=game.spitze,
        spitze_made=bool(game.spitze) and game.spitze_made,
    )


def switch_label(name: str, lang: str, deck: str) -> str | None:
    """One switch's name in the reader's language and deck (None for an unknown switch)."""
    for switch in SWITCHES:
        if switch.field == name:
            return render(switch.label.get(lang), lang, deck)
    return None


def switch_names(rules: RuleSet, lang: str, deck: str) -> list[tuple[str, str]]:
    """The switches ``rules`` turns on, as (name with its value in the reader's language and deck, rule id)."""
    return [(render(text.get(lang), lang, deck), switch.rule_id) for switch, text in rules.active_switches()]

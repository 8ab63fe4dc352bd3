"""The score sheet's one door to the engine: house-rule profiles and their switch names,
scoring a game, the bid values and which end results can happen at all.

Everything the sheet (``sheet.replay``), its forms and the house-rule page need from the
engine's scoring goes through here, so a change of the engine's API is a change in this
module only. No Django here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from skatschule.engine.cards import Card, CardSet
from skatschule.engine.errors import SkatError
from skatschule.engine.explain import Step
from skatschule.engine.feasible import possible_declarer_points
from skatschule.engine.games import GameType
from skatschule.engine.houserules import (
    REVOLUTION_VALUE,
    SAXON_BASE,
    SWITCHES,
    HandOverbid,
    HouseGame,
    HouseOutcome,
    HouseRules,
    score_house,
)
from skatschule.engine.names import game_ref, render
from skatschule.engine.rules import ISKO
from skatschule.engine.scoring import cheapest_lost_game

__all__ = [
    "HouseGame",
    "HouseOutcome",
    "HouseRules",
    "bid_values",
    "is_possible",
    "needs_matadors_without_skat",
    "null_above_value",
    "rules_from",
    "score",
    "switch_label",
    "switch_names",
]

NULL_MATADORS = 4
"""An unplayable Null is written down with the declarer's matadors over the jacks: mit or ohne 1 to 4."""


def rules_from(profile: Mapping[str, object]) -> HouseRules:
    """The house-rule profile a sheet stores (switch name -> value; empty is the ISkO)."""
    return HouseRules.from_dict(profile)


def null_above_value(game: HouseGame) -> bool:
    """Is ``game`` a Null announced although the bid is above its value (ISkO 2.4.4)?"""
    return game.game is GameType.NULL and game.bid > ISKO.null_value(game.hand, game.ouvert)


def _jacks(matadors: int) -> CardSet:
    """Cards that give "mit N" / "ohne N" (N up to 4) in every suit and Grand game: the jacks
    down to the N-th (or none of them) and, for all four, the aces that stop the run in the suits."""
    jacks = ["CJ", "SJ", "HJ", "DJ"]
    count = abs(matadors)
    held = jacks[:count] if matadors > 0 else jacks[count : count + 1]
    if count == 4 and matadors < 0:
        held = ["CA", "SA", "HA", "DA"]
    return CardSet(" ".join(held))


def _unplayable_null(game: HouseGame, rules: HouseRules) -> HouseOutcome:
    """A Null above its value is lost as the cheapest suit or Grand game that reaches the bid with
    the declarer's matadors (ISkO 2.4.4, :func:`~skatschule.engine.scoring.cheapest_lost_game`)."""
    null_value = ISKO.null_value(game.hand, game.ouvert)
    contract, count, _ = cheapest_lost_game(game.bid, _jacks(game.matadors).mask)
    lost = HouseGame(
        game=contract.game,
        matadors=count,
        bid=game.bid,
        conceded=True,  # lost at the simple level, with the matadors, at least at the bid
        doublings=game.doublings,
        bock=game.bock,
    )
    outcome = score_house(lost, rules)
    null = game_ref(GameType.NULL)
    first = (
        Step(
            f"{null} ist {null_value} wert, gereizt war {game.bid}: so ist es nicht durchführbar",
            f"{null} is worth {null_value}, the bid was {game.bid}: it cannot be played",
            ("4.1.2", "2.4.4"),
        ),
        Step(
            f"Es zählt das billigste verlorene Farb- oder Grandspiel, das mit den Spitzen den Reizwert erreicht: "
            f"{game_ref(contract.game)}",
            f"It counts as the cheapest lost suit or Grand game that reaches the bid with the matadors: "
            f"{game_ref(contract.game)}",
            ("2.4.4",),
        ),
    )
    # the conceded game's own first step ("conceded: lost ...") is replaced by the two above
    rest = tuple(s for s in outcome.steps if "3.3.1" not in s.rules)
    return replace(outcome, steps=first + rest)


def score(game: HouseGame, rules: HouseRules) -> HouseOutcome:
    """The list entry of ``game`` under ``rules`` with its derivation.

    A Null above its value needs the declarer's matadors (the forms ask for them); an entry
    stored before they were asked for (matadors 0) keeps the reading it was entered with."""
    if null_above_value(game) and game.matadors:
        if abs(game.matadors) > NULL_MATADORS:
            raise SkatError(
                "Beim Null über seinem Wert zählen die Spitzen über die Buben: mit oder ohne 1 bis 4",
                "For a Null above its value the matadors are counted over the jacks: with or without 1 to 4",
            )
        return _unplayable_null(game, rules)
    return score_house(game, rules)


def needs_matadors_without_skat(game: HouseGame, rules: HouseRules) -> bool:
    """Under "no overbidding in hand games, the value without the skat counts" (K.7.5), a hand
    game that the skat made overbid is valued by the matadors without the skat: are they needed?"""
    if not game.hand or rules.hand_overbid is not HandOverbid.HAND or game.matadors_without_skat is not None:
        return False
    if game.game is None or game.game is GameType.NULL or not game.matadors:
        return False
    return score_house(game, replace(rules, hand_overbid=None)).overbid


def bid_values(rules: HouseRules) -> frozenset[int]:
    """Every value one may bid: the ISkO's bid values, and under house rules also the values
    their own base values and extra multipliers make (a generous superset there)."""
    values = set(ISKO.bid_values())
    if rules.is_isko:
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
    """Can a suit or Grand game end with these matadors, Augen, tricks and Spitzen at all? The
    declarer's Augen are the card points of his tricks and the skat (a trick holds at most 33,
    the skat 22, ten tricks are all 120). "mit N": his top N trumps each win a trick of their own
    (two may lie in the skat); the next trump is a defender's but may fall into his tricks.
    "ohne N": the top N trumps are the defenders' and win every trick they are in, at most two in
    one; his own next trump may be lost. Made Spitzen take the last tricks. Null and the special
    games are not checked here (only their tricks count)."""
    if game.game is None or game.game is GameType.NULL or game.conceded:
        return True
    trumps = game.game.trumps_in_order
    count = abs(game.matadors)
    if not 1 <= count <= len(trumps) or not 0 <= game.spitzen <= len(trumps):
        return False
    top = frozenset(trumps[:count])
    made = bool(game.spitzen) and game.spitze_made
    none: frozenset[Card] = frozenset()
    spitze = frozenset(trumps[len(trumps) - game.spitzen :]) if game.spitzen else none
    tricks = game.declarer_tricks
    if made and tricks < game.spitzen:
        return False
    if game.matadors > 0:
        if tricks < count - 2:
            return False
        mine, theirs = top | (spitze if made else none), none
    else:
        if spitze & top or 10 - tricks < -(-count // 2):
            return False
        mine, theirs = (spitze if made else none), top
    return game.declarer_points in possible_declarer_points(tricks, mine, theirs)


_OVERBID = {"hand": ("Wert ohne Skat", "value without the skat"), "skat": ("Wert mit Skat", "value with the skat")}


def switch_label(name: str, lang: str, deck: str) -> str | None:
    """One switch's name in the reader's language and deck (None for an unknown switch)."""
    for field, _rule, de, en in SWITCHES:
        if field == name:
            return render(en if lang == "en" else de, lang, deck)
    return None


def switch_names(rules: HouseRules, lang: str, deck: str) -> list[tuple[str, str]]:
    """The switches ``rules`` turns on, as (name in the reader's language and deck, rule id)."""
    on = rules.as_dict()
    out = []
    for name, rule, de, en in SWITCHES:
        if name not in on:
            continue
        en_ = lang == "en"
        label = render(en if en_ else de, lang, deck)
        value = on[name]
        if name == "hand_overbid" and value in _OVERBID:
            label += f" ({_OVERBID[str(value)][int(en_)]})"
        elif name == "grand_ouvert_base":
            label = f"Grand ouvert {value}"
        elif name == "revolution":
            label += f", {'variant' if en_ else 'Spielweise'} {value}"
        out.append((label, rule))
    return out

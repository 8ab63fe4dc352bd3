"""Reizen, wie hoch? A hand of ten cards and the game the player has in mind: how far may he bid?

Defined precisely: the value of the intended game with the Spitzen of the ten cards
alone (the skat is unknown while bidding) at the level "Spiel" (plus "Hand" for a hand
game), i.e. ``game_value(Contract(game, hand=hand), matadors(game, hand10))``. For a Null
game it is the fixed value. For an "ohne" hand the feedback warns that a missing top
trump in the skat lowers the count, and the game may end overbid.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass

from skatschule.engine import (
    CARDS,
    Card,
    CardSet,
    Contract,
    GameType,
    Step,
    Text,
    game_value,
    matadors,
    matadors_text,
    trump_order,
)
from skatschule.engine.names import card_ref, cards_ref
from skatschule.engine.sorting import neutral_order, sort_hand

from .base import Question
from .exercise import EngineExercise
from .gen import NULL_CONTRACTS, cards_with_matadors
from .grading import Solution
from .helpers import SUIT_GAMES, codes

RULES = ("2.3.1", "1.4.2", "4.1.1", "4.3.2")


@dataclass(frozen=True, slots=True)
class Scenario:
    contract: Contract
    hand: tuple[Card, ...]


_MATADORS = {1: (1, 2, 3), 2: (1, 2, 3, 4), 3: (1, 2, 3, 4, 5, 6)}
"""How many matadors (with or without) each level asks about."""
_WITH_ODDS = {1: 0.7, 2: 0.5, 3: 0.5}
"""How often the hand is "with" rather than "without" (beginners see "with" more often)."""


@functools.cache
def _plans(difficulty: int) -> dict[int, tuple[tuple[Contract, int], ...]]:
    """Every game a level asks about, by its answer: value -> (contract, matadors without sign).

    The answer is drawn first, evenly over these values, then one of the games that has it: a
    learner who always types the same number is right no more often than by chance (when the
    games were drawn instead, 36 was the answer of level 2 in 11 % of the questions against 1/21,
    and the single Spitzen of level 1 made 18, 20, 22 and 24 an eighth each)."""
    games = SUIT_GAMES if difficulty == 1 else SUIT_GAMES + (GameType.GRAND,)
    hands = (False,) if difficulty == 1 else (False, True)
    plans: dict[int, list[tuple[Contract, int]]] = {}
    for game in games:
        for hand in hands:
            contract = Contract(game, hand=hand)
            for count in _MATADORS[difficulty]:
                if count <= game.max_matadors:
                    plans.setdefault(game_value(contract, count).value, []).append((contract, count))
    if difficulty == 3:
        for contract in NULL_CONTRACTS:
            plans.setdefault(game_value(contract).value, []).append((contract, 0))
    return {value: tuple(found) for value, found in sorted(plans.items())}


class ReizenHoehe(EngineExercise[Scenario]):
    slug = "reizen_hoehe"
    name = Text("Reizen, wie hoch?", "How far can I bid?")
    description = Text(
        "Aus den Spitzen der zehn Handkarten und dem geplanten Spiel den höchsten Reizwert ausrechnen.",
        "Work out the highest bid from the matadors in your ten cards and the game you have in mind.",
    )
    rule_ids = RULES

    def build(self, rng: random.Random, difficulty: int) -> Scenario:
        plans = _plans(difficulty)
        contract, count = rng.choice(plans[rng.choice(list(plans))])
        if contract.game.is_null:
            return Scenario(contract, tuple(neutral_order(rng.sample(CARDS, 10))))
        sign = 1 if rng.random() < _WITH_ODDS[difficulty] else -1
        weight = 4.0 if contract.game.is_suit_game else 3.0
        cards = cards_with_matadors(rng, contract.game, sign * count, 10, trump_weight=weight)
        return Scenario(contract, tuple(neutral_order(cards)))

    def ask(self, scenario: Scenario, difficulty: int, seed: int) -> Question:
        contract = scenario.contract
        if contract.hand:
            how_de, how_en = "ohne den Skat aufzunehmen (Hand)", "without picking up the skat (hand)"
        else:
            how_de, how_en = "mit Skataufnahme", "picking up the skat"
        rule_de = rule_en = ""
        if not contract.game.is_null:
            rule_de = (
                " Zähle die Spitzen nur mit deinen zehn Karten (den Skat kennst du noch nicht) und rechne "
                "ohne Schneider."
            )
            rule_en = (
                " Count the matadors with your ten cards only (you do not know the skat yet) and leave Schneider out."
            )
        return self.question(
            difficulty,
            seed,
            Text(
                f"Du möchtest {contract.ref('de', capital=True)} spielen, {how_de}. Bis zu welchem Wert darfst du "
                f"höchstens reizen?{rule_de}",
                f"You want to play {contract.ref('en', capital=True)}, {how_en}. What is the highest value you may "
                f"bid?{rule_en}",
            ),
            "number",
            cards=codes(sort_hand(scenario.hand, contract.game)),
            facts=[
                Text(
                    f"Geplantes Spiel: {contract.ref('de', capital=True)}",
                    f"Intended game: {contract.ref('en', capital=True)}",
                )
            ],
            rule_ids=("2.3.1", "4.1.2") if contract.game.is_null else RULES,
        )

    def solve(self, scenario: Scenario) -> Solution:
        contract = scenario.contract
        game = contract.game
        if game.is_null:
            gv = game_value(contract)
            null_steps = (
                Step(
                    "Ein Nullspiel hat einen festen Wert; Spitzen gibt es nicht",
                    "A Null game has a fixed value; there are no matadors",
                    ("4.1.2",),
                ),
                *gv.steps,
                Step(f"Höchstes Gebot: {gv.value}", f"Highest bid: {gv.value}", ("2.3.1",)),
            )
            return Solution((str(gv.value),), Text(str(gv.value), str(gv.value)), null_steps, ("2.3.1", "4.1.2"))
        cards = CardSet(scenario.hand)
        count = matadors(game, cards)
        gv = game_value(contract, count)
        order = trump_order(game)
        seen = order[: abs(count)]
        if count > 0:
            first = (f"Du hast {cards_ref(seen)}", f"You hold {cards_ref(seen)}")
        else:
            first = (f"Dir fehlen {cards_ref(seen)}", f"You lack {cards_ref(seen)}")
        steps: list[Step] = [
            Step(
                f"{first[0]}: {matadors_text(count, 'de')}",
                f"{first[1]}: {matadors_text(count, 'en')}",
                ("1.4.1", "1.4.2"),
            ),
            *gv.steps,
            Step(f"Höchstes Gebot: {gv.value}", f"Highest bid: {gv.value}", ("2.3.1",)),
        ]
        if count <= -2:
            worst = game_value(contract, 1)
            steps.append(
                Step(
                    f"Vorsicht bei ohne {-count}: Liegt einer der fehlenden Trümpfe im Skat, zählen weniger Spitzen. "
                    f"Im schlimmsten Fall liegt {card_ref(order[0])} (dann mit 1) oder {card_ref(order[1])} (dann "
                    "ohne 1) im Skat: "
                    f"{worst.text('de')}. Ein Gebot darüber wäre dann überreizt",
                    f"Careful with without {-count}: if one of the missing trumps lies in the skat, fewer matadors "
                    "count. "
                    f"In the worst case the {card_ref(order[0])} (then with 1) or the {card_ref(order[1])} (then "
                    "without 1) "
                    f"is in the skat: {worst.text('en')}. A bid above that would then be overbid",
                    ("2.4.3", "4.4.2") if contract.hand else ("2.4.3", "4.4.1"),
                )
            )
        elif count == -1:
            steps.append(
                Step(
                    f"Ohne 1 ist sicher: Liegt {card_ref(order[0])} im Skat, spielst du mit 2 oder mehr, das Spiel "
                    "wird nur mehr wert",
                    f"Without 1 is safe: if the {card_ref(order[0])} lies in the skat, you play with 2 or more, "
                    "which is worth more",
                    ("1.4.2",),
                )
            )
        elif count < game.max_matadors:
            nxt = order[count]
            steps.append(
                Step(
                    f"Mit {count} ist sicher: Findet sich {card_ref(nxt)} im Skat, werden es nur mehr Spitzen",
                    f"With {count} is safe: if the {card_ref(nxt)} turns up in the skat, the count only grows",
                    ("1.4.2",),
                )
            )
        return Solution((str(gv.value),), Text(str(gv.value), str(gv.value)), tuple(steps), RULES)

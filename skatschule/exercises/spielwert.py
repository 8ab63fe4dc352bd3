"""Spielwert: a declared and won game (contract, Spitzen, levels reached): what is it worth?

Level 1: games with skat pick-up, no further levels; the declarer's twelve cards (hand and
skat) are shown and the Spitzen are counted from them (named outright, a level had only 40
different questions: five games times eight counts); 2: hand games, Schneider and Schwarz
reached; 3: announced levels, ouvert and the Null games.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from skatschule.engine import Contract, GameType, Step, Text, game_value, matadors_text
from skatschule.engine.feasible import Witness, played_game
from skatschule.engine.names import game_ref
from skatschule.engine.sorting import neutral_order

from .base import Question
from .exercise import EngineExercise
from .gen import NULL_CONTRACTS, cards_with_matadors, in_category, random_matadors, won_result
from .grading import Solution
from .helpers import SUIT_GAMES, codes

RULES = ("4.1.1", "4.3.2", "1.4.2")


@dataclass(frozen=True, slots=True)
class Scenario:
    contract: Contract
    matadors: int
    schneider: bool
    schwarz: bool
    cards: tuple[str, ...] = ()
    """Level 1: the declarer's ten cards and the skat, from which the Spitzen are counted."""
    played: Witness | None = field(default=None, compare=False)
    """Level 1: a game with these cards won simply, dealt and played by the engine."""


class Spielwert(EngineExercise[Scenario]):
    slug = "spielwert"
    generator = 3
    """Version 2 since issue 25 (commit ``3245f83``) changed the questions of level 1; version 3
    since issue 34 draws the Spitzen again for a game that cannot be won so ("ohne 3" and Schwarz)."""
    name = Text("Spielwert", "Game value")
    description = Text(
        "Spitzen und Gewinnstufen zusammenzählen, mit dem Grundwert malnehmen: Was ist das Spiel wert?",
        "Add up matadors and levels, multiply by the base value: what is the game worth?",
    )
    rule_ids = RULES

    def build(self, rng: random.Random, difficulty: int) -> Scenario:
        games = SUIT_GAMES + (GameType.GRAND,)
        game = rng.choice(games)
        schneider = schwarz = False
        if difficulty == 1:
            contract = Contract(game)
        elif difficulty == 2:
            contract = Contract(game, hand=rng.random() < 0.6)
            reached = rng.choice(
                ("none", "schneider", "schneider", "schwarz")
                if contract.hand
                else ("schneider", "schneider", "schwarz")
            )
            schneider = reached in ("schneider", "schwarz")
            schwarz = reached == "schwarz"
        else:
            kind = rng.choice(("schneider_announced", "schwarz_announced", "ouvert", "null", "null"))
            if kind == "null":
                return Scenario(rng.choice(NULL_CONTRACTS), 0, False, False)
            if kind == "schneider_announced":
                contract = Contract(game, hand=True, schneider_announced=True)
                schwarz = rng.random() < 0.3
            elif kind == "schwarz_announced":
                contract = Contract(game, hand=True, schwarz_announced=True)
                schwarz = True
            else:
                contract = Contract(game, hand=True, ouvert=True)
                schwarz = True
            schneider = True
        while True:  # the Spitzen (and cards) again until the game can be won so: never "ohne" and Schwarz
            count = random_matadors(rng, game, difficulty)
            if difficulty == 1:
                twelve = cards_with_matadors(rng, game, count, 12)
                played = played_game(
                    rng, game, twelve=twelve, accept=lambda end: in_category("won", end.points, end.tricks)
                )
                scenario = Scenario(contract, count, schneider, schwarz, codes(neutral_order(twelve)), played)
            else:
                scenario = Scenario(contract, count, schneider, schwarz)
            if witness(scenario) is not None:
                return scenario

    def ask(self, scenario: Scenario, difficulty: int, seed: int) -> Question:
        contract = scenario.contract
        facts = [Text(f"Spiel: {contract.ref('de', capital=True)}", f"Game: {contract.ref('en', capital=True)}")]
        if not contract.game.is_null:
            if scenario.cards:
                facts.append(
                    Text(
                        "Die zwölf Karten des Alleinspielers (Hand und Skat) zeigt das Bild: Zähle die Spitzen selbst.",
                        "The picture shows the declarer's twelve cards (hand and skat): count the matadors yourself.",
                    )
                )
            else:
                facts.append(
                    Text(
                        f"Spitzen: {matadors_text(scenario.matadors, 'de')}",
                        f"Matadors: {matadors_text(scenario.matadors, 'en')}",
                    )
                )
            if contract.hand:
                facts.append(Text("ohne Skataufnahme (Handspiel)", "without picking up the skat (hand game)"))
            else:
                facts.append(Text("mit Skataufnahme", "the skat was picked up"))
            if scenario.schwarz:
                facts.append(
                    Text(
                        "Gewonnen: Die Gegenspieler bekommen keinen Stich (Schwarz)",
                        "Won: the defenders take no trick (Schwarz)",
                    )
                )
            elif scenario.schneider:
                facts.append(
                    Text(
                        "Gewonnen: Die Gegenspieler haben 30 Augen oder weniger (Schneider)",
                        "Won: the defenders have 30 card points or fewer (Schneider)",
                    )
                )
            else:
                facts.append(
                    Text("Gewonnen mit 61 bis 89 Augen (einfach)", "Won with 61 to 89 card points (simple win)")
                )
        else:
            facts.append(Text("Gewonnen: Der Alleinspieler bekommt keinen Stich", "Won: the declarer takes no trick"))
        return self.question(
            difficulty,
            seed,
            Text("Wie viel ist dieses gewonnene Spiel wert (Spielwert)?", "What is this won game worth (game value)?"),
            "number",
            facts=facts,
            cards=scenario.cards,
            rule_ids=("4.1.2",) if contract.game.is_null else RULES,
        )

    def solve(self, scenario: Scenario) -> Solution:
        contract = scenario.contract
        gv = game_value(contract, scenario.matadors, schneider=scenario.schneider, schwarz=scenario.schwarz)
        steps: list[Step] = []
        if contract.game.is_null:
            steps.append(
                Step(
                    "Nullspiele haben feste Werte: Null 23, Null Hand 35, Null ouvert 46, Null ouvert Hand 59",
                    "Null games have fixed values: Null 23, Null Hand 35, Null ouvert 46, Null ouvert Hand 59",
                    ("4.1.2",),
                )
            )
        else:
            steps.append(
                Step(
                    f"Grundwert {game_ref(contract.game)}: {gv.base}",
                    f"Base value of {game_ref(contract.game)}: {gv.base}",
                    ("4.1.1",),
                )
            )
            steps.append(
                Step(
                    "Fälle zählen: die Spitzen, dazu 1 für das Spiel und je 1 für jede weitere Gewinnstufe",
                    "Count the multipliers: the matadors, plus 1 for the game and 1 for each further level",
                    ("4.3.2",),
                )
            )
            if contract.ouvert:
                steps.append(
                    Step(
                        "Ein offenes Spiel gilt als Schwarz angesagt: Schneider, Schneider angesagt, Schwarz, "
                        "Schwarz angesagt und offen zählen mit",
                        "An open game counts as Schwarz announced: Schneider, Schneider announced, Schwarz, "
                        "Schwarz announced and open all count",
                        ("4.2.6",),
                    )
                )
            elif contract.schwarz_announced:
                steps.append(
                    Step(
                        "Schwarz angesagt schließt Schneider angesagt ein",
                        "Schwarz announced includes Schneider announced",
                        ("4.2.5",),
                    )
                )
        steps.extend(gv.steps)
        return Solution(
            (str(gv.value),),
            Text(str(gv.value), str(gv.value)),
            tuple(steps),
            RULES if not contract.game.is_null else ("4.1.2",),
        )


def witness(scenario: Scenario) -> Witness | None:
    """A game won at the stated level with these Spitzen, dealt and played by the engine (level
    1: with the shown cards, :attr:`Scenario.played`); None if there is none, and for Null."""
    if scenario.contract.game.is_null:
        return None
    if scenario.cards:
        return scenario.played
    category = "schwarz_won" if scenario.schwarz else "schneider_won" if scenario.schneider else "won"
    return won_result(scenario.contract.game, scenario.matadors, category)

"""Abrechnung: a finished game (contract, Spitzen, bid, Augen, tricks): what goes on the list?

The engine's ``score_game`` decides (won or lost, Schneider, Schwarz, overbid, doubled loss).
"""

from __future__ import annotations

import random

from skatschule.engine import Text

from .base import Question
from .exercise import EngineExercise
from .gen import FinishedGame, finished_game_facts, random_finished_game
from .grading import Solution
from .helpers import signed

RULES = ("4.2.2", "4.3.2", "4.3.4", "4.4.1", "A.1.1")
NULL_RULES = ("4.1.2", "4.2.7", "4.3.4", "A.1.1")


class Abrechnung(EngineExercise[FinishedGame]):
    slug = "abrechnung"
    generator = 2
    """Version 2 since issue 34: a game that cannot happen is drawn again."""
    name = Text("Abrechnung", "Scoring")
    description = Text(
        "Gewonnen oder verloren, Schneider, Schwarz, überreizt: Was wird in die Spielliste geschrieben?",
        "Won or lost, Schneider, Schwarz, overbid: what is written on the score sheet?",
    )
    rule_ids = RULES

    def build(self, rng: random.Random, difficulty: int) -> FinishedGame:
        return random_finished_game(rng, difficulty)

    def ask(self, scenario: FinishedGame, difficulty: int, seed: int) -> Question:
        return self.question(
            difficulty,
            seed,
            Text(
                "Das Spiel ist zu Ende. Was wird für den Alleinspieler in die Spielliste eingetragen? "
                "Verlorene Spiele mit einem Minus davor.",
                "The game is over. What is entered on the score sheet for the declarer? Lost games with a minus sign.",
            ),
            "number",
            facts=finished_game_facts(scenario),
            rule_ids=_rules(scenario),
        )

    def solve(self, scenario: FinishedGame) -> Solution:
        outcome = scenario.score()
        return Solution(
            (str(outcome.score),), Text(signed(outcome.score), signed(outcome.score)), outcome.steps, _rules(scenario)
        )


def _rules(game: FinishedGame) -> tuple[str, ...]:
    return NULL_RULES if game.contract.game.is_null else RULES

"""Spielansage gültig? A declaration (game, hand or pick-up, ouvert, announcements): valid or not?

The engine's ``Contract.problems()`` decides and gives the reason.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from skatschule.engine import Contract, GameType, Step, Text
from skatschule.engine.names import game_ref

from .base import Choice, Question
from .exercise import EngineExercise
from .grading import Solution
from .helpers import SUIT_GAMES, game_en

RULES = ("2.4.4", "4.2.5", "4.2.6")

OPTIONS = (
    Choice("ja", Text("Ja, gültig", "Yes, valid")),
    Choice("nein", Text("Nein, ungültig", "No, invalid")),
)
ALIASES = {
    "j": "ja",
    "y": "ja",
    "yes": "ja",
    "gültig": "ja",
    "valid": "ja",
    "n": "nein",
    "no": "nein",
    "ungültig": "nein",
    "invalid": "nein",
}


@dataclass(frozen=True, slots=True)
class Scenario:
    game: GameType
    hand: bool
    ouvert: bool
    schneider: bool
    schwarz: bool

    def contract(self) -> Contract:
        return Contract(
            self.game,
            hand=self.hand,
            ouvert=self.ouvert,
            schneider_announced=self.schneider,
            schwarz_announced=self.schwarz,
        )


def _draw(rng: random.Random, difficulty: int) -> Scenario:
    if difficulty == 1:
        game = rng.choice(SUIT_GAMES + (GameType.GRAND,))
        return Scenario(game, rng.random() < 0.5, False, rng.random() < 0.6, False)
    if difficulty == 2:
        game = rng.choice(SUIT_GAMES + (GameType.GRAND, GameType.GRAND))
        level = rng.choice(("none", "schneider", "schwarz", "ouvert"))
        return Scenario(game, rng.random() < 0.5, level == "ouvert", level == "schneider", level == "schwarz")
    game = rng.choice((GameType.NULL, GameType.NULL, GameType.NULL, GameType.GRAND) + SUIT_GAMES)
    level = rng.choice(("none", "schneider", "schwarz", "ouvert", "ouvert"))
    return Scenario(game, rng.random() < 0.5, level == "ouvert", level == "schneider", level == "schwarz")


class Spielansage(EngineExercise[Scenario]):
    slug = "spielansage"
    name = Text("Spielansage gültig?", "Is the declaration valid?")
    description = Text(
        "Hand, ouvert, Schneider und Schwarz angesagt: Was ist nach der Skataufnahme noch erlaubt?",
        "Hand, ouvert, Schneider and Schwarz announced: what is still allowed after picking up the skat?",
    )
    rule_ids = RULES

    def build(self, rng: random.Random, difficulty: int) -> Scenario:
        want_valid = rng.random() < 0.5
        scenario = _draw(rng, difficulty)
        for _ in range(20):
            if scenario.contract().is_valid == want_valid:
                break
            scenario = _draw(rng, difficulty)
        return scenario

    def ask(self, scenario: Scenario, difficulty: int, seed: int) -> Question:
        facts = [Text(f"Spiel: {game_ref(scenario.game)}", f"Game: {game_en(scenario.game)}")]
        if scenario.hand:
            facts.append(Text("Der Skat bleibt liegen (nicht aufgenommen)", "The skat stays face down (not picked up)"))
        else:
            facts.append(
                Text(
                    "Der Skat wurde aufgenommen und zwei Karten gedrückt",
                    "The skat was picked up and two cards put away",
                )
            )
        contract = scenario.contract()
        said_de, said_en = contract.ref("de"), contract.ref("en", capital=True)
        facts.append(Text(f"Ansage: „{said_de}“", f"Declaration: \u201c{said_en}\u201d"))
        return self.question(
            difficulty,
            seed,
            Text(
                f"Der Alleinspieler sagt „{said_de}“ an. Ist diese Spielansage gültig?",
                f"The declarer announces \u201c{said_en}\u201d. Is this declaration valid?",
            ),
            "choice",
            options=OPTIONS,
            facts=facts,
        )

    def aliases(self, scenario: Scenario) -> dict[str, str]:
        return ALIASES

    def solve(self, scenario: Scenario) -> Solution:
        contract = scenario.contract()
        problems = contract.problems()
        steps: list[Step] = []
        for de, en in problems:
            rules: tuple[str, ...] = ("2.4.4",)
            if scenario.game.is_null:
                rules = ("2.4.4", "4.1.2")
            elif scenario.ouvert:
                rules = ("2.4.4", "4.2.6")
            elif scenario.schneider or scenario.schwarz:
                rules = ("2.4.4", "4.2.5")
            steps.append(Step(de, en, rules))
        if not problems:
            steps.extend(_why_valid(scenario))
        if problems:
            return Solution(("nein",), Text("Nein, ungültig", "No, invalid"), tuple(steps), RULES)
        return Solution(("ja",), Text("Ja, gültig", "Yes, valid"), tuple(steps), RULES)


def _why_valid(s: Scenario) -> list[Step]:
    if s.game.is_null:
        if s.ouvert and not s.hand:
            return [
                Step(
                    "Null ouvert darf auch nach der Skataufnahme angesagt werden; nur offene Farbspiele und Grand "
                    "ouvert verlangen ein Handspiel",
                    "Null ouvert may be announced after picking up the skat, too; only open suit games and Grand "
                    "ouvert require a hand game",
                    ("2.4.4",),
                )
            ]
        return [
            Step(
                "Jedes Nullspiel ist mit und ohne Skataufnahme erlaubt",
                "Every Null game is allowed with or without the skat",
                ("1.1.2", "4.1.2"),
            )
        ]
    if s.ouvert:
        return [
            Step(
                "Offene Farb- und Grandspiele sind als Handspiel erlaubt; sie gelten als Schwarz angesagt",
                "Open suit and grand games are allowed as hand games; they count as Schwarz announced",
                ("2.4.4", "4.2.6"),
            )
        ]
    if s.schneider or s.schwarz:
        return [
            Step(
                "Im Handspiel darf der Alleinspieler Schneider oder Schwarz ansagen",
                "In a hand game the declarer may announce Schneider or Schwarz",
                ("4.2.5",),
            )
        ]
    if s.hand:
        return [
            Step(
                "Ein Handspiel ohne weitere Ansagen ist immer erlaubt",
                "A hand game without further announcements is always allowed",
                ("1.2.3",),
            )
        ]
    return [
        Step(
            "Nach der Skataufnahme ist ein einfaches Farb-, Grand- oder Nullspiel erlaubt",
            "After picking up the skat a plain suit, grand or null game is allowed",
            ("1.2.2", "2.4.4"),
        )
    ]

"""Hausregeln (house rules, not ISkO): a finished game scored under a house-rule profile.

``hausregel`` (number): the level chooses the profile of
:data:`skatschule.engine.houserules.PROFILES` the game runs under (1: the older order's
"alt", 2: the pub table's "kneipe", 3: the colourful "bunt" with Spitze and Rum); the
question lists its switches and asks for the declarer's list entry. The engine's
:func:`~skatschule.engine.houserules.score_house` grades and explains.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from skatschule.engine import Contract, GameType, Step, Text
from skatschule.engine.feasible import Witness, finished_game, game_possible, spitze_possible
from skatschule.engine.games import OUT_OF_SCHNEIDER, SCHNEIDER_POINTS, SPLIT_POINTS, TOTAL_POINTS, WIN_POINTS
from skatschule.engine.houserules import PROFILES, HouseGame, score_house
from skatschule.engine.rules import RuleSet
from skatschule.engine.scoring import matadors_text

from .base import Question
from .exercise import EngineExercise
from .grading import Solution
from .helpers import signed

NOTE_DE = "Hausregel, nicht ISkO."
NOTE_EN = "House rule, not ISkO."
LEVEL_PROFILE = {1: "alt", 2: "kneipe", 3: "bunt"}
GAMES = (GameType.CLUBS, GameType.SPADES, GameType.HEARTS, GameType.DIAMONDS, GameType.GRAND)


@dataclass(frozen=True, slots=True)
class Scenario:
    profile: str
    game: HouseGame

    @property
    def rules(self) -> RuleSet:
        return PROFILES[self.profile]

    def witness(self) -> Witness | None:
        """The game dealt and played by the engine (:func:`~skatschule.engine.feasible.finished_game`),
        or None if it cannot happen."""
        g = self.game
        assert g.game is not None
        return finished_game(
            g.game,
            matadors=g.matadors,
            points=g.declarer_points,
            tricks=g.declarer_tricks,
            spitze=g.spitze,
            spitze_made=g.spitze_made,
        )


POINTS = (
    *(0, 25, OUT_OF_SCHNEIDER - 2, OUT_OF_SCHNEIDER - 1, 44, 58, SPLIT_POINTS, WIN_POINTS),
    *(72, 85, SCHNEIDER_POINTS, SCHNEIDER_POINTS + 1, 99, TOTAL_POINTS),
)
"""The declarer's Augen the exercise draws from: each line of the ISkO and a number on either side."""


def _tricks_that_fit(game: GameType, matadors: int, spitze: int, points: int) -> list[int]:
    """Every number of tricks the cards allow with these matadors, Spitzen and Augen (:func:`game_possible`)."""
    return [t for t in range(11) if game_possible(game, matadors=matadors, points=points, tricks=t, spitze=spitze)]


def _switch_texts(rules: RuleSet) -> list[Text]:
    return [
        Text(f"{text.de} ({switch.rule_id})", f"{text.en} ({switch.rule_id})")
        for switch, text in rules.active_switches()
    ]


class Hausregel(EngineExercise[Scenario]):
    slug = "hausregel"
    generator = 2
    """Version 2 since issue 34: a game the engine cannot deal and play is drawn again."""
    name = Text("Hausregeln", "House rules")
    description = Text(
        "Ein Spiel unter Hausregeln abrechnen: Spitzen nur mit ⟦ranks:J⟧, Hand nicht bestraft, Spitze, Rum. "
        "Nicht ISkO.",
        "Score a game under house rules: matadors with ⟦ranks:J⟧ only, hand not punished, Spitze, Rum. Not ISkO.",
    )
    rule_ids = ("K.7.1", "K.7.2", "K.7.5", "K.7.8")
    variant = True

    def build(self, rng: random.Random, difficulty: int) -> Scenario:
        while True:
            scenario = self._draw(rng, difficulty)
            if scenario.witness() is not None:
                return scenario

    def _draw(self, rng: random.Random, difficulty: int) -> Scenario:
        profile = LEVEL_PROFILE[difficulty]
        rules = PROFILES[profile]
        game_type = rng.choice(GAMES)
        top = 4 if game_type is GameType.GRAND else 6
        matadors = rng.choice([m for m in range(-top, top + 1) if m])
        points = rng.choice(POINTS)
        hand = rng.random() < 0.4
        spitze = rng.choice([0, 1, 2]) if rules.spitze else 0
        rum = bool(rules.rum and not hand and rng.random() < 0.4)
        if not spitze_possible(game_type, matadors=matadors, spitze=spitze):
            matadors = rng.choice(
                [m for m in range(-top, top + 1) if m and spitze_possible(game_type, matadors=m, spitze=spitze)]
            )
        if not _tricks_that_fit(game_type, matadors, spitze, points):
            # 0 Augen needs a declarer without a jack; the cards of "mit 6" alone are worth 29 Augen
            points = rng.choice([p for p in POINTS if _tricks_that_fit(game_type, matadors, spitze, p)])
        tricks = rng.choice(_tricks_that_fit(game_type, matadors, spitze, points))
        made = rng.random() < 0.7
        if made and not game_possible(
            game_type, matadors=matadors, points=points, tricks=tricks, spitze=spitze, spitze_made=True
        ):
            made = False  # made Spitzen take the last tricks: not with fewer tricks than Spitzen
        game = HouseGame(
            game_type,
            hand=hand,
            matadors=matadors,
            bid=18,
            declarer_points=points,
            declarer_tricks=tricks,
            spitze=spitze,
            spitze_made=made,
            rum=rum,
        )
        return Scenario(profile, game)

    def ask(self, scenario: Scenario, difficulty: int, seed: int) -> Question:
        g = scenario.game
        assert g.game is not None
        facts: list[Text] = [Text("Hausregeln dieser Runde:", "This table's house rules:")]
        facts += _switch_texts(scenario.rules)
        contract = Contract(g.game, hand=g.hand)  # the one way to name a contract
        name_de, name_en = contract.ref("de"), contract.ref("en", capital=True)
        facts.append(
            Text(
                f"Spiel: {name_de}, {matadors_text(g.matadors, 'de')} (über alle Karten mit Skat gezählt)",
                f"Game: {name_en}, {matadors_text(g.matadors, 'en')} (counted over all cards incl. the skat)",
            )
        )
        facts.append(
            Text(
                f"Gereizt bis {g.bid}; der Alleinspieler hat {g.declarer_points} Augen und {g.declarer_tricks} Stiche",
                f"Bid {g.bid}; the declarer has {g.declarer_points} card points and {g.declarer_tricks} tricks",
            )
        )
        if g.rum:
            facts.append(
                Text(
                    "Der Alleinspieler hat „rum“ gesagt und den Skat gezeigt",
                    'The declarer said "rum" and showed the skat',
                )
            )
        if g.spitze:
            made_de = "gefallen" if g.spitze_made else "nicht gefallen"
            made_en = "made" if g.spitze_made else "not made"
            count_de = "1 Spitze" if g.spitze == 1 else f"{g.spitze} Spitzen"
            count_en = "1 Spitze" if g.spitze == 1 else f"{g.spitze} Spitzen"
            facts.append(Text(f"Angesagt: {count_de}, {made_de}", f"Announced: {count_en}, {made_en}"))
        return self.question(
            difficulty,
            seed,
            Text(
                f"{NOTE_DE} Was wird für den Alleinspieler in die Liste geschrieben? Verlorene Spiele mit Minus.",
                f"{NOTE_EN} What is written on the score sheet for the declarer? Lost games with a minus.",
            ),
            "number",
            facts=facts,
        )

    def solve(self, scenario: Scenario) -> Solution:
        outcome = score_house(scenario.game, scenario.rules)
        # the engine's steps name games by reference; the page names them in the reader's deck
        steps: tuple[Step, ...] = (Step(NOTE_DE, NOTE_EN, ("K.7.1",)), *outcome.steps)
        return Solution(
            (str(outcome.score),), Text(signed(outcome.score), signed(outcome.score)), steps, outcome.rule_ids
        )

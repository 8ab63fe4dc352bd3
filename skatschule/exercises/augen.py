"""Augen zählen: the card points of a trick, a skat or a stack of tricks."""

from __future__ import annotations

import random
from dataclasses import dataclass

from skatschule.engine import CARDS, Card, CardSet, Rank, Step, Text
from skatschule.engine.names import card_ref, rank_ref

from .base import Question
from .exercise import EngineExercise
from .grading import Solution
from .helpers import codes, sum_step

RULES = ("4.2.2",)
"""4.2.2 is the rule that counts Augen (61 of 120 win); 1.3.2 is about the order of trumps."""

_VALUES = (
    f"{rank_ref(Rank.ACE)} 11, {rank_ref(Rank.TEN)} 10, {rank_ref(Rank.KING)} 4, {rank_ref(Rank.QUEEN)} 3, "
    f"{rank_ref(Rank.JACK)} 2"
)
_BLANK_DE = f"{rank_ref(Rank.NINE)}, {rank_ref(Rank.EIGHT)} und {rank_ref(Rank.SEVEN)} 0"
_BLANK_EN = f"{rank_ref(Rank.NINE)}, {rank_ref(Rank.EIGHT)} and {rank_ref(Rank.SEVEN)} 0"


@dataclass(frozen=True, slots=True)
class Scenario:
    cards: tuple[Card, ...]
    what: str
    """"trick", "skat", "tricks" or "pile" (for the wording)."""


_SIZES = {
    1: ((3, "trick"), (3, "trick"), (2, "skat")),
    2: ((4, "pile"), (5, "pile"), (6, "tricks")),
    3: ((9, "tricks"), (10, "pile"), (12, "tricks")),
}

_WHAT = {
    "trick": ("Ein Stich", "A trick"),
    "skat": ("Der Skat", "The skat"),
    "tricks": ("Diese Stiche", "These tricks"),
    "pile": ("Diese Karten", "These cards"),
}


class Augen(EngineExercise[Scenario]):
    slug = "augen"
    name = Text("Augen zählen", "Counting card points")
    description = Text(
        f"{_VALUES}, {_BLANK_DE}: Wie viele Augen liegen hier?",
        f"{_VALUES}, {_BLANK_EN}: how many card points are these?",
    )
    rule_ids = RULES

    def build(self, rng: random.Random, difficulty: int) -> Scenario:
        size, what = rng.choice(_SIZES[difficulty])
        pack = list(CARDS)
        rng.shuffle(pack)
        # At the first level most cards count something; later all ranks are equally likely.
        if difficulty == 1:
            pack.sort(key=lambda c: c.points == 0 and rng.random() < 0.6)
        return Scenario(tuple(pack[:size]), what)

    def ask(self, scenario: Scenario, difficulty: int, seed: int) -> Question:
        de, en = _WHAT[scenario.what]
        n = len(scenario.cards)
        if scenario.what == "tricks":
            de, en = f"{n // 3} Stiche", f"{n // 3} tricks"
        return self.question(
            difficulty,
            seed,
            Text(
                f"{de} ({n} Karten). Wie viele Augen zählen die Karten zusammen?",
                f"{en} ({n} cards). How many card points (Augen) are they worth together?",
            ),
            "number",
            cards=codes(scenario.cards),
        )

    def solve(self, scenario: Scenario) -> Solution:
        total = CardSet(scenario.cards).points
        counting = [c for c in scenario.cards if c.points]
        blank = [c for c in scenario.cards if not c.points]
        steps = [
            Step(
                f"Augen: {_VALUES}, {_BLANK_DE}",
                f"Card points: {_VALUES}, {_BLANK_EN}",
                RULES,
            ),
            sum_step(counting, RULES)
            if counting
            else Step("Keine dieser Karten zählt Augen", "None of these cards is worth anything", RULES),
        ]
        if blank:
            steps.append(
                Step(
                    "Ohne Augen: " + ", ".join(card_ref(c) for c in blank),
                    "Worth nothing: " + ", ".join(card_ref(c) for c in blank),
                )
            )
        steps.append(Step(f"Zusammen: {total} Augen", f"Together: {total} card points", ("4.2.2",)))
        return Solution((str(total),), Text(str(total), str(total)), tuple(steps), RULES)

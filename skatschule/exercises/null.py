"""Nullspiele: their fixed values, the card order in Null, and when a Null game is lost.

Three forms, chosen by the seed:

- ``value`` (number): the value of one of the four Null games, or (from level 2) the list
  entry of a won or lost Null game;
- ``trick`` (choice among the three cards): which card takes this trick in Null;
- ``verdict`` (choice gewonnen/verloren): won or lost after what happened.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from skatschule.engine import (
    SEATS,
    Card,
    Contract,
    GameType,
    Rank,
    Step,
    Text,
    deal_cards,
    game_value,
    score_game,
    trick_winner,
)
from skatschule.engine.names import article_ref, card_ref, rank_ref

from .base import Choice, Question
from .exercise import EngineExercise
from .gen import NULL_CONTRACTS, SKAT_SUMS, bid_up_to, legal_trick
from .grading import Solution
from .helpers import codes, signed, trick_facts
from .stich import follows, trick_steps

RULES = ("1.3.4", "4.1.2", "4.2.7")
NULL = GameType.NULL
_NULL_ORDER = ", ".join(
    rank_ref(r) for r in (Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.TEN, Rank.NINE, Rank.EIGHT, Rank.SEVEN)
)
VERDICT_OPTIONS = (Choice("gewonnen", Text("Gewonnen", "Won")), Choice("verloren", Text("Verloren", "Lost")))
VERDICT_ALIASES = {"won": "gewonnen", "lost": "verloren", "g": "gewonnen", "v": "verloren"}

# (what happened, declarer's tricks, declarer's Augen incl. skat)
_STORIES: tuple[tuple[str, str, int, int], ...] = (
    ("Der Alleinspieler hat keinen einzigen Stich bekommen.", "The declarer took no trick at all.", 0, -1),
    (
        f"Der Alleinspieler hat keinen Stich bekommen; im Skat liegen aber {article_ref('CA')} und "
        f"{article_ref('CT')}.",
        f"The declarer took no trick; but the skat holds {article_ref('CA')} and {article_ref('CT')}.",
        0,
        21,
    ),
    (
        "Im letzten Stich muss der Alleinspieler übernehmen; der Stich enthält nur Sieben, Acht und Neun (0 Augen).",
        "In the last trick the declarer has to win the trick; it holds only a seven, an eight and a nine (0 card "
        "points).",
        1,
        0,
    ),
    (
        f"Gleich im ersten Stich gewinnt der Alleinspieler mit {article_ref('HQ', 'dat')}.",
        f"In the very first trick the declarer wins with {article_ref('HQ', 'dat')}.",
        1,
        -1,
    ),
    (
        "Die ersten neun Stiche gehen an die Gegenspieler; den letzten Stich muss der Alleinspieler mit "
        f"{article_ref('DA', 'dat')} nehmen.",
        "The first nine tricks go to the defenders; the declarer has to take the last trick with "
        f"{article_ref('DA', 'dat')}.",
        1,
        -1,
    ),
    (
        "Ein Gegenspieler wirft eine Zehn ab, aber der Alleinspieler bleibt bis zum Schluss ohne Stich.",
        "A defender discards a ten, but the declarer stays without a trick to the end.",
        0,
        -1,
    ),
    (
        "Die Gegenspieler haben alle zehn Stiche bekommen.",
        "The defenders took all ten tricks.",
        0,
        -1,
    ),
)


@dataclass(frozen=True, slots=True)
class Scenario:
    form: str
    """"value", "entry", "trick" or "verdict"."""
    contract: Contract
    leader: int = 0
    trick: tuple[Card, ...] = ()
    story: int = 0
    tricks: int = 0
    points: int = 0
    bid: int = 18


def _trick_ok(trick: list[Card], difficulty: int) -> bool:
    lead = trick[0]
    followers = sum(follows(NULL, lead, c) for c in trick[1:])
    special = any(c.rank in (Rank.JACK, Rank.TEN) for c in trick)
    if difficulty == 1:
        return followers == 2
    if difficulty == 2:
        return followers >= 1 and special
    has_jack = any(c.rank is Rank.JACK for c in trick)
    return special and ((has_jack and followers >= 1) or followers == 0)


class Null(EngineExercise[Scenario]):
    slug = "null"
    name = Text("Nullspiele", "Null games")
    description = Text(
        f"Feste Werte, eigene Kartenfolge (die Zehn zwischen {rank_ref(Rank.JACK)} und Neun) und "
        "verloren mit dem ersten Stich.",
        f"Fixed values, their own card order (the ten between {rank_ref(Rank.JACK)} and nine) and "
        "lost with the first trick.",
    )
    rule_ids = RULES

    def build(self, rng: random.Random, difficulty: int) -> Scenario:
        forms = {
            1: ("value", "value", "trick", "verdict"),
            2: ("entry", "trick", "trick", "verdict"),
            3: ("entry", "entry", "trick", "trick", "verdict"),
        }
        form = rng.choice(forms[difficulty])
        contract = rng.choice(NULL_CONTRACTS)
        if form == "value":
            return Scenario(form, contract)
        if form == "entry":
            tricks = 0 if rng.random() < 0.45 else 1
            return Scenario(form, contract, tricks=tricks, bid=bid_up_to(rng, game_value(contract).value))
        if form == "verdict":
            story = rng.randrange(len(_STORIES))
            _, _, tricks, points = _STORIES[story]
            if points < 0:
                points = rng.choice(SKAT_SUMS) if tricks == 0 else rng.choice((3, 5, 7, 13, 14, 17))
            return Scenario(
                form,
                contract,
                story=story,
                tricks=tricks,
                points=points,
                bid=bid_up_to(rng, game_value(contract).value),
            )
        trick: list[Card] = []
        leader = 0
        for _ in range(30):
            deal = deal_cards(rng=rng)
            leader = rng.randrange(3)
            trick = legal_trick(rng, deal[:3], NULL, leader)
            if _trick_ok(trick, difficulty):
                break
        return Scenario(form, contract, leader=leader, trick=tuple(trick))

    def ask(self, scenario: Scenario, difficulty: int, seed: int) -> Question:
        contract = scenario.contract
        facts = [Text(f"Spiel: {contract.ref('de', capital=True)}", f"Game: {contract.ref('en', capital=True)}")]
        if scenario.form == "value":
            return self.question(
                difficulty,
                seed,
                Text(
                    f"Welchen festen Wert hat ein {contract.ref('de', capital=True)}?",
                    f"What is the fixed value of a {contract.ref('en', capital=True)}?",
                ),
                "number",
                facts=facts,
                rule_ids=("4.1.2",),
            )
        if scenario.form == "entry":
            if scenario.tricks:
                facts.append(Text("Der Alleinspieler bekommt einen Stich", "The declarer takes a trick"))
            else:
                facts.append(Text("Der Alleinspieler bekommt keinen Stich", "The declarer takes no trick"))
            return self.question(
                difficulty,
                seed,
                Text(
                    f"Gespielt wird {contract.ref('de', capital=True)}. Was wird für den Alleinspieler in die Liste "
                    "geschrieben? "
                    "Verlorene Spiele mit Minus.",
                    f"The game is {contract.ref('en', capital=True)}. What is written on the score sheet for the "
                    "declarer? Lost games with a minus.",
                ),
                "number",
                facts=facts,
                rule_ids=("4.1.2", "4.2.7", "4.3.4"),
            )
        if scenario.form == "verdict":
            de, en, _, _ = _STORIES[scenario.story]
            facts.append(Text(de, en))
            return self.question(
                difficulty,
                seed,
                Text(
                    f"Gespielt wird {contract.ref('de', capital=True)}. {de} "
                    "Hat der Alleinspieler gewonnen oder verloren?",
                    f"The game is {contract.ref('en', capital=True)}. {en} Has the declarer won or lost?",
                ),
                "choice",
                options=VERDICT_OPTIONS,
                facts=facts,
                rule_ids=("4.2.7",),
            )
        leader = scenario.leader
        options = []
        for i, card in enumerate(scenario.trick):
            seat = (leader + i) % 3
            options.append(
                Choice(
                    card.code,
                    Text(f"{card_ref(card)} ({SEATS[seat].text.de})", f"{card_ref(card)} ({SEATS[seat].text.en})"),
                )
            )
        facts += trick_facts(scenario.trick, leader)
        return self.question(
            difficulty,
            seed,
            Text(
                "Gespielt wird ein Nullspiel. Welche Karte bekommt diesen Stich?",
                "This is a Null game. Which card takes this trick?",
            ),
            "choice",
            options=options,
            trick=codes(scenario.trick),
            facts=facts,
            rule_ids=("1.3.4", "3.4.2"),
        )

    def aliases(self, scenario: Scenario) -> dict[str, str]:
        return VERDICT_ALIASES if scenario.form == "verdict" else {}

    def solve(self, scenario: Scenario) -> Solution:
        contract = scenario.contract
        table = Step(
            "Nullspiele haben feste Werte: Null 23, Null Hand 35, Null ouvert 46, Null ouvert Hand 59",
            "Null games have fixed values: Null 23, Null Hand 35, Null ouvert 46, Null ouvert Hand 59",
            ("4.1.2",),
        )
        if scenario.form == "value":
            gv = game_value(contract)
            return Solution((str(gv.value),), Text(str(gv.value), str(gv.value)), (table, *gv.steps), ("4.1.2",))
        if scenario.form in ("entry", "verdict"):
            outcome = score_game(
                contract, 0, bid=scenario.bid, declarer_points=scenario.points, declarer_tricks=scenario.tricks
            )
            steps = [table] if scenario.form == "entry" else []
            steps.append(
                Step(
                    "Im Nullspiel zählen keine Augen: Der Alleinspieler verliert, sobald er einen Stich bekommt",
                    "Card points do not count in Null: the declarer loses as soon as he takes a trick",
                    ("4.2.7",),
                )
            )
            steps += list(outcome.steps)
            if scenario.form == "entry":
                return Solution(
                    (str(outcome.score),),
                    Text(signed(outcome.score), signed(outcome.score)),
                    tuple(steps),
                    ("4.1.2", "4.2.7", "4.3.4"),
                )
            value = "gewonnen" if outcome.won else "verloren"
            label = VERDICT_OPTIONS[0] if outcome.won else VERDICT_OPTIONS[1]
            return Solution((value,), Text(label.label.de, label.label.en), tuple(steps), ("4.2.7",))
        best = trick_winner(NULL, scenario.trick)
        card = scenario.trick[best]
        seat = (scenario.leader + best) % 3
        steps = [
            Step(
                f"Kartenfolge im Null: {_NULL_ORDER}; es gibt keinen Trumpf",
                f"Card order in Null: {_NULL_ORDER}; there are no trumps",
                ("1.3.4",),
            ),
            *trick_steps(NULL, scenario.leader, scenario.trick),
        ]
        return Solution(
            (card.code,),
            Text(f"{card_ref(card)} ({SEATS[seat].text.de})", f"{card_ref(card)} ({SEATS[seat].text.en})"),
            tuple(steps),
            ("1.3.4", "3.4.2"),
        )

"""Spitzen: the declarer's twelve cards (hand and skat) and a game: mit or ohne how many?

Widget ``choice``; the option values are signed numbers (``+2`` for "mit 2", ``-3`` for
"ohne 3"), the labels say "mit 2" / "with 2". Answers like ``mit 2``, ``ohne 3``, ``+2``,
``-3`` or ``2`` are read.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass

from skatschule.engine import Card, CardSet, GameType, Step, Text, matadors, matadors_text, trump_order
from skatschule.engine.names import article_ref, card_ref, game_ref
from skatschule.engine.sorting import neutral_order, sort_hand

from .base import Choice, Question
from .exercise import EngineExercise
from .gen import cards_with_matadors, weighted
from .grading import Solution
from .helpers import SUIT_GAMES, codes, game_en

RULES = ("1.4.1", "1.4.2", "1.4.3")


@dataclass(frozen=True, slots=True)
class Scenario:
    game: GameType
    hand: tuple[Card, ...]
    skat: tuple[Card, Card]


def matador_options(game: GameType, level: int | None = None) -> list[Choice]:
    """ "mit 1" .. "ohne n": up to the most matadors the game has, or (with ``level``) the level draws.

    Offering only counts the level can ask keeps a fixed guess ("mit 1") near chance.
    """
    top = game.max_matadors
    if level is not None:
        top = min(top, max(n for n, _ in _LEVEL_COUNTS[level]))
    out = [Choice(f"+{n}", Text(f"mit {n}", f"with {n}")) for n in range(1, top + 1)]
    out += [Choice(f"-{n}", Text(f"ohne {n}", f"without {n}")) for n in range(1, top + 1)]
    return out


def matador_value(count: int) -> str:
    return f"+{count}" if count > 0 else str(count)


_LEVEL_COUNTS = {
    1: ((1, 5), (2, 4)),
    2: ((1, 2), (2, 3), (3, 4), (4, 2)),
    3: ((2, 1), (3, 2), (4, 3), (5, 3), (6, 2), (7, 1), (8, 0.5), (9, 0.3), (10, 0.2), (11, 0.2)),
}


class Spitzen(EngineExercise[Scenario]):
    slug = "spitzen"
    name = Text("Spitzen", "Matadors")
    description = Text(
        "Mit oder ohne wie viele? Die Spitzen zählen mit den zwölf Karten des Alleinspielers, Skat eingeschlossen.",
        "With or without how many? Matadors are counted over the declarer's twelve cards, skat included.",
    )
    rule_ids = RULES

    def build(self, rng: random.Random, difficulty: int) -> Scenario:
        game = rng.choice(SUIT_GAMES if difficulty == 3 else SUIT_GAMES + (GameType.GRAND,))
        table = [(n, w) for n, w in _LEVEL_COUNTS[difficulty] if n <= game.max_matadors]
        count = weighted(rng, table)
        if rng.random() < 0.5:
            count = -count
        cards = cards_with_matadors(rng, game, count, 12, trump_weight=2.5 if game.is_suit_game else 1.0)
        rng.shuffle(cards)
        # From level 2 on, a card that decides the count often lies in the skat.
        order = trump_order(game)
        k = abs(count)
        deciding = [c for c in order[: k + 1] if c in cards]
        if difficulty >= 2 and deciding and rng.random() < 0.6:
            key = rng.choice(deciding)
            cards.remove(key)
            cards.insert(0, key)
        skat = (cards[0], cards[1])
        hand = tuple(neutral_order(cards[2:]))
        return Scenario(game, hand, skat)

    def ask(self, scenario: Scenario, difficulty: int, seed: int) -> Question:
        return self.question(
            difficulty,
            seed,
            Text(
                f"Der Alleinspieler spielt {game_ref(scenario.game)}. Das sind seine zehn Handkarten und der Skat. "
                "Mit oder ohne wie viele Spitzen spielt er?",
                f"The declarer plays {game_en(scenario.game)}. These are his ten cards and the skat. "
                "With or without how many matadors does he play?",
            ),
            "choice",
            options=matador_options(scenario.game, difficulty),
            cards=codes(sort_hand(scenario.hand, scenario.game)),
            skat=codes(scenario.skat),
            facts=[Text(f"Spiel: {game_ref(scenario.game)}", f"Game: {game_en(scenario.game)}")],
        )

    def aliases(self, scenario: Scenario) -> Mapping[str, str]:
        out: dict[str, str] = {}
        for n in range(1, scenario.game.max_matadors + 1):
            out[str(n)] = f"+{n}"
            out[f"m{n}"] = f"+{n}"
            out[f"o{n}"] = f"-{n}"
            out[f"\u2212{n}"] = f"-{n}"
            out[f"mit{n}"] = f"+{n}"
            out[f"ohne{n}"] = f"-{n}"
        return out

    def solve(self, scenario: Scenario) -> Solution:
        game = scenario.game
        cards = CardSet(scenario.hand) | CardSet(scenario.skat)
        count = matadors(game, cards)
        return Solution(
            (matador_value(count),),
            Text(matadors_text(count, "de"), matadors_text(count, "en")),
            tuple(matador_steps(game, cards, count, scenario.skat)),
            RULES,
        )


def matador_steps(game: GameType, cards: CardSet, count: int, skat: tuple[Card, ...] = ()) -> list[Step]:
    """Walk down the trumps from the Kreuz-Bube until the sequence breaks."""
    order = trump_order(game)
    having = count > 0
    steps = [
        Step(
            "Spitzen zählen mit allen zwölf Karten, auch mit dem Skat",
            "Matadors are counted over all twelve cards, the skat included",
            ("1.4.2",),
        )
    ]
    parts_de: list[str] = []
    parts_en: list[str] = []
    for trump in order[: abs(count) + 1]:
        there = trump in cards
        where_de = " (im Skat)" if trump in skat else ""
        where_en = " (in the skat)" if trump in skat else ""
        parts_de.append(f"{card_ref(trump)} {'da' if there else 'fehlt'}{where_de}")
        parts_en.append(f"{card_ref(trump)} {'held' if there else 'missing'}{where_en}")
    steps.append(Step("Von oben: " + ", ".join(parts_de), "From the top: " + ", ".join(parts_en), ("1.4.1",)))
    if having:
        de = f"Dabei ist {article_ref('CJ')}: Er spielt mit {count}, so weit reicht die ununterbrochene Folge"
        en = f"He holds {article_ref('CJ')}: he plays with {count}, as far as the unbroken run goes"
    else:
        de = f"Ihm fehlt {article_ref('CJ')}: Er spielt ohne {-count}, so viele fehlen bis zum ersten eigenen Trumpf"
        en = f"He lacks {article_ref('CJ')}: he plays without {-count}, that many are missing down to his first trump"
    steps.append(Step(de, en, ("1.4.2",)))
    if abs(count) == game.max_matadors:
        steps.append(
            Step(
                f"Mehr als {game.max_matadors} Spitzen gibt es "
                f"{'im Grand' if game is GameType.GRAND else 'im Farbspiel'} nicht",
                f"There are no more than {game.max_matadors} matadors "
                f"{'in a Grand' if game is GameType.GRAND else 'in a suit game'}",
                ("1.4.3",),
            )
        )
    return steps

"""Wer bekommt den Stich? A complete, legally played trick: who takes it?"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from skatschule.engine import SEATS, Card, GameType, Rank, Step, Text, deal_cards, is_trump, trick_winner
from skatschule.engine.names import article_ref, card_ref, game_ref, suit_ref

from .base import Choice, Question
from .exercise import EngineExercise
from .gen import legal_trick
from .grading import Solution
from .helpers import SUIT_GAMES, codes, game_en, trick_facts

SEAT_VALUES = ("vorhand", "mittelhand", "hinterhand")


@dataclass(frozen=True, slots=True)
class Scenario:
    game: GameType
    leader: int
    trick: tuple[Card, Card, Card]


def follows(game: GameType, lead: Card, card: Card) -> bool:
    """Does ``card`` follow the led card (same suit, or trump to a trump)?"""
    if is_trump(game, lead):
        return is_trump(game, card)
    return not is_trump(game, card) and card.suit == lead.suit


def trick_steps(game: GameType, leader: int, trick: Sequence[Card]) -> list[Step]:
    """Play-by-play of a trick and why its winner takes it (ISkO 3.2, 3.4.2)."""
    lead = trick[0]
    steps: list[Step] = []
    if is_trump(game, lead):
        steps.append(
            Step(
                f"{SEATS[leader].text.de} spielt {card_ref(lead)} aus: Trumpf ist gefordert",
                f"{SEATS[leader].text.en.capitalize()} leads the {card_ref(lead)}: trump is led",
                ("3.2.1",),
            )
        )
    else:
        steps.append(
            Step(
                f"{SEATS[leader].text.de} spielt {card_ref(lead)} aus: {suit_ref(lead.suit)} ist gefordert",
                f"{SEATS[leader].text.en.capitalize()} leads the {card_ref(lead)}: {suit_ref(lead.suit)} are led",
                ("3.2.1",),
            )
        )
        if lead.is_jack and game.is_null:
            steps.append(
                Step(
                    f"Im Null gehört {article_ref(lead)} zu seiner Farbe",
                    f"In Null {article_ref(lead)} belongs to its suit",
                    ("1.3.4",),
                )
            )
    for i in (1, 2):
        name = SEATS[(leader + i) % 3].text
        who_de, who_en = name.de, name.en.capitalize()
        card = trick[i]
        if follows(game, lead, card):
            de, en = f"{who_de}: {card_ref(card)} bedient", f"{who_en}: the {card_ref(card)} follows"
        elif is_trump(game, card):
            de = f"{who_de}: {card_ref(card)} sticht (kann nicht bedienen, spielt Trumpf)"
            en = f"{who_en}: the {card_ref(card)} trumps (cannot follow, plays a trump)"
        else:
            de = f"{who_de}: {card_ref(card)} wird abgeworfen (kann nicht bedienen)"
            en = f"{who_en}: the {card_ref(card)} is discarded (cannot follow)"
        steps.append(Step(de, en, ("3.2.1", "3.2.2")))
    best = trick_winner(game, trick)
    card = trick[best]
    seat = (leader + best) % 3
    if is_trump(game, card):
        if is_trump(game, lead):
            why = ("der höchste Trumpf im Stich", "the highest trump in the trick")
        else:
            why = ("der höchste Trumpf sticht jede Farbkarte", "the highest trump beats any plain card")
    elif all(not follows(game, lead, c) for c in trick[1:]):
        why = ("niemand hat bedient oder gestochen", "nobody followed or trumped")
    else:
        why = ("die höchste Karte der geforderten Farbe", "the highest card of the suit led")
    steps.append(
        Step(
            f"{SEATS[seat].text.de} bekommt den Stich mit {card_ref(card)}: {why[0]}",
            f"{SEATS[seat].text.en.capitalize()} takes the trick with the {card_ref(card)}: {why[1]}",
            ("3.4.2",),
        )
    )
    return steps


def _interesting(game: GameType, trick: list[Card], difficulty: int) -> bool:
    lead = trick[0]
    all_follow = all(follows(game, lead, c) for c in trick[1:])
    if difficulty == 1:
        return all_follow
    if difficulty == 2:
        return not all_follow
    if game.is_null:
        return (
            any(c.rank in (Rank.JACK, Rank.TEN) for c in trick) and sum(follows(game, lead, c) for c in trick[1:]) >= 1
        )
    jack = any(c.is_jack for c in trick)
    trumps = sum(is_trump(game, c) for c in trick)
    return jack and (trumps >= 2 or not all_follow)


class Stich(EngineExercise[Scenario]):
    slug = "stich"
    name = Text("Wer bekommt den Stich?", "Who takes the trick?")
    description = Text(
        "Drei Karten liegen auf dem Tisch. Wer bekommt den Stich: Vorhand, Mittelhand oder Hinterhand?",
        "Three cards lie on the table. Who takes the trick: forehand, middlehand or rearhand?",
    )
    rule_ids = ("3.4.2", "3.2.1", "1.3.2")

    def build(self, rng: random.Random, difficulty: int) -> Scenario:
        if difficulty == 3:
            games = (GameType.NULL, GameType.NULL, GameType.GRAND) + SUIT_GAMES
        else:
            games = SUIT_GAMES + (GameType.GRAND,)
        game, leader, trick = GameType.GRAND, 0, [Card.parse("CJ")]
        for _ in range(30):
            game = rng.choice(games)
            deal = deal_cards(rng=rng)
            leader = rng.randrange(3)
            trick = legal_trick(rng, deal[:3], game, leader)
            if _interesting(game, trick, difficulty):
                break
        return Scenario(game, leader, (trick[0], trick[1], trick[2]))

    def ask(self, scenario: Scenario, difficulty: int, seed: int) -> Question:
        leader = scenario.leader
        options = []
        for seat in range(3):
            card = scenario.trick[(seat - leader) % 3]
            options.append(
                Choice(
                    SEAT_VALUES[seat],
                    Text(
                        f"{SEATS[seat].text.de} ({card_ref(card)})",
                        f"{SEATS[seat].text.en.capitalize()} ({card_ref(card)})",
                    ),
                )
            )
        facts = [Text(f"Spiel: {game_ref(scenario.game)}", f"Game: {game_en(scenario.game)}")]
        facts += trick_facts(scenario.trick, leader)
        lead = SEATS[leader].text
        return self.question(
            difficulty,
            seed,
            Text(
                f"Gespielt wird {game_ref(scenario.game)}. {lead.de} spielt aus, die anderen geben zu. "
                "Wer bekommt den Stich?",
                f"The game is {game_en(scenario.game)}. {lead.en.capitalize()} leads, the others follow. Who takes "
                "the trick?",
            ),
            "choice",
            options=options,
            trick=codes(scenario.trick),
            facts=facts,
            rule_ids=("3.4.2", "3.2.1")
            + (("1.3.4",) if scenario.game.is_null else ("1.3.3",) if scenario.game is GameType.GRAND else ("1.3.2",)),
        )

    def solve(self, scenario: Scenario) -> Solution:
        best = trick_winner(scenario.game, scenario.trick)
        seat = (scenario.leader + best) % 3
        card = scenario.trick[best]
        steps = tuple(trick_steps(scenario.game, scenario.leader, scenario.trick))
        return Solution(
            (SEAT_VALUES[seat],),
            Text(f"{SEATS[seat].text.de} ({card_ref(card)})", f"{SEATS[seat].text.en.capitalize()} ({card_ref(card)})"),
            steps,
            ("3.4.2",),
        )

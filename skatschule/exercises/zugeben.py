"""Was darf ich zugeben? A hand and one or two cards on the table: select every card you may play."""

from __future__ import annotations

import random
from dataclasses import dataclass

from skatschule.engine import (
    SEATS,
    Card,
    CardSet,
    GameType,
    Rank,
    Step,
    Text,
    deal_cards,
    is_trump,
    legal_cards,
)
from skatschule.engine.names import article_ref, card_ref, cards_ref, game_ref, suit_ref
from skatschule.engine.sorting import neutral_order, sort_hand

from .base import Question
from .exercise import EngineExercise
from .gen import legal_trick
from .grading import Solution
from .helpers import SUIT_GAMES, card_choice, codes, game_en, trick_facts
from .stich import follows


@dataclass(frozen=True, slots=True)
class Scenario:
    game: GameType
    leader: int
    trick: tuple[Card, ...]
    hand: tuple[Card, ...]

    @property
    def seat(self) -> int:
        return (self.leader + len(self.trick)) % 3


def _trap(game: GameType, lead: Card, hand: tuple[Card, ...]) -> bool:
    """Is there a card that looks as if it followed but does not (or the other way round)?"""
    if game.is_null:
        return any(c.suit == lead.suit and c.rank in (Rank.JACK, Rank.TEN) for c in hand)
    if is_trump(game, lead):
        # jacks and trump-suit cards both follow a trump lead
        return any(c.is_jack for c in hand) or lead.is_jack
    return any(c.is_jack and c.suit == lead.suit for c in hand)


class Zugeben(EngineExercise[Scenario]):
    slug = "zugeben"
    name = Text("Was darf ich zugeben?", "Which cards may I play?")
    description = Text(
        "Bedienen, stechen oder abwerfen: Welche Karten deiner Hand sind jetzt erlaubt?",
        "Follow, trump or discard: which cards of your hand are allowed now?",
    )
    rule_ids = ("3.2.1", "3.2.2")

    def build(self, rng: random.Random, difficulty: int) -> Scenario:
        size = {1: 6, 2: 8, 3: 10}[difficulty]
        if difficulty == 3:
            games = (GameType.NULL, GameType.NULL, GameType.GRAND) + SUIT_GAMES
        else:
            games = SUIT_GAMES + (GameType.GRAND,)
        scenario = None
        for _ in range(30):
            game = rng.choice(games)
            deal = deal_cards(rng=rng)
            leader = rng.randrange(3)
            on_table = 1 if difficulty == 1 else rng.choice((1, 2))
            trick = legal_trick(rng, deal[:3], game, leader, on_table)
            seat = (leader + on_table) % 3
            hand = tuple(neutral_order(rng.sample(deal.hand(seat), size)))
            scenario = Scenario(game, leader, tuple(trick), hand)
            lead = trick[0]
            can_follow = any(follows(game, lead, c) for c in hand)
            if difficulty == 1:
                if not is_trump(game, lead) and (can_follow or rng.random() < 0.25):
                    break
            elif difficulty == 2:
                if _trap(game, lead, hand) or (not can_follow and rng.random() < 0.3):
                    break
            elif _trap(game, lead, hand):
                break
        assert scenario is not None
        return scenario

    def ask(self, scenario: Scenario, difficulty: int, seed: int) -> Question:
        seat = scenario.seat
        facts = [Text(f"Spiel: {game_ref(scenario.game)}", f"Game: {game_en(scenario.game)}")]
        facts += trick_facts(scenario.trick, scenario.leader)
        facts.append(
            Text(
                f"Du sitzt in {SEATS[seat].text.de} und bist dran", f"You are {SEATS[seat].text.en} and it is your turn"
            )
        )
        return self.question(
            difficulty,
            seed,
            Text(
                f"Gespielt wird {game_ref(scenario.game)}. Welche Karten deiner Hand darfst du jetzt spielen? Wähle "
                "alle erlaubten Karten.",
                f"The game is {game_en(scenario.game)}. Which cards of your hand may you play now? Select every "
                "allowed card.",
            ),
            "cards",
            options=[card_choice(c) for c in sort_hand(scenario.hand, scenario.game)],
            trick=codes(scenario.trick),
            facts=facts,
            rule_ids=("3.2.1", "3.2.2") + (("1.3.4",) if scenario.game.is_null else ("1.3.2",)),
        )

    def solve(self, scenario: Scenario) -> Solution:
        game = scenario.game
        lead = scenario.trick[0]
        allowed = sort_hand(legal_cards(game, CardSet(scenario.hand), scenario.trick), game)
        steps: list[Step] = []
        if is_trump(game, lead):
            yours_de, yours_en, none_de, none_en = "Deine Trümpfe", "Your trumps", "keinen Trumpf", "no trump"
            steps.append(
                Step(
                    f"Ausgespielt ist {card_ref(lead)}, ein Trumpf: Trumpf muss bedient werden",
                    f"The {card_ref(lead)} was led, a trump: you must follow with a trump",
                    ("3.2.1",),
                )
            )
        else:
            suit_de = suit_en = suit_ref(lead.suit)
            yours_de, yours_en = f"Deine {suit_de}-Karten", f"Your {suit_en}"
            none_de, none_en = f"kein {suit_de}", f"no {suit_en}"
            steps.append(
                Step(
                    f"Ausgespielt ist {card_ref(lead)}: {suit_ref(lead.suit)} muss bedient werden",
                    f"The {card_ref(lead)} was led: you must follow with {suit_ref(lead.suit)}",
                    ("3.2.1",),
                )
            )
        jacks = [c for c in scenario.hand if c.is_jack and c.suit == lead.suit and not is_trump(game, lead)]
        if jacks and not game.is_null:
            jack = jacks[0]
            steps.append(
                Step(
                    f"{card_ref(jack)} ist Trumpf und zählt nicht als {suit_ref(lead.suit)}",
                    f"The {card_ref(jack)} is a trump and does not count as {suit_ref(lead.suit)}",
                    ("1.3.2",) if game.is_suit_game else ("1.3.3",),
                )
            )
        if game.is_null and any(c.is_jack and c.suit == lead.suit for c in scenario.hand):
            steps.append(
                Step(
                    f"Im Null ist {article_ref(Card(lead.suit, Rank.JACK))} eine gewöhnliche "
                    f"{suit_ref(lead.suit)}-Karte",
                    f"In Null {article_ref(Card(lead.suit, Rank.JACK))} is an ordinary {suit_ref(lead.suit)} card",
                    ("1.3.4",),
                )
            )
        followers = [c for c in scenario.hand if follows(game, lead, c)]
        if followers:
            steps.append(
                Step(
                    f"{yours_de}: {cards_ref(followers)}. Nur diese Karten darfst du spielen",
                    f"{yours_en}: {cards_ref(followers)}. Only these cards may be played",
                    ("3.2.1",),
                )
            )
        else:
            how_de, how_en = (
                ("", "") if game.is_null else (", also stechen oder abwerfen", ", so you may trump or discard")
            )
            steps.append(
                Step(
                    f"Du hast {none_de}: Du darfst jede Karte spielen{how_de}",
                    f"You hold {none_en}: any card may be played{how_en}",
                    ("3.2.2",),
                )
            )
        return Solution(codes(allowed), Text(cards_ref(allowed), cards_ref(allowed)), tuple(steps), ("3.2.1", "3.2.2"))

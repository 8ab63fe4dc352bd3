"""Rangfolge und Trumpf: order cards from the highest down, or pick out the trumps.

Two forms, chosen by the seed: ``order`` (widget order) and ``trumps`` (widget cards).
Cards to order are always comparable (trumps plus at most one plain suit; in Null one
suit), so exactly one order is right; the engine's trick rules decide it.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass

from skatschule.engine import CARDS, Card, GameType, Rank, Step, Text, is_trump, trump_order
from skatschule.engine.names import card_ref, cards_ref, game_ref, rank_ref, suit_ref
from skatschule.engine.sorting import neutral_order, sort_hand

from .base import Question
from .exercise import EngineExercise
from .grading import Solution
from .helpers import SUIT_GAMES, beats, card_choice, codes, game_en

_SUIT_RANKS = (Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.NINE, Rank.EIGHT, Rank.SEVEN)
_NULL_RANKS = (Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.TEN, Rank.NINE, Rank.EIGHT, Rank.SEVEN)
# rank references: the page names them as the reader's deck does (Ass/Daus, Dame/Ober ...)
ORDER_DE = ORDER_EN = ", ".join(rank_ref(r) for r in _SUIT_RANKS)
NULL_ORDER_DE = NULL_ORDER_EN = ", ".join(rank_ref(r) for r in _NULL_RANKS)
JACKS = rank_ref(Rank.JACK, plural=True)


@dataclass(frozen=True, slots=True)
class Scenario:
    game: GameType
    form: str
    """"order" or "trumps"."""
    cards: tuple[Card, ...]
    """For ``order`` the cards as shown (shuffled); for ``trumps`` the hand."""


def rule_ids_for(game: GameType) -> tuple[str, ...]:
    if game.is_null:
        return ("1.3.4",)
    if game is GameType.GRAND:
        return ("1.3.3",)
    return ("1.3.1", "1.3.2")


def game_phrase(game: GameType) -> tuple[str, str]:
    if game.is_null:
        return "im Nullspiel", "in a Null game"
    if game is GameType.GRAND:
        return "im Grand", "in a Grand"
    return (
        f"im {game_ref(game)}spiel ({game_ref(game)} ist Trumpf)",
        f"in a {game_ref(game)} game ({game_ref(game)} are trumps)",
    )


def highest_first(game: GameType, cards: list[Card]) -> list[Card]:
    """The cards from the highest down, as the engine's trick rules rank them."""

    def compare(a: Card, b: Card) -> int:
        if beats(game, a, b):
            return -1
        if beats(game, b, a):
            return 1
        return 0

    return sorted(cards, key=functools.cmp_to_key(compare))


def _pick_game(rng: random.Random, difficulty: int) -> GameType:
    if difficulty == 1:
        return rng.choice((SUIT_GAMES + (GameType.GRAND,)) if rng.random() < 0.2 else SUIT_GAMES)
    if difficulty == 2:
        return rng.choice(SUIT_GAMES + (GameType.GRAND, GameType.GRAND))
    return rng.choice((GameType.NULL, GameType.NULL, GameType.GRAND) + SUIT_GAMES)


def _order_pool(rng: random.Random, game: GameType, difficulty: int) -> list[Card]:
    """Cards that can all be compared with each other in ``game``."""
    if game.is_null:
        suit = rng.randrange(4)
        return [c for c in CARDS if c.suit == suit]
    trumps = list(trump_order(game))
    if difficulty == 1 and game is not GameType.GRAND:
        return trumps
    side = [s for s in range(4) if s != game.trump_suit]
    suit = rng.choice(side)
    return trumps + [c for c in CARDS if c.suit == suit and not is_trump(game, c)]


def _order_cards(rng: random.Random, game: GameType, difficulty: int) -> list[Card]:
    pool = _order_pool(rng, game, difficulty)
    size = {1: 4, 2: 5, 3: 6}[difficulty]
    for _ in range(20):
        cards = rng.sample(pool, size)
        if difficulty == 1:
            return cards
        has_trump = any(is_trump(game, c) for c in cards)
        has_plain = any(not is_trump(game, c) for c in cards)
        if game.is_null:
            # the point of Null: where the jack and the ten stand
            if any(c.rank in (Rank.JACK, Rank.TEN) for c in cards):
                return cards
        elif has_trump and has_plain and any(c.rank is Rank.TEN for c in cards):
            return cards
    return cards


def _trump_cards(rng: random.Random, game: GameType, difficulty: int) -> list[Card]:
    size = {1: 6, 2: 7, 3: 8}[difficulty]
    for _ in range(30):
        cards = rng.sample(CARDS, size)
        if game.is_null:
            if any(c.is_jack for c in cards):
                return cards
            continue
        trumps = [c for c in cards if is_trump(game, c)]
        if not trumps or len(trumps) == size:
            continue
        if difficulty >= 2 and not any(c.is_jack for c in cards):
            continue
        if difficulty == 3 and game.is_suit_game and not any(c.is_jack and c.suit != game.trump_suit for c in cards):
            continue
        return cards
    return cards


class Rangfolge(EngineExercise[Scenario]):
    slug = "rangfolge"
    name = Text("Rangfolge und Trumpf", "Card order and trumps")
    description = Text(
        "Welche Karte ist höher, welche ist Trumpf? Farbspiel, Grand und Null im Vergleich.",
        "Which card ranks higher, which is a trump? Suit games, Grand and Null compared.",
    )
    rule_ids = ("1.3.1", "1.3.2", "1.3.3", "1.3.4")

    def build(self, rng: random.Random, difficulty: int) -> Scenario:
        game = _pick_game(rng, difficulty)
        form = "order" if rng.random() < 0.5 else "trumps"
        if form == "trumps" and game.is_null and rng.random() < 0.6:
            game = rng.choice(SUIT_GAMES + (GameType.GRAND,))  # keep "no trumps at all" an occasional surprise
        if form == "order":
            cards = _order_cards(rng, game, difficulty)
            right = highest_first(game, cards)
            while cards == right:
                rng.shuffle(cards)
            return Scenario(game, form, tuple(cards))
        return Scenario(game, form, tuple(neutral_order(_trump_cards(rng, game, difficulty))))

    def ask(self, scenario: Scenario, difficulty: int, seed: int) -> Question:
        where_de, where_en = game_phrase(scenario.game)
        shown = scenario.cards
        if scenario.form == "trumps":
            # a hand, sorted as players sort it, but not for the game asked about (that would
            # put the trumps first): the order before a game is known, or Null's order
            shown = tuple(sort_hand(scenario.cards, GameType.NULL if scenario.game.is_null else None))
        options = [card_choice(c) for c in shown]
        facts = [Text(f"Spiel: {game_ref(scenario.game)}", f"Game: {game_en(scenario.game)}")]
        if scenario.form == "order":
            return self.question(
                difficulty,
                seed,
                Text(
                    f"Ordne die Karten {where_de}: die höchste zuerst, die niedrigste zuletzt.",
                    f"Put the cards in order {where_en}: the highest first, the lowest last.",
                ),
                "order",
                options=options,
                facts=facts,
                rule_ids=rule_ids_for(scenario.game),
            )
        return self.question(
            difficulty,
            seed,
            Text(
                f"Welche dieser Karten sind Trumpf {where_de}? "
                "Wähle alle Trümpfe aus (auch keine, wenn es keine gibt).",
                f"Which of these cards are trumps {where_en}? Select every trump (or none if there are none).",
            ),
            "cards",
            options=options,
            facts=facts,
            rule_ids=rule_ids_for(scenario.game),
        )

    def solve(self, scenario: Scenario) -> Solution:
        game = scenario.game
        rules = rule_ids_for(game)
        steps = [_trump_rule(game)]
        if scenario.form == "order":
            right = highest_first(game, list(scenario.cards))
            if game.is_null:
                steps.append(
                    Step(
                        f"Reihenfolge in jeder Farbe: {NULL_ORDER_DE}",
                        f"Order in every suit: {NULL_ORDER_EN}",
                        ("1.3.4",),
                    )
                )
            else:
                plain = [c for c in right if not is_trump(game, c)]
                if plain and game is GameType.GRAND:
                    steps.append(
                        Step(
                            f"Die Farben sind im Grand kein Trumpf: Alle {JACKS} sind höher; in der Farbe gilt "
                            f"{ORDER_DE}",
                            f"No suit is trump in a Grand: all {JACKS} rank higher; within a suit: {ORDER_EN}",
                            ("1.3.3",),
                        )
                    )
                elif plain:
                    suit = plain[0].suit
                    steps.append(
                        Step(
                            f"{suit_ref(suit)} ist hier Nebenfarbe: Jede Trumpfkarte ist höher; "
                            f"in der Farbe gilt {ORDER_DE}",
                            f"{suit_ref(suit, capital=True)} are a side suit here: every trump ranks higher; "
                            f"within the suit: {ORDER_EN}",
                            ("1.3.1",),
                        )
                    )
            steps.append(Step("Richtig: " + cards_ref(right, " > "), "Right: " + cards_ref(right, " > "), rules))
            return Solution(codes(right), Text(cards_ref(right, " > "), cards_ref(right, " > ")), tuple(steps), rules)
        trumps = [c for c in scenario.cards if is_trump(game, c)]
        for card in scenario.cards:
            steps.append(_trump_line(game, card))
        answer_de = cards_ref(trumps) if trumps else "keine (kein Trumpf)"
        answer_en = cards_ref(trumps) if trumps else "none (no trumps)"
        return Solution(codes(trumps), Text(answer_de, answer_en), tuple(steps), rules)


def _trump_rule(game: GameType) -> Step:
    if game.is_null:
        return Step(
            f"Im Nullspiel gibt es keinen Trumpf; die {JACKS} gehören zu ihrer Farbe, die Zehn steht zwischen "
            f"{rank_ref(Rank.JACK)} und Neun",
            f"A Null game has no trumps; the {JACKS} belong to their suits, and the ten ranks between "
            f"{rank_ref(Rank.JACK)} and nine",
            ("1.3.4",),
        )
    order = trump_order(game)
    if game is GameType.GRAND:
        return Step(
            f"Im Grand sind nur die vier {JACKS} Trumpf: " + cards_ref(order, " > "),
            f"In a Grand only the four {JACKS} are trumps: " + cards_ref(order, " > "),
            ("1.3.3",),
        )
    return Step(
        f"Trümpfe im {game_ref(game)}spiel, von oben: " + cards_ref(order, " > "),
        f"Trumps in a {game_ref(game)} game, from the top: " + cards_ref(order, " > "),
        ("1.3.2",),
    )


def _trump_line(game: GameType, card: Card) -> Step:
    if game.is_null:
        return Step(f"{card_ref(card)}: kein Trumpf", f"{card_ref(card)}: not a trump", ("1.3.4",))
    if card.is_jack:
        return Step(
            f"{card_ref(card)}: Trumpf ({JACKS} sind immer Trumpf, außer im Null)",
            f"{card_ref(card)}: trump ({JACKS} are always trumps, except in Null)",
            ("1.3.2",) if game.is_suit_game else ("1.3.3",),
        )
    if is_trump(game, card):
        return Step(
            f"{card_ref(card)}: Trumpf ({game_ref(game)} ist Trumpffarbe)",
            f"{card_ref(card)}: trump ({game_ref(game)} are the trump suit)",
            ("1.3.2",),
        )
    why_de = "im Grand ist keine Farbe Trumpf" if game is GameType.GRAND else f"{suit_ref(card.suit)} ist Nebenfarbe"
    why_en = "no suit is trump in a Grand" if game is GameType.GRAND else f"{suit_ref(card.suit)} are a side suit"
    return Step(f"{card_ref(card)}: kein Trumpf ({why_de})", f"{card_ref(card)}: not a trump ({why_en})", ("1.3.1",))

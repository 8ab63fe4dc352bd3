"""Small texts and facts the exercise types share: card codes and options, the cards of a
trick, games named for English, signed list entries, sums of Augen, rule ids.

The other shared parts have their own modules: :mod:`.exercise` (the base class
:class:`~.exercise.EngineExercise`), :mod:`.answers` (reading an answer by widget),
:mod:`.grading` (comparing it with the engine's solution); card orders are the engine's
(:mod:`skatschule.engine.sorting`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from skatschule.content.ids import RULE_ONLY_RE
from skatschule.engine import SEATS, Card, GameType, Rank, Step, Text, trick_winner
from skatschule.engine.names import card_ref, game_ref, suit_ref

from .base import Choice

__all__ = [
    "RULE_ID",
    "SUIT_GAMES",
    "codes",
    "card_choice",
    "trick_facts",
    "game_en",
    "signed",
    "sum_step",
    "beats",
    "merge_ids",
    "step_ids",
    "jacks_in",
    "expected_score",
]

RULE_ID = RULE_ONLY_RE  # a rule id (three parts), skatschule.content.ids
"""The form of a rule id: ``chapter.section.paragraph`` (``1.3.2``, ``K.1.4``, ``A.2.1``)."""

SUIT_GAMES: tuple[GameType, ...] = (GameType.CLUBS, GameType.SPADES, GameType.HEARTS, GameType.DIAMONDS)


# --------------------------------------------------------------------------- texts


# Texts name cards, suits and games by reference (skatschule.engine.names): the page renders
# them in the reader's deck and language, so the German and English texts hold the same refs.


def codes(cards: Iterable[Card]) -> tuple[str, ...]:
    return tuple(c.code for c in cards)


def card_choice(card: Card, prefix_de: str = "", prefix_en: str = "") -> Choice:
    """An option that stands for one card (value: its code)."""
    return Choice(card.code, Text(prefix_de + card_ref(card), prefix_en + card_ref(card)))


def trick_facts(trick: Sequence[Card], leader: int) -> list[Text]:
    """The cards of a trick in play order, told as "Vorhand spielt aus: Herz-Ass" (German, English)."""
    facts = []
    for i, card in enumerate(trick):
        seat = (leader + i) % 3
        verb_de, verb_en = ("spielt aus", "leads") if i == 0 else ("gibt zu", "plays")
        facts.append(
            Text(
                f"{SEATS[seat].text.de} {verb_de}: {card_ref(card)}",
                f"{SEATS[seat].text.en.capitalize()} {verb_en}: {card_ref(card)}",
            )
        )
    return facts


def game_en(game: GameType) -> str:
    """The game as a reference, capitalised in English (``Spades``, ``Leaves``, ``Grand``)."""
    return suit_ref(game.trump_suit, capital=True) if game.trump_suit is not None else game_ref(game)


def signed(value: int) -> str:
    """List entries are shown with their sign: ``+48``, ``-96``, ``0``."""
    return f"+{value}" if value > 0 else str(value)


def sum_step(cards: Sequence[Card], rules: tuple[str, ...]) -> Step:
    """ "Herz-Ass 11 + Herz-Zehn 10 + Pik-Sieben 0 = 21" in German and English."""
    total = sum(c.points for c in cards)
    if not cards:
        return Step("keine Karten = 0", "no cards = 0", rules)
    de = " + ".join(f"{card_ref(c)} {c.points}" for c in cards)
    en = " + ".join(f"{card_ref(c)} {c.points}" for c in cards)
    return Step(f"{de} = {total}", f"{en} = {total}", rules)


def beats(game: GameType, challenger: Card, card: Card) -> bool:
    """Does ``challenger``, played onto ``card`` (led), take the trick? (engine: trick_winner)"""
    return trick_winner(game, (card, challenger)) == 1


def merge_ids(*groups: Iterable[str]) -> tuple[str, ...]:
    """Rule ids of several groups, in order of first mention, without duplicates."""
    seen: dict[str, None] = {}
    for group in groups:
        for rule in group:
            seen.setdefault(rule, None)
    return tuple(seen)


def step_ids(steps: Iterable[Step]) -> tuple[str, ...]:
    return merge_ids(*(s.rules for s in steps))


def jacks_in(cards: Iterable[Card]) -> int:
    return sum(1 for c in cards if c.rank == Rank.JACK)


def expected_score(value: float) -> Text:
    """An expected list score with its sign and one decimal: ``+12,3`` / ``+12.3``, ``−4,0``."""
    text = f"{value:+.1f}".replace("-", "\u2212")
    return Text(text.replace(".", ","), text)

"""Drücken: twelve cards after picking up the skat; put two away and declare a game.

The answer is graded by :func:`skatschule.engine.discard.grade_hand`: all 66 discards of the
declared game and of the best game, by the expected list score over sampled deals of the
defenders' cards. Right is a discard among the best three of the declared game, in a game whose
best discard is at most :data:`GAME_MARGIN` below that of the best game.

The grading takes seconds, so the site computes it as a job (``skatschule.graded_by_play``) and hands
it in through :attr:`Druecken.source`; without it (tests, ``manage.py regrade``) the type grades
on its own, with an in-process cache.

Levels: 1 a suit game with an obvious discard (seven trumps or more, a short side suit);
2 a Grand hand (three jacks, or two with two aces); 3 two jacks and a long suit without Ass and
Zehn beside a shorter one with both: the longest suit need not be the best game.
Hands are dealt at random and kept when their shape fits the level; the shape never depends on
the grading, and the cards are shown in a fixed order (jacks, then the suits in jack order).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

from skatschule.engine import CARDS, Card, GameType, Rank, Step, Suit, Text, parse_cards
from skatschule.engine.discard import CANDIDATE_GAMES, DEALS, SCREEN_DEALS, DiscardGrade, HandGrading, grade_hand
from skatschule.engine.names import card_ref, game_ref
from skatschule.engine.seats import SEATS
from skatschule.engine.sorting import neutral_order

from .base import AnswerError, Choice, Feedback, GradedByPlay, Question, rng_for
from .helpers import expected_score, jacks_in

FOREHAND = SEATS[0].text

__all__ = ["Druecken", "GAME_MARGIN", "TOP", "hand_of", "parse_answer", "grading_key"]

RULES = ("1.2.1", "4.3.1", "4.2.3")
GAME_MARGIN = 10.0
"""How far (expected list score) the declared game's best discard may stay below the best game's."""
TOP = 3
"""A discard among this many best ones of its game is right."""
VERSION = 1
"""Part of every grading's key: a new grading method makes new keys."""

GAME_LABELS = {
    GameType.CLUBS: Text("⟦game:clubs⟧", "⟦game:clubs⟧"),
    GameType.SPADES: Text("⟦game:spades⟧", "⟦game:spades⟧"),
    GameType.HEARTS: Text("⟦game:hearts⟧", "⟦game:hearts⟧"),
    GameType.DIAMONDS: Text("⟦game:diamonds⟧", "⟦game:diamonds⟧"),
    GameType.GRAND: Text("⟦game:grand⟧", "⟦game:grand⟧"),
    GameType.NULL: Text("⟦game:null⟧", "⟦game:null⟧"),
}
OPTIONS = tuple(Choice(game.value, GAME_LABELS[game]) for game in CANDIDATE_GAMES)

Source = Callable[[tuple[Card, ...], GameType, int, int], HandGrading]
"""(cards, game, deals, screen) -> the grading"""


def _suit(cards: Sequence[Card], suit: Suit) -> list[Card]:
    return [c for c in cards if c.suit == suit and c.rank != Rank.JACK]


def _fits(level: int, cards: Sequence[Card]) -> bool:
    jacks = jacks_in(cards)
    lengths = {s: len(_suit(cards, s)) for s in Suit}
    if level == 1:
        longest = max(lengths.values())
        return jacks >= 1 and jacks + longest >= 7 and min(lengths.values()) <= 2
    if level == 2:
        aces = sum(1 for c in cards if c.rank == Rank.ACE)
        top = any(c.rank == Rank.JACK and c.suit in (Suit.CLUBS, Suit.SPADES) for c in cards)
        return jacks >= 3 or (jacks == 2 and top and aces >= 2)
    if jacks < 2:
        return False
    longest = max(Suit, key=lambda s: (lengths[s], -s))
    ranks = {s: {c.rank for c in _suit(cards, s)} for s in Suit}
    weak_long = not ranks[longest] & {Rank.ACE, Rank.TEN}
    strong_other = any(
        s != longest and 3 <= lengths[s] < lengths[longest] and {Rank.ACE, Rank.TEN} <= ranks[s] for s in Suit
    )
    return lengths[longest] >= 4 and weak_long and strong_other


def hand_of(level: int, seed: int) -> tuple[Card, ...]:
    """The twelve cards of an exercise: the jacks, then Kreuz, Pik, Herz, Karo, each from the Ass down.

    A fixed order: sorting by suit length (as :func:`.sort_hand` does) put the short suit and so
    the cards to put away last, a place anyone could guess (tests/graded_by_play/test_guessing.py)."""
    rng = rng_for("druecken", level, seed)
    deck = list(CARDS)
    while True:
        cards = rng.sample(deck, 12)
        if _fits(level, cards):
            return tuple(neutral_order(cards, jacks_first=True))


def grading_key(cards: Sequence[Card], game: GameType, deals: int = DEALS, screen: int = SCREEN_DEALS) -> str:
    """The key of a grading (a job's key): the hand, the game, the deals and the method."""
    return f"druecken:v{VERSION}:{deals}:{screen}:{game.value}:{' '.join(sorted(c.code for c in cards))}"


@functools.lru_cache(maxsize=64)
def _computed(cards: tuple[Card, ...], game: GameType, deals: int, screen: int) -> HandGrading:
    return grade_hand(cards, game, deals=deals, screen=screen)


def parse_answer(question: Question, values: Sequence[str]) -> tuple[tuple[Card, Card], GameType]:
    """Two of the question's cards and one game, in any order; AnswerError otherwise."""
    codes = [str(v).strip().upper() for v in values if str(v).strip()]
    games = {o.value for o in question.options}
    chosen_games = [c.lower() for c in codes if c.lower() in games]
    chosen_cards = [c for c in codes if c.lower() not in games]
    if len(chosen_games) != 1:
        raise AnswerError("Bitte wähle genau ein Spiel.", "Please choose exactly one game.")
    if len(chosen_cards) != 2 or len(set(chosen_cards)) != 2:
        raise AnswerError("Bitte wähle genau zwei Karten zum Drücken.", "Please choose exactly two cards to put away.")
    if any(c not in question.cards for c in chosen_cards):
        raise AnswerError("Du kannst nur eigene Karten drücken.", "You can only put away your own cards.")
    a, b = sorted(parse_cards(chosen_cards))
    return (a, b), GameType(chosen_games[0])


def _pair(grade: DiscardGrade) -> str:
    return f"{card_ref(grade.cards[0])} {card_ref(grade.cards[1])}"


def _one_de(value: float) -> str:
    return f"{value:.1f}".replace(".", ",")


def _voids(cards: Sequence[Card], pair: tuple[Card, Card], game: GameType) -> list[Suit]:
    """Plain suits the discard leaves empty in the declarer's hand."""
    if game.is_null:
        return []
    kept = [c for c in cards if c not in pair]
    trump = game.trump_suit
    return [s for s in Suit if s != trump and _suit(cards, s) and not _suit(kept, s)]


class Druecken(GradedByPlay[Source]):
    slug = "druecken"
    name = Text("Drücken", "Discarding (Drücken)")
    description = Text(
        "Du hast den Skat aufgenommen: Welche zwei Karten drückst du, und welches Spiel sagst du an? "
        "Die Engine spielt jede der 66 Möglichkeiten gegen viele Verteilungen der Gegenspielerkarten.",
        "You picked up the skat: which two cards do you put away, and which game do you declare? "
        "The engine plays each of the 66 ways against many deals of the defenders' cards.",
    )
    rule_ids = RULES
    levels = 3
    deals = DEALS
    screen = SCREEN_DEALS

    def generate(self, difficulty: int, seed: int) -> Question:
        self.check_difficulty(difficulty)
        cards = hand_of(difficulty, seed)
        prompt = Text(
            "Du hast den Skat aufgenommen und hältst diese zwölf Karten. Wähle zwei Karten zum Drücken "
            "und das Spiel, das du ansagst.",
            "You picked up the skat and hold these twelve cards. Choose two cards to put away and the game "
            "you declare.",
        )
        facts = (
            Text(
                f"Du sitzt in {FOREHAND.de} und spielst zum ersten Stich aus; gedrückte Augen zählen für dich.",
                f"You sit in {FOREHAND.en} and lead to the first trick; the card points you put away count for you.",
            ),
        )
        return Question(
            kind=self.slug,
            difficulty=difficulty,
            seed=seed,
            prompt=prompt,
            widget="discard",
            options=OPTIONS,
            cards=tuple(c.code for c in cards),
            facts=facts,
            rule_ids=RULES,
        )

    def grading(self, question: Question, game: GameType) -> HandGrading:
        cards = self.hand(question)
        if self.source is not None:
            return self.source(cards, game, self.deals, self.screen)
        return _computed(cards, game, self.deals, self.screen)

    def grade(self, question: Question, answer: Sequence[str]) -> Feedback:
        pair, game = parse_answer(question, answer)
        found = self.grading(question, game)
        return feedback_for(found, pair, game)

    def correct_answer(self, question: Question) -> list[str]:
        first = self.grading(question, GameType.GRAND)
        best = first.best.best
        return [best.cards[0].code, best.cards[1].code, first.best.game.value]


def feedback_for(found: HandGrading, pair: tuple[Card, Card], game: GameType) -> Feedback:
    """The verdict and its explanation for one answer, from a finished grading."""
    chosen = found.chosen
    mine = chosen.grade_of(pair)
    rank = chosen.rank(pair)
    best_game = found.best
    best = best_game.best
    game_ok = chosen.best.expected >= best.expected - GAME_MARGIN
    correct = rank <= TOP and game_ok
    deals = found.deals
    steps: list[Step] = [
        Step.of(
            Text(
                f"Gespielt wurde jede der 66 Möglichkeiten gegen dieselben {deals} zufälligen Verteilungen der "
                "20 Gegenspielerkarten, jede mit offenen Karten zu Ende gespielt (eine schnelle Vorausschau "
                "über einen Stich, nicht der Löser); gewertet nach dem Listenwert (gewonnen +Wert, verloren "
                "−2 × Wert, mit Schneider und Schwarz).",
                f"Each of the 66 ways was played against the same {deals} random deals of the defenders' 20 "
                "cards, each played out with all cards open (a quick look-ahead of one trick, not the solver); "
                "graded by the list score (won +value, lost −2 × value, with Schneider and Schwarz).",
            ),
            ("4.3.1",),
        ),
        Step.of(
            Text(
                f"Dein Drücken {_pair(mine)} im {game_ref(game)}: Platz {rank} von 66, erwartet "
                f"{expected_score(mine.expected).de}, gewonnen in {mine.won} von {deals} Verteilungen.",
                f"Your discard {_pair(mine)} in {game_ref(game)}: place {rank} of 66, expected "
                f"{expected_score(mine.expected).en}, won in {mine.won} of {deals} deals.",
            )
        ),
    ]
    for place, grade in enumerate(chosen.grades[:TOP], start=1):
        steps.append(
            Step.of(
                Text(
                    f"{place}. im {game_ref(game)}: {_pair(grade)}, erwartet {expected_score(grade.expected).de} "
                    f"(gewonnen {grade.won} von {deals})",
                    f"{place}. in {game_ref(game)}: {_pair(grade)}, expected {expected_score(grade.expected).en} "
                    f"(won {grade.won} of {deals})",
                )
            )
        )
    steps.append(_why(found.cards, chosen.best, mine, game))
    if found.chose_best_game:
        steps.append(
            Step.of(
                Text(
                    f"{game_ref(game)} war das beste Spiel für diese Karten.",
                    f"{game_ref(game)} was the best game for these cards.",
                )
            )
        )
    else:
        steps.append(
            Step.of(
                Text(
                    f"Besser war {game_ref(best_game.game)}: mit {_pair(best)} gedrückt erwartet "
                    f"{expected_score(best.expected).de} statt {expected_score(chosen.best.expected).de} im besten "
                    f"{game_ref(game)}.",
                    f"{game_ref(best_game.game)} was better: with {_pair(best)} put away it expects "
                    f"{expected_score(best.expected).en} against {expected_score(chosen.best.expected).en} in the best "
                    f"{game_ref(game)}.",
                )
            )
        )
    answer = Text(
        f"{game_ref(best_game.game)}, {_pair(best)} drücken (erwartet {expected_score(best.expected).de})",
        f"{game_ref(best_game.game)}, put away {_pair(best)} (expected {expected_score(best.expected).en})",
    )
    given = Text(f"{game_ref(game)}, {_pair(mine)} drücken", f"{game_ref(game)}, put away {_pair(mine)}")
    return Feedback(
        correct=correct,
        answer=answer,
        given=given,
        steps=tuple(steps),
        rule_ids=RULES,
        normalized=f"{pair[0].code} {pair[1].code} {game.value}",
    )


def _why(cards: Sequence[Card], best: DiscardGrade, mine: DiscardGrade, game: GameType) -> Step:
    """What the best discard keeps and gives away, in Augen and tricks, beside the learner's."""
    if game.is_null:
        return Step.of(
            Text(
                f"Mit {_pair(best)} gedrückt bleibt der Alleinspieler in {best.won} von {best.deals} Verteilungen "
                f"stichfrei, mit deinem Drücken in {mine.won}.",
                f"With {_pair(best)} put away the declarer takes no trick in {best.won} of {best.deals} deals, "
                f"with yours in {mine.won}.",
            ),
            ("1.2.1",),
        )
    voids = _voids(cards, best.cards, game)
    void_de = void_en = ""
    if voids:
        names = ", ".join(f"⟦suit:{s.letter}⟧" for s in voids)
        void_de = f"; danach bist du in {names} frei und kannst dort stechen"
        void_en = f"; then you are void in {names} and can trump there"
    return Step.of(
        Text(
            f"Warum {_pair(best)}: {best.augen_away} Augen liegen sicher im Skat{void_de}. Im Mittel bekommst du "
            f"so {_one_de(best.mean_augen)} Augen in {_one_de(best.mean_tricks)} Stichen, mit deinem Drücken "
            f"{_one_de(mine.mean_augen)} Augen ({mine.augen_away} davon gedrückt) in {_one_de(mine.mean_tricks)} "
            "Stichen.",
            f"Why {_pair(best)}: {best.augen_away} card points lie safe in the skat{void_en}. On average you "
            f"then take {best.mean_augen:.1f} card points in {best.mean_tricks:.1f} tricks, with your discard "
            f"{mine.mean_augen:.1f} card points ({mine.augen_away} of them put away) in {mine.mean_tricks:.1f} tricks.",
        ),
        ("1.2.1",),
    )

"""Reizen, am Spiel gemessen: ten cards in a seat; how high may I bid? Graded by play.

The answer (a bid or "passen") is graded by :func:`skatschule.engine.bidplay.grade_bid`: every
candidate game over sampled deals of the skat and the other hands, each played out as in the
Drücken trainer; the graded bid is the highest at which the best game's expected list score stays
positive. Right is that bid or the step below it on the ladder of bids (one step lower gives away
little; one higher already loses on average). The feedback shows the expected score of every
game, the win chance, and how lesson 7's hand evaluation (:mod:`skatschule.engine.evaluation`)
answers, and why.

The grading takes a moment, so the site computes it as a job (``skatschule.graded_by_play``, the app of
the exercises graded by a job) and hands it in through :attr:`ReizenGespielt.source`; without it
(tests, ``manage.py regrade``) the type grades on its own, with an in-process cache.

Levels: 1 a suit hand (two jacks or more and six trumps with the longest suit, or one jack and
seven); 2 a Grand hand (two jacks or more and two aces or more); 3 a hand where the games compete
(six low cards without an ace: a Null?, or three jacks or more: Grand or a suit game, and how
high?). The seat is dealt at random. Hands are dealt at random and kept when their shape fits;
the shape never depends on the grading.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

from skatschule.engine import CARDS, Card, Rank, Step, Suit, Text
from skatschule.engine.bidding import BID_VALUES
from skatschule.engine.bidplay import DEALS, LADDER, BidGrading, GameOutcomes, grade_bid, step_of, steps_apart
from skatschule.engine.evaluation import evaluate
from skatschule.engine.numbers import plain_number
from skatschule.engine.seats import Seat
from skatschule.engine.sorting import neutral_order

from .base import AnswerError, Choice, Feedback, GradedByPlay, Question, rng_for
from .helpers import expected_score, jacks_in

__all__ = ["ReizenGespielt", "PASS", "grading_key", "parse_bid", "hand_of", "feedback_for"]

RULES = ("2.3.1", "4.3.1", "4.4.1")
VERSION = 1
"""Part of every grading's key: a new grading method makes new keys."""
PASS = "passen"
OPTIONS = (Choice(PASS, Text("passen", "pass")), *(Choice(str(v), Text(str(v), str(v))) for v in BID_VALUES))
"""The answers in the order of the ladder of bids (never shuffled: a list of numbers)."""
_PASS_WORDS = frozenset({"passen", "pass", "passe", "0"})

Source = Callable[[tuple[Card, ...], int, int], BidGrading]
"""(ten cards, seat, deals) -> the grading"""


def _longest(cards: Sequence[Card]) -> int:
    return max(sum(1 for c in cards if c.suit == s and c.rank != Rank.JACK) for s in Suit)


def _fits(level: int, cards: Sequence[Card]) -> bool:
    jacks = jacks_in(cards)
    trumps = jacks + _longest(cards)
    aces = sum(1 for c in cards if c.rank == Rank.ACE)
    if level == 1:
        return (jacks >= 2 and trumps >= 6) or (jacks >= 1 and trumps >= 7)
    if level == 2:
        return jacks >= 2 and aces >= 2
    low = sum(1 for c in cards if c.rank in (Rank.SEVEN, Rank.EIGHT, Rank.NINE))
    return (low >= 6 and aces == 0) or jacks >= 3


def hand_of(level: int, seed: int) -> tuple[tuple[Card, ...], int]:
    """The ten cards (jacks first, then Kreuz, Pik, Herz, Karo from the Ass down) and the seat."""
    rng = rng_for("reizen_gespielt", level, seed)
    deck = list(CARDS)
    while True:
        cards = rng.sample(deck, 10)
        if _fits(level, cards):
            return tuple(neutral_order(cards, jacks_first=True)), rng.randrange(3)


def grading_key(cards: Sequence[Card], position: int, deals: int = DEALS) -> str:
    """The key of a grading (a job's key): the hand, the seat, the deals and the method."""
    return f"reizen:v{VERSION}:{deals}:{position}:{' '.join(sorted(c.code for c in cards))}"


@functools.lru_cache(maxsize=64)
def _computed(cards: tuple[Card, ...], position: int, deals: int) -> BidGrading:
    return grade_bid(cards, position, deals=deals)


def parse_bid(values: Sequence[str]) -> int:
    """One bid of the ladder or "passen" (0); AnswerError otherwise."""
    given = [str(v).strip().lower() for v in values if str(v).strip()]
    if len(given) != 1:
        raise AnswerError("Bitte wähle ein Gebot oder „passen“.", "Please choose a bid or “pass”.")
    if given[0] in _PASS_WORDS:
        return 0
    bid = plain_number(given[0], max_digits=3)
    if bid not in BID_VALUES:
        raise AnswerError(
            f"„{given[0][:12]}“ ist kein Reizwert.",
            f"“{given[0][:12]}” is not a value one can bid.",
        )
    return bid


def _bid_text(bid: int) -> Text:
    return Text("passen", "pass") if bid == 0 else Text(str(bid), str(bid))


def _percent(share: float) -> Text:
    whole = f"{share * 100:.0f}"
    return Text(f"{whole}\u00a0%", f"{whole}%")


class ReizenGespielt(GradedByPlay[Source]):
    slug = "reizen_gespielt"
    name = Text("Reizen, am Spiel gemessen", "Bidding, graded by play")
    description = Text(
        "Zehn Karten und dein Platz am Tisch: Bis wohin reizt du? Die Engine spielt jedes mögliche Spiel "
        "gegen viele Verteilungen von Skat und Gegnerkarten und prüft deine Antwort daran.",
        "Ten cards and your seat: how far do you bid? The engine plays every possible game against many "
        "deals of the skat and the other hands and checks your answer against them.",
    )
    rule_ids = RULES
    levels = 3
    deals = DEALS

    def generate(self, difficulty: int, seed: int) -> Question:
        self.check_difficulty(difficulty)
        cards, position = hand_of(difficulty, seed)
        seat = Seat(position).text
        prompt = Text(
            f"Du sitzt in {seat.de} und hältst diese zehn Karten; der Skat ist noch verdeckt. Bis zu welchem "
            "Wert reizt du höchstens? Wähle einen Reizwert oder „passen“.",
            f"You sit in {seat.en} and hold these ten cards; the skat is still face down. What is the highest "
            "value you bid? Choose a bid or “pass”.",
        )
        facts = (
            Text(f"Dein Platz: {seat.de}", f"Your seat: {seat.en}"),
            Text(
                f"Bewertet wird durch Ausspielen: {self.deals} zufällige Verteilungen von Skat und Gegnerkarten.",
                f"Graded by play: {self.deals} random deals of the skat and the other hands.",
            ),
        )
        return Question(
            kind=self.slug,
            difficulty=difficulty,
            seed=seed,
            prompt=prompt,
            widget="bid",
            options=OPTIONS,
            cards=tuple(c.code for c in cards),
            facts=facts,
            rule_ids=RULES,
        )

    def position_of(self, question: Question) -> int:
        return hand_of(question.difficulty, question.seed)[1]

    def grading(self, question: Question) -> BidGrading:
        cards = self.hand(question)
        position = self.position_of(question)
        if self.source is not None:
            return self.source(cards, position, self.deals)
        return _computed(cards, position, self.deals)

    def grade(self, question: Question, answer: Sequence[str]) -> Feedback:
        bid = parse_bid(answer)
        return feedback_for(self.grading(question), bid)

    def correct_answer(self, question: Question) -> list[str]:
        limit = self.grading(question).limit
        return [str(limit) if limit else PASS]


def _game_line(game: GameOutcomes) -> Step:
    at18 = game.expected(BID_VALUES[0])
    assert at18 is not None  # every candidate can be declared at 18
    score, chance = expected_score(at18), _percent(game.win_chance(BID_VALUES[0]))
    name_de, name_en = game.contract.ref("de", capital=True), game.contract.ref("en", capital=True)
    return Step(
        f"{name_de}: erwartet {score.de} bei 18, gewonnen in {chance.de} der Verteilungen"
        + (f"; positiv bis {game.limit}" if game.limit else "; schon bei 18 nicht positiv"),
        f"{name_en}: expected {score.en} at 18, won in {chance.en} of the deals"
        + (f"; positive up to {game.limit}" if game.limit else "; not positive even at 18"),
    )


def _best_at(grading: BidGrading, bid: int) -> tuple[GameOutcomes, float] | None:
    found = [(g, g.expected(bid)) for g in grading.games]
    known = [(g, e) for g, e in found if e is not None]
    return max(known, key=lambda item: item[1]) if known else None


def feedback_for(grading: BidGrading, bid: int) -> Feedback:
    """The verdict and its explanation for one answer (0: pass), from a finished grading."""
    limit = grading.limit
    deals = grading.deals
    best = grading.best
    correct = step_of(bid) in (step_of(limit), step_of(limit) - 1)
    steps: list[Step] = [
        Step.of(
            Text(
                f"Gespielt wurde jedes Spiel gegen dieselben {deals} zufälligen Verteilungen von Skat und "
                f"Gegnerkarten, du in {Seat(grading.position).text.de}: Skat aufnehmen, zwei Karten drücken "
                "(wie die Mitspieler am Tisch), mit offenen Karten zu Ende spielen (eine schnelle Vorausschau "
                "über einen Stich, nicht der Löser). Gewertet nach dem Listenwert beim Reizwert: gewonnen "
                "+Wert, verloren −2 × Wert; ist das Spiel weniger wert als gereizt, ist es überreizt und "
                "verloren.",
                f"Each game was played against the same {deals} random deals of the skat and the other hands, "
                f"you in {Seat(grading.position).text.en}: pick up the skat, put two cards away (as the players "
                "at the table do), play to the end with all cards open (a quick look-ahead of one trick, not the "
                "solver). Scored by the list value at the bid: won +value, lost −2 × value; a game worth less "
                "than the bid is overbid and lost.",
            ),
            ("4.3.1", "4.4.1", "4.4.2"),
        ),
    ]
    ranked = sorted(grading.games, key=lambda g: (-g.limit, -(g.expected(BID_VALUES[0]) or 0.0)))
    for game in ranked:
        steps.append(_game_line(game))
    if limit:
        at = best.expected(limit) or 0.0
        steps.append(
            Step.of(
                Text(
                    f"Am Spiel gemessen reizt du bis {limit}, mit {best.contract.ref('de')}: bei {limit} erwartet "
                    f"{expected_score(at).de}, gewonnen (und mindestens {limit} wert) in {best.wins(limit)} "
                    f"von {deals} "
                    f"Verteilungen ({_percent(best.win_chance(limit)).de}).",
                    f"Graded by play you bid up to {limit}, with {best.contract.ref('en')}: at {limit} it expects "
                    f"{expected_score(at).en}, won (and worth at least {limit}) in {best.wins(limit)} of {deals} deals "
                    f"({_percent(best.win_chance(limit)).en}).",
                ),
                ("2.3.1",),
            )
        )
        steps.append(_why_limit(grading, best, limit))
    else:
        at18 = best.expected(BID_VALUES[0]) or 0.0
        steps.append(
            Step.of(
                Text(
                    f"Am Spiel gemessen passt du: kein Spiel erwartet schon bei 18 ein Plus; am besten wäre noch "
                    f"{best.contract.ref('de')} mit {expected_score(at18).de}, gewonnen in "
                    f"{_percent(best.win_chance(BID_VALUES[0])).de} der Verteilungen.",
                    f"Graded by play you pass: no game expects a gain even at 18; the best would be "
                    f"{best.contract.ref('en')} with {expected_score(at18).en}, won in "
                    f"{_percent(best.win_chance(BID_VALUES[0])).en} of the deals.",
                ),
                ("2.3.1",),
            )
        )
    steps.append(_yours(grading, bid))
    steps.extend(_lesson_seven(grading, limit))
    answer = Text(
        f"bis {limit} ({best.contract.ref('de')})" if limit else "passen",
        f"up to {limit} ({best.contract.ref('en')})" if limit else "pass",
    )
    return Feedback(
        correct=correct,
        answer=answer,
        given=_bid_text(bid),
        steps=tuple(steps),
        rule_ids=RULES,
        normalized=str(bid) if bid else PASS,
    )


def _why_limit(grading: BidGrading, best: GameOutcomes, limit: int) -> Step:
    """Why this bid and not the next: what the game is worth in the deals it wins."""
    following = [b for b in BID_VALUES if b > limit]
    won = best.wins(BID_VALUES[0])
    worth = best.wins(limit)
    if following:
        nxt = following[0]
        at_next = _best_at(grading, nxt)
        if at_next is None:
            next_de = f"Bei {nxt} lässt sich kein Spiel mehr ansagen."
            next_en = f"At {nxt} no game can be declared any more."
        else:
            game, value = at_next
            next_de = (
                f"Bei {nxt} erwartet auch das beste Spiel ({game.contract.ref('de')}) nur {expected_score(value).de}."
            )
            next_en = (
                f"At {nxt} even the best game ({game.contract.ref('en')}) expects only {expected_score(value).en}."
            )
    else:
        next_de = next_en = ""
    return Step.of(
        Text(
            f"Warum {limit}: {best.contract.ref('de')} gewinnt in {won} von {grading.deals} Verteilungen, und in "
            f"{worth} davon ist es mindestens {limit} wert (mit den Spitzen aus dem Skat, Schneider oder Schwarz). "
            f"{next_de}".strip(),
            f"Why {limit}: {best.contract.ref('en')} wins in {won} of {grading.deals} deals, and in {worth} of "
            f"them it is worth at least {limit} (with the matadors from the skat, Schneider or Schwarz). "
            f"{next_en}".strip(),
        ),
        ("1.4.2", "4.4.1"),
    )


def _yours(grading: BidGrading, bid: int) -> Step:
    if bid == 0:
        return Step.of(
            Text("Du passt: Das schreibt weder Plus noch Minus.", "You pass: that scores neither plus nor minus.")
        )
    at = _best_at(grading, bid)
    if at is None:
        return Step.of(Text(f"Bei {bid} lässt sich kein Spiel ansagen.", f"At {bid} no game can be declared."))
    game, value = at
    return Step.of(
        Text(
            f"Bei deinem Gebot {bid} erwartet das beste Spiel ({game.contract.ref('de')}) {expected_score(value).de}, "
            f"gewonnen in {game.wins(bid)} von {grading.deals} Verteilungen.",
            f"At your bid of {bid} the best game ({game.contract.ref('en')}) expects {expected_score(value).en}, "
            "won in "
            f"{game.wins(bid)} of {grading.deals} deals.",
        ),
        ("4.4.1",),
    )


def _lesson_seven(grading: BidGrading, limit: int) -> list[Step]:
    """How lesson 7's count answers, why, and how far it lies from the play."""
    evaluation = evaluate(grading.cards)
    counted = evaluation.limit
    out: list[Step] = []
    if evaluation.best is None:
        out.append(
            Step.of(
                Text(
                    "Die Handbewertung aus Lektion 7 sagt: passen, kein Spiel erfüllt ihre Zählregel.",
                    "Lesson 7's hand evaluation says: pass, no game meets its count.",
                ),
                ("2.3.1",),
            )
        )
    else:
        out.append(
            Step.of(
                Text(
                    f"Die Handbewertung aus Lektion 7 sagt: bis {counted} mit {evaluation.best.contract.ref('de')}.",
                    f"Lesson 7's hand evaluation says: up to {counted} with {evaluation.best.contract.ref('en')}.",
                ),
                ("2.3.1",),
            )
        )
    shown = [evaluation.best] if evaluation.best is not None else []
    played = next((c for c in evaluation.checks if c.contract == grading.best.contract), None)
    if played is not None and played not in shown:
        shown.append(played)
    for check in shown:
        out.extend(check.steps)
    apart = steps_apart(counted, limit)
    if apart == 0:
        out.append(Step.of(Text("Zählen und Ausspielen sind sich einig.", "Counting and playing agree.")))
    else:
        higher = LADDER.index(limit) > LADDER.index(counted)
        if higher:
            out.append(
                Step.of(
                    Text(
                        f"Das Ausspielen reizt {apart} Stufe{'n' if apart > 1 else ''} höher als die Zählregel: "
                        "Sie verlangt sichere Stiche, das Spiel gewinnt hier auch mit Karten, die sie nicht zählt, "
                        "oder der Skat bringt Spitzen dazu.",
                        f"Playing bids {apart} step{'s' if apart > 1 else ''} higher than the count: the count asks "
                        "for sure tricks, here the game also wins with cards it does not count, or the skat adds "
                        "matadors.",
                    )
                )
            )
        else:
            out.append(
                Step.of(
                    Text(
                        f"Das Ausspielen reizt {apart} Stufe{'n' if apart > 1 else ''} niedriger als die Zählregel: "
                        "Die Karten, die sie zählt, reichen in zu vielen Verteilungen nicht für 61 Augen (oder "
                        "einen Null ohne Stich).",
                        f"Playing bids {apart} step{'s' if apart > 1 else ''} lower than the count: the cards it "
                        "counts fall short of 61 card points (or a Null without a trick) in too many deals.",
                    )
                )
            )
    return out

"""What the exercise types share: the engine-backed base class, answer parsing by widget,
grading, and a few texts (card names, seats, lists).

Every type subclasses :class:`EngineExercise` and writes three methods:

- ``build(rng, difficulty)``: draw the scenario (deal, contract, auction ...) from the one
  random generator of the exercise;
- ``ask(scenario, difficulty, seed)``: the :class:`Question` the learner sees (no answer);
- ``solve(scenario)``: the right answer, computed with the engine, with its derivation.

``grade`` rebuilds the scenario from the question's seed, so a question can always be
graded again (and nothing the browser sends is trusted but the raw answer).
"""

from __future__ import annotations

import functools
import random
import re
from abc import abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from skatschule.content.ids import RULE_ONLY_RE
from skatschule.engine import (
    SEATS,
    Card,
    GameType,
    Rank,
    SkatError,
    Step,
    Text,
    parse_card,
    trick_winner,
)
from skatschule.engine.names import DECK_NAMES, card_name, card_ref, cards_ref, game_ref, render, suit_ref
from skatschule.engine.numbers import plain_number
from skatschule.engine.sorting import sort_hand

from .base import (
    CHOICE_WIDGETS,
    AnswerError,
    Choice,
    ExerciseType,
    Feedback,
    Question,
    Widget,
    rng_for,
    shuffled_options,
)

__all__ = [
    "expected_score",
    "jacks_first",
    "jacks_in",
    "EngineExercise",
    "Solution",
    "RULE_ID",
    "parse_number",
    "parse_choice",
    "signed_choice",
    "join_signed",
    "parse_multi",
    "parse_card_answer",
    "parse_order",
    "grade_against",
    "read_answer",
    "mark",
    "Given",
    "merge_ids",
    "card_choice",
    "codes",
    "game_en",
    "signed",
    "sum_step",
    "beats",
    "SUIT_GAMES",
    "sorted_cards",
    "hand_order",
    "step_ids",
]

RULE_ID = RULE_ONLY_RE  # a rule id (three parts), skatschule.content.ids
"""The form of a rule id: ``chapter.section.paragraph`` (``1.3.2``, ``K.1.4``, ``A.2.1``)."""

SUIT_GAMES: tuple[GameType, ...] = (GameType.CLUBS, GameType.SPADES, GameType.HEARTS, GameType.DIAMONDS)

S = TypeVar("S")


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


# --------------------------------------------------------------------------- parsing

_SPACES = re.compile(r"\s+")
_SEPARATORS = re.compile(r"[\s,;]+")
_NUMBER = re.compile(r"^[+-]?\d{1,7}$")
_MINUSES = str.maketrans({"\u2212": "-", "\u2013": "-", "\u2012": "-", "\u2014": "-", "\ufe63": "-", "\uff0d": "-"})


def _filled(answer: Sequence[str]) -> list[str]:
    """The answer fields that hold something (the form may send empty ones)."""
    if isinstance(answer, str):
        answer = [answer]
    out: list[str] = []
    for item in answer:
        if not isinstance(item, str):
            raise AnswerError("Die Antwort muss Text sein", "The answer must be text")
        if item.strip():
            out.append(item.strip())
    return out


def _fold(text: str) -> str:
    return _SPACES.sub(" ", text.strip()).casefold()


def parse_number(answer: Sequence[str]) -> int:
    """One integer: spaces are ignored, a leading + or - (also the Unicode minus) is allowed."""
    fields = _filled(answer)
    if not fields:
        raise AnswerError("Bitte eine Zahl eingeben", "Please enter a number")
    if len(fields) > 1:
        raise AnswerError("Bitte nur eine Zahl eingeben", "Please enter only one number")
    text = _SPACES.sub("", fields[0]).translate(_MINUSES)
    # thousands separators in whole numbers: "1.000" or "1'000" are not expected here
    if not _NUMBER.match(text):
        raise AnswerError(
            f"{fields[0]!r} ist keine ganze Zahl (Beispiele: 48, -96, +23)",
            f"{fields[0]!r} is not a whole number (examples: 48, -96, +23)",
        )
    return int(text)


def _option_table(question: Question, aliases: Mapping[str, str] | None) -> dict[str, str]:
    table: dict[str, str] = {}
    for option in question.options:
        for key, lang in ((option.label.de, "de"), (option.label.en, "en")):
            # a label is accepted as any deck names it (the labels hold name references)
            for deck in DECK_NAMES:
                table.setdefault(_fold(render(key, lang, deck)), option.value)
    for key, value in (aliases or {}).items():
        table.setdefault(_fold(key), value)
    for option in question.options:  # the values themselves win over any label
        table[_fold(option.value)] = option.value
    return table


def _unknown_option(text: str, question: Question) -> AnswerError:
    shown_de = ", ".join(render(o.label.de, "de") for o in question.options[:8])
    shown_en = ", ".join(render(o.label.en, "en") for o in question.options[:8])
    more = " …" if len(question.options) > 8 else ""
    return AnswerError(
        f"{text!r} ist keine der Antwortmöglichkeiten ({shown_de}{more})",
        f"{text!r} is not one of the options ({shown_en}{more})",
    )


_SIGNED = re.compile(r"^[+-]\d{1,2}$")
_SIGNS = {"+": "+", "-": "-", "mit": "+", "ohne": "-", "with": "+", "without": "-", "\u2212": "-"}


def signed_choice(question: Question) -> int:
    """For a choice whose options are signed counts (``+1`` … ``+11``, ``-1`` … ``-11``: the
    Spitzen), the highest count, so the page can offer mit/ohne plus a number; else 0."""
    values = [o.value for o in question.options]
    if question.widget != "choice" or not values or not all(_SIGNED.match(v) for v in values):
        return 0
    return max(abs(int(v)) for v in values)


def join_signed(answer: Sequence[str]) -> list[str]:
    """The compact mit/ohne control sends two fields, a sign and a number (``["+", "2"]``,
    ``["ohne", "3"]``): read them as the one option value ``+2``/``-3``. Anything else is
    returned as it came, so single values (``+2``, ``mit 2``) keep working."""
    if isinstance(answer, str):
        return [answer]
    fields = [str(v).strip() for v in answer if str(v).strip()]
    count = plain_number(fields[1], max_digits=2) if len(fields) == 2 else None
    if count is not None and fields[0].casefold() in _SIGNS:
        return [f"{_SIGNS[fields[0].casefold()]}{count}"]
    return list(answer)


def parse_choice(question: Question, answer: Sequence[str], aliases: Mapping[str, str] | None = None) -> str:
    """Exactly one option, given by its value or its German or English label (any case)."""
    if signed_choice(question):
        answer = join_signed(answer)
    fields = _filled(answer)
    if not fields:
        raise AnswerError("Bitte eine Antwort auswählen", "Please choose an answer")
    if len(fields) > 1:
        raise AnswerError("Bitte genau eine Antwort auswählen", "Please choose exactly one answer")
    table = _option_table(question, aliases)
    value = table.get(_fold(fields[0]))
    if value is None:
        raise _unknown_option(fields[0], question)
    return value


def parse_multi(question: Question, answer: Sequence[str], aliases: Mapping[str, str] | None = None) -> frozenset[str]:
    """Any number of options (none is an answer, too); one field may hold several, comma separated."""
    table = _option_table(question, aliases)
    chosen: set[str] = set()
    for field_ in _filled(answer):
        whole = table.get(_fold(field_))
        if whole is not None:
            chosen.add(whole)
            continue
        for part in _SEPARATORS.split(field_):
            if not part:
                continue
            value = table.get(_fold(part))
            if value is None:
                raise _unknown_option(part, question)
            chosen.add(value)
    return frozenset(chosen)


def _cards_in(answer: Sequence[str]) -> list[Card]:
    out: list[Card] = []
    for field_ in _filled(answer):
        for part in _SEPARATORS.split(field_):
            if not part:
                continue
            try:
                out.append(parse_card(part))
            except SkatError as exc:
                raise AnswerError(exc.text.de, exc.text.en) from None
    return out


def parse_card_answer(question: Question, answer: Sequence[str]) -> frozenset[str]:
    """A set of card codes, each one of the question's options (``CJ``, ``h10``, ``c10`` ...)."""
    allowed = {o.value for o in question.options}
    chosen: set[str] = set()
    for card in _cards_in(answer):
        if card.code not in allowed:
            raise AnswerError(
                f"{card_name(card, 'de')} ({card.code}) steht nicht zur Auswahl",
                f"The {card_name(card, 'en')} ({card.code}) is not one of the cards to choose from",
            )
        chosen.add(card.code)
    return frozenset(chosen)


def parse_order(question: Question, answer: Sequence[str]) -> list[str]:
    """All cards of the options, each exactly once, in the order given."""
    allowed = [o.value for o in question.options]
    order = [c.code for c in _cards_in(answer)]
    unknown = [code for code in order if code not in allowed]
    if unknown:
        raise AnswerError(f"{unknown[0]} steht nicht zur Auswahl", f"{unknown[0]} is not one of the cards to order")
    if len(set(order)) != len(order):
        raise AnswerError("Jede Karte darf nur einmal vorkommen", "Each card may appear only once")
    if len(order) != len(allowed):
        raise AnswerError(
            f"Bitte alle {len(allowed)} Karten in eine Reihenfolge bringen ({len(order)} angegeben)",
            f"Please put all {len(allowed)} cards in order ({len(order)} given)",
        )
    return order


# --------------------------------------------------------------------------- grading


@dataclass(frozen=True, slots=True)
class Solution:
    """The right answer of one scenario, computed with the engine."""

    raw: tuple[str, ...]
    """What :meth:`ExerciseType.correct_answer` returns (the ``answer`` fields)."""
    answer: Text
    steps: tuple[Step, ...] = ()
    rule_ids: tuple[str, ...] = ()


def _label(question: Question, value: str, lang: str) -> str:
    for option in question.options:
        if option.value == value:
            return option.label.get(lang)
    return value


NONE_CHOSEN = Text("keine", "none")
"""An answer that chose none of the options."""


def _labels(question: Question, values: Iterable[str], lang: str) -> str:
    chosen = set(values)
    names = [o.label.get(lang) for o in question.options if o.value in chosen]
    if not names:
        return NONE_CHOSEN.get(lang)
    return ", ".join(names)


def _option_order(question: Question, values: Iterable[str]) -> list[str]:
    chosen = set(values)
    return [o.value for o in question.options if o.value in chosen]


@dataclass(frozen=True, slots=True)
class Given:
    """A learner's answer, read and normalised (before it is compared)."""

    value: int | str | frozenset[str] | tuple[str, ...]
    given: Text
    normalized: str


def read_answer(question: Question, answer: Sequence[str], aliases: Mapping[str, str] | None = None) -> Given:
    """Read ``answer`` as the question's widget demands; :class:`AnswerError` if it cannot be read."""
    widget: Widget = question.widget
    if widget == "number":
        number = parse_number(answer)
        return Given(number, Text(str(number), str(number)), str(number))
    if widget == "choice":
        value = parse_choice(question, answer, aliases)
        return Given(value, Text(_label(question, value, "de"), _label(question, value, "en")), value)
    if widget == "multi":
        values = parse_multi(question, answer, aliases)
        return Given(
            values,
            Text(_labels(question, values, "de"), _labels(question, values, "en")),
            " ".join(_option_order(question, values)),
        )
    if widget == "cards":
        chosen = parse_card_answer(question, answer)
        ordered = sorted((parse_card(c) for c in chosen), key=lambda c: c.index)
        return Given(
            chosen,
            Text(cards_ref(ordered) or "keine Karte", cards_ref(ordered) or "no card"),
            " ".join(c.code for c in ordered),
        )
    if widget == "order":
        order = tuple(parse_order(question, answer))
        cards = [parse_card(c) for c in order]
        return Given(order, Text(cards_ref(cards, " > "), cards_ref(cards, " > ")), " ".join(order))
    raise AnswerError(f"Unbekannte Eingabeart {widget!r}", f"Unknown widget {widget!r}")  # pragma: no cover


def mark(question: Question, given: Given, solution: Solution) -> Feedback:
    """Compare a read answer with the engine's solution."""
    widget = question.widget
    if widget == "number":
        correct = given.value == int(solution.raw[0])
    elif widget == "choice":
        correct = given.value == solution.raw[0]
    elif widget in ("multi", "cards"):
        correct = given.value == frozenset(solution.raw)
    else:
        correct = given.value == tuple(solution.raw)
    return Feedback(
        correct=correct,
        answer=solution.answer,
        given=given.given,
        steps=solution.steps,
        rule_ids=merge_ids(solution.rule_ids, step_ids(solution.steps)),
        normalized=given.normalized,
    )


def grade_against(
    question: Question,
    solution: Solution,
    answer: Sequence[str],
    aliases: Mapping[str, str] | None = None,
) -> Feedback:
    """Read ``answer`` and compare it with ``solution`` (both steps in one)."""
    return mark(question, read_answer(question, answer, aliases), solution)


# --------------------------------------------------------------------------- base class


class EngineExercise(ExerciseType, Generic[S]):
    """An exercise type whose scenario is drawn from ``rng_for`` and solved by the engine."""

    @abstractmethod
    def build(self, rng: random.Random, difficulty: int) -> S:
        """Draw the scenario for this difficulty (only from ``rng``: deterministic)."""

    @abstractmethod
    def ask(self, scenario: S, difficulty: int, seed: int) -> Question:
        """The question for the scenario (never containing the answer)."""

    @abstractmethod
    def solve(self, scenario: S) -> Solution:
        """The right answer with the engine's derivation."""

    def aliases(self, scenario: S) -> Mapping[str, str]:
        """Extra spellings accepted for choice/multi answers (``"mit 2"`` for ``"+2"`` ...)."""
        return {}

    # ------------------------------------------------------------------ plumbing
    def __init__(self) -> None:
        # The question just shown is usually graded right after: keep the last few
        # (scenarios and questions are immutable, so sharing them is safe).
        self._recent = functools.lru_cache(maxsize=512)(self.fresh)

    def scenario(self, difficulty: int, seed: int) -> S:
        self.check_difficulty(difficulty)
        return self.build(rng_for(self.slug, difficulty, seed), difficulty)

    def fresh(self, difficulty: int, seed: int) -> tuple[S, Question]:
        """Scenario and question built from scratch (no cache)."""
        scenario = self.scenario(difficulty, seed)
        return scenario, self.ask(scenario, difficulty, seed)

    def generate(self, difficulty: int, seed: int) -> Question:
        return self._recent(difficulty, seed)[1]

    def _restore(self, question: Question) -> tuple[S, Question]:
        if question.kind != self.slug:
            raise AnswerError(
                f"Diese Frage gehört nicht zur Übung {self.slug!r}, sondern zu {question.kind!r}",
                f"This question belongs to {question.kind!r}, not to the exercise {self.slug!r}",
            )
        if not isinstance(question.difficulty, int) or not isinstance(question.seed, int):
            raise AnswerError("Ungültige Frage", "Invalid question")
        return self._recent(question.difficulty, question.seed)

    def grade(self, question: Question, answer: Sequence[str]) -> Feedback:
        scenario, rebuilt = self._restore(question)
        given = read_answer(rebuilt, answer, self.aliases(scenario))  # unreadable: AnswerError before any work
        return mark(rebuilt, given, self.solve(scenario))

    def correct_answer(self, question: Question) -> list[str]:
        scenario, _ = self._restore(question)
        return list(self.solve(scenario).raw)

    def question(  # noqa: PLR0913 - over the budget since issue 27; to be split
        self,
        difficulty: int,
        seed: int,
        prompt: Text,
        widget: Widget,
        *,
        options: Sequence[Choice] = (),
        cards: Sequence[str] = (),
        trick: Sequence[str] = (),
        skat: Sequence[str] = (),
        facts: Sequence[Text] = (),
        rule_ids: Sequence[str] = (),
    ) -> Question:
        """A :class:`Question` of this type (kind, variant and rule ids filled in).

        The options of a choice-like widget (``choice``, ``multi``, ``case``) are shuffled
        here, for every type alike, from the seed (:func:`.base.shuffled_options`).
        """
        if widget in CHOICE_WIDGETS:
            options = shuffled_options(self.slug, difficulty, seed, options)
        return Question(
            kind=self.slug,
            difficulty=difficulty,
            seed=seed,
            prompt=prompt,
            widget=widget,
            options=tuple(options),
            cards=tuple(cards),
            trick=tuple(trick),
            skat=tuple(skat),
            facts=tuple(facts),
            rule_ids=tuple(rule_ids) or self.rule_ids,
            variant=self.variant,
        )


def hand_order(cards: Iterable[Card], game: GameType | None = None) -> list[Card]:
    """A hand as players sort it (the one engine sort, :func:`sort_hand`): for ``game`` when
    the learner knows the game, else the Grand order with the longest suit first."""
    return sort_hand(cards, game)


def jacks_first(cards: Iterable[Card]) -> tuple[Card, ...]:
    """A fixed order that says nothing about the answer: the jacks (Kreuz, Pik, Herz, Karo),
    then Kreuz, Pik, Herz and Karo, each from the Ass down (the hands of the types graded by
    play; sorting by suit length would put the short suit, the cards to put away, last)."""
    return tuple(sorted(cards, key=lambda c: (c.rank != Rank.JACK, c.suit, c.rank)))


def jacks_in(cards: Iterable[Card]) -> int:
    return sum(1 for c in cards if c.rank == Rank.JACK)


def expected_score(value: float) -> Text:
    """An expected list score with its sign and one decimal: ``+12,3`` / ``+12.3``, ``−4,0``."""
    text = f"{value:+.1f}".replace("-", "\u2212")
    return Text(text.replace(".", ","), text)


def sorted_cards(cards: Iterable[Card]) -> list[Card]:
    """Neutral display order: by suit (Kreuz, Pik, Herz, Karo), then A 10 K D B 9 8 7.

    Jacks stay in their printed suit, so the order gives nothing away about trumps.
    """
    return sorted(cards, key=lambda c: c.index)

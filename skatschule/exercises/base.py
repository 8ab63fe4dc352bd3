"""The shape every exercise type shares: one generator and one grader in one place.

An exercise is fully determined by ``(type slug, difficulty, seed)``. ``generate``
builds the :class:`Question`, which holds only what the browser may see; the
answer is never stored in it. ``grade`` rebuilds what it needs from the question
(i.e. from the seed) and asks the engine for the right answer.

This package is pure Python (engine only, no Django), so it can be tested and
re-graded (``manage.py regrade``) without a web request.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, Literal, TypeVar

from skatschule.engine import Card, SkatError, Step, Text, parse_cards

__all__ = [
    "Choice",
    "Question",
    "Feedback",
    "AnswerError",
    "ExerciseType",
    "GradedByPlay",
    "Widget",
    "rng_for",
    "CHOICE_WIDGETS",
    "shuffled_options",
]

Widget = Literal["number", "choice", "cards", "order", "multi", "case", "discard", "bid", "decimal", "text"]
"""How the answer is entered:

- ``number``: one integer in the field ``answer`` (may be negative);
- ``choice``: exactly one of ``options`` (its ``value``) in ``answer``;
- ``multi``: any subset of ``options`` (values), zero or more ``answer`` fields;
- ``cards``: any subset of the cards in ``options`` (card codes), clickable cards;
- ``order``: all cards of ``options`` in an order, as several ``answer`` fields in order
  or one field with the codes separated by spaces;
- ``case``: one of ``options`` (its ``value``) and then one integer (the list entry), as two
  ``answer`` fields in that order (``fall``: a casebook case that also asks for the score);
- ``discard``: two of ``cards`` (card codes) and one of ``options`` (the game), in any order
  (``druecken``: graded by a job of the ``graded_by_play`` app);
- ``bid``: one of ``options`` (``passen`` or a bid), picked from a list in the ladder's order
  (``reizen_gespielt``: graded by a job of the ``graded_by_play`` app);
- ``decimal``: one number, decimal comma or point (a teacher's imported numerical question);
- ``text``: one line of text (a teacher's imported short answer).
"""


class AnswerError(SkatError):
    """The submitted answer cannot be read (not a number, not a card, not an option ...).

    The site answers with a 4xx and the message; it is not graded as wrong.
    """


@dataclass(frozen=True, slots=True)
class Choice:
    """One option of a question: the ``value`` the browser sends back and the ``label`` shown
    (``choice.label.get(lang)``). The casebook's case options are the same type."""

    value: str
    label: Text


@dataclass(frozen=True, slots=True)
class Question:
    """What the learner sees. Never contains the answer."""

    kind: str
    difficulty: int
    seed: int
    prompt: Text
    widget: Widget
    options: tuple[Choice, ...] = ()
    cards: tuple[str, ...] = ()
    """Cards to show as context (e.g. the hand), in order."""
    trick: tuple[str, ...] = ()
    """Cards already on the table, in play order."""
    skat: tuple[str, ...] = ()
    facts: tuple[Text, ...] = ()
    """Extra lines to show: "Spiel: Herz", "Reizwert: 36" ..."""
    rule_ids: tuple[str, ...] = ()
    variant: bool = False
    """True for pub-rule exercises (not ISkO); the page marks them."""


@dataclass(frozen=True, slots=True)
class Feedback:
    """The grade of one answer, with the why."""

    correct: bool
    answer: Text
    """The correct answer, for display."""
    given: Text
    """What the learner answered, normalised for display."""
    steps: tuple[Step, ...] = ()
    """The engine's step-by-step derivation."""
    rule_ids: tuple[str, ...] = ()
    normalized: str = ""
    """The answer in canonical form (stored with the attempt; used for statistics)."""
    credit: float | None = None
    """The share of the point (0 to 1) when the question grades itself (an imported question,
    by its file's fractions as Moodle does); None: 1 if correct, else the quiz's partial-credit rule."""


def rng_for(kind: str, difficulty: int, seed: int) -> random.Random:
    """The one random generator of an exercise: same inputs, same question."""
    return random.Random(f"{kind}:{difficulty}:{seed}")


CHOICE_WIDGETS: frozenset[str] = frozenset({"choice", "multi", "case"})
"""The widgets whose options are answers to pick from: their order is shuffled per exercise."""


def shuffled_options(kind: str, difficulty: int, seed: int, options: Sequence[Choice]) -> tuple[Choice, ...]:
    """The options of one exercise in an order that reveals nothing about the answer.

    The order comes from the exercise's seed (its own generator, so drawing it changes
    nothing else of the question): a reload shows the same order, another seed another one.
    Over many seeds every position is equally likely to hold the right answer.
    """
    order = list(options)
    random.Random(f"options:{kind}:{difficulty}:{seed}").shuffle(order)
    return tuple(order)


class ExerciseType(ABC):
    """One kind of exercise. Subclasses set the class attributes and implement both methods."""

    slug: str
    name: Text
    """The type's name, shown as the title of its page and in lists."""
    description: Text = Text("", "")
    rule_ids: tuple[str, ...] = ()
    levels: int = 3
    """Difficulties are 1 .. levels."""
    variant: bool = False
    generator: int = 1
    """The version of :meth:`generate`: raised whenever the same ``(difficulty, seed)`` would
    build a different question. Attempts store it, and a re-grade leaves an attempt alone whose
    question an older generator built (it could not be rebuilt as the learner saw it)."""
    graded_by_job: bool = False
    """Grading takes seconds and runs as a job on the type's own pages (``druecken``,
    ``reizen_gespielt``): not in quizzes, whose answers are graded within the request."""

    def title(self, lang: str = "de") -> str:
        """The name in ``lang`` (German for anything but English, as every :class:`Text`)."""
        return self.name.get(lang)

    def check_difficulty(self, difficulty: int) -> None:
        if not 1 <= difficulty <= self.levels:
            raise AnswerError(
                f"Schwierigkeit {difficulty} gibt es nicht (1 bis {self.levels})",
                f"Difficulty {difficulty} does not exist (1 to {self.levels})",
            )

    @abstractmethod
    def generate(self, difficulty: int, seed: int) -> Question:
        """Build the question for this difficulty and seed (deterministic)."""

    @abstractmethod
    def grade(self, question: Question, answer: Sequence[str]) -> Feedback:
        """Grade the raw answer values (the ``answer`` form fields, in order).

        Raises :class:`AnswerError` when the answer cannot be read.
        """

    def correct_answer(self, question: Question) -> list[str]:
        """A raw answer that :meth:`grade` accepts as right (for tests and answer keys).

        Computed with the engine, never stored.
        """
        raise NotImplementedError


SourceT = TypeVar("SourceT")


class GradedByPlay(ExerciseType, Generic[SourceT]):
    """A type graded by playing its hand against sampled deals: seconds a grading, so a job of
    the ``graded_by_play`` app grades it (:attr:`graded_by_job`).

    ``source`` is where gradings come from: the site sets its jobs' stored results; None
    computes them here (tests, scripts). ``deals`` is the number of sampled deals (fewer in
    quick tests)."""

    graded_by_job = True
    deals: int

    def __init__(self) -> None:
        self.source: SourceT | None = None

    @staticmethod
    def hand(question: Question) -> tuple[Card, ...]:
        """The question's cards as cards."""
        return tuple(parse_cards(question.cards))

"""Grading: the engine's :class:`Solution` of a scenario, the learner's answer read into a
:class:`Given`, and the two compared into a :class:`~.base.Feedback`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from skatschule.engine import Step, Text, parse_card
from skatschule.engine.names import cards_ref
from skatschule.engine.sorting import neutral_order

from .answers import parse_card_answer, parse_choice, parse_multi, parse_number, parse_order
from .base import AnswerError, Feedback, Question, Widget
from .helpers import merge_ids, step_ids

__all__ = ["Solution", "Given", "NONE_CHOSEN", "read_answer", "mark", "grade_against"]


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
        ordered = neutral_order(parse_card(c) for c in chosen)
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

"""Stored quiz answers in words: for the statistics ("Häufigste falsche Antworten") and the exports.

Answers are stored as the exercise reads them ("vorhand", "CK SJ", "+2", "48"). A teacher reads
them as the question names them, in the page's or the export's language:

- if every student got the same question (a fixed quiz, an own item), as that question reads
  the answer: a choice by its label ("Vorhand (⟦card:SA⟧)"), cards by their names;
- with random variants the labels may differ from student to student, so only what does not:
  a seat by its name, cards by their names, and a choice whose label is the same in every
  variant of the exercise type (tried once per process: "mit 2", "Ja, gültig");
- anything else stays as stored (a number, a casebook choice of a random case).

:func:`answer_words` keeps card names as references (``⟦card:SA⟧``) for ``{% in_deck %}``;
:func:`answer_text` renders them in the ISkO's names for a file.
"""

from __future__ import annotations

from collections import defaultdict
from functools import lru_cache

from skatschule.core.notfound import NotFound
from skatschule.engine import SEATS as ENGINE_SEATS
from skatschule.engine import SkatError, parse_card
from skatschule.engine.names import DEFAULT_DECK, cards_ref, render
from skatschule.exercises.base import AnswerError, Question
from skatschule.exercises.grading import read_answer
from skatschule.training.registry import get_type

from . import questions
from .models import Quiz, QuizItem

__all__ = ["answer_text", "answer_words", "shared_question"]

SEATS = ("vorhand", "mittelhand", "hinterhand")
VARIANTS_TRIED = 12
"""Variants per level generated to find the choice labels that never change."""


@lru_cache(maxsize=64)
def variant_free_labels(kind: str, lang: str) -> dict[str, str]:
    """The choices of a registered exercise type whose label is the same in every variant tried."""
    exercise = get_type(kind)
    if exercise is None:
        return {}
    seen: dict[str, set[str]] = defaultdict(set)
    for level in range(1, exercise.levels + 1):
        for seed in range(VARIANTS_TRIED):
            try:
                question = exercise.generate(level, seed)
            except (SkatError, AnswerError):
                continue
            for option in question.options:
                seen[option.value].add(option.label.get(lang))
    return {value: next(iter(labels)) for value, labels in seen.items() if len(labels) == 1}


def _token_words(token: str, lang: str, kind: str) -> str | None:
    if token in SEATS:
        seat = ENGINE_SEATS[SEATS.index(token)].text.get(lang)
        return seat[:1].upper() + seat[1:]  # a cell of its own: "Forehand", as the choice labels say
    try:
        return cards_ref([parse_card(token)])
    except SkatError:
        pass
    return variant_free_labels(kind, lang).get(token) if kind else None


def answer_words(normalized: str, lang: str, question: Question | None = None, widget: str = "", kind: str = "") -> str:
    """A stored (normalised) answer in words; card names as ``⟦card:…⟧`` for ``{% in_deck %}``."""
    if question is not None:
        try:
            given = read_answer(question, normalized.split() or [normalized])
        except AnswerError:
            pass
        else:
            return given.given.get(lang)
    tokens = normalized.split()
    words = [_token_words(token, lang, kind) for token in tokens]
    if not tokens or any(word is None for word in words):
        return normalized
    return (" > " if widget == "order" else ", ").join(word for word in words if word is not None)


def answer_text(normalized: str, lang: str, question: Question | None = None, widget: str = "", kind: str = "") -> str:
    """:func:`answer_words` as plain text with the ISkO's card names in ``lang`` (for a file)."""
    return render(answer_words(normalized, lang, question, widget, kind), lang, DEFAULT_DECK) if normalized else ""


def shared_question(quiz: Quiz, item: QuizItem) -> tuple[Question | None, str]:
    """The item's question if every student gets the same one, and the item's answer widget."""
    try:
        question = questions.question_for(quiz, item, None)
    except NotFound:  # the exercise type or the own item is gone
        return None, ""
    shared = quiz.variants != Quiz.Variants.RANDOM or get_type(item.kind) is None  # own items: one situation
    return (question if shared else None), question.widget

"""Turn quiz items into plain dicts for the templates (question only, never the answer)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from django.http import Http404

from skatschule.engine import SkatError, parse_card
from skatschule.engine.names import cards_ref
from skatschule.exercises.base import AnswerError, Feedback, Question
from skatschule.exercises.helpers import read_answer
from skatschule.training.presenters import present_feedback, present_question
from skatschule.training.registry import get_type

from . import questions, selectors
from .models import Quiz, QuizAnswer, QuizItem


def present_item(
    quiz: Quiz,
    item: QuizItem,
    student_id: int | None,
    lang: str,
    saved: Sequence[str] = (),
    feedback: Feedback | None = None,
    attempt: int = 1,
) -> dict[str, Any]:
    """One item as the student sees it in attempt number ``attempt``; ``saved`` are the student's own stored values."""
    question = questions.question_for(quiz, item, student_id, attempt)
    q = present_question(question, lang)
    saved = [str(v) for v in saved]
    return {
        "item": item,
        "position": item.position,
        "title": selectors.kind_title(item.kind, lang),
        "q": q,
        "saved": saved,
        "saved_number": saved[-1] if saved and q["widget"] in ("number", "case") else "",
        "fb": present_feedback(feedback, lang) if feedback is not None else None,
    }


def saved_values(answer: QuizAnswer | None) -> list[str]:
    return [str(v) for v in (answer.values if answer else [])]


def result_cells(cells: Sequence[bool | None]) -> str:
    """The item cells of one results row as HTML (one string per row, not 60 template nodes)."""
    from django.utils.html import escape
    from django.utils.safestring import mark_safe
    from django.utils.translation import gettext

    right = f'<td class="cell-right">✓<span class="visually-hidden">{escape(gettext("richtig"))}</span></td>'
    wrong = f'<td class="cell-wrong">✗<span class="visually-hidden">{escape(gettext("falsch"))}</span></td>'
    html = {True: right, False: wrong, None: "<td>–</td>"}
    return mark_safe("".join(html[cell] for cell in cells))  # fixed markup, translated words escaped


# --- the statistics' wrong answers in words -----------------------------------------------------


def answer_words(normalized: str, lang: str, question: Question | None = None, widget: str = "") -> str:
    """A stored (normalised) answer in words; card names as ``⟦card:…⟧`` for ``{% in_deck %}``.

    With ``question`` (the one every student got: a fixed variant or an own item) the answer is
    read as that question reads it, so a choice shows its label ("Vorhand (⟦card:SA⟧)").
    Without (random variants: the labels differ from student to student) card codes become
    card names and anything else stays as stored ("vorhand", "48").
    """
    if question is not None:
        try:
            given = read_answer(question, normalized.split() or [normalized])
        except AnswerError:
            pass
        else:
            return given.given.get(lang)
    try:
        cards = [parse_card(token) for token in normalized.split()]
    except SkatError:
        return normalized
    return cards_ref(cards, " > " if widget == "order" else ", ") if cards else normalized


def _shared_question(quiz: Quiz, item: QuizItem) -> tuple[Question | None, str]:
    """The item's question if every student gets the same one, and the item's answer widget."""
    try:
        question = questions.question_for(quiz, item, None)
    except Http404:  # the exercise type or the own item is gone
        return None, ""
    shared = quiz.variants != Quiz.Variants.RANDOM or get_type(item.kind) is None  # own items: one situation
    return (question if shared else None), question.widget


def shown_item_stats(quiz: Quiz, stats: Sequence[selectors.ItemStat], lang: str) -> list[selectors.ItemStat]:
    """``selectors.item_stats`` with the most common wrong answers in words."""
    shown = []
    for stat in stats:
        if stat.wrong:
            question, widget = _shared_question(quiz, stat.item)
            stat = replace(stat, wrong=[(answer_words(value, lang, question, widget), n) for value, n in stat.wrong])
        shown.append(stat)
    return shown

"""Turn quiz items into plain dicts for the templates (question only, never the answer)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from skatschule.exercises.base import Feedback
from skatschule.training.presenters import present_feedback, present_question

from . import questions
from .answers import answer_words, shared_question
from .grading import shown_points
from .imported import IMPORTED_KIND, KIND_NAMES, ImportedType
from .imports import Parsed
from .models import OwnItem, Quiz, QuizAnswer, QuizItem
from .questions import kind_title
from .selectors.analysis import ItemStat


def present_item(  # noqa: PLR0913 - over the budget since issue 27; to be split
    quiz: Quiz,
    item: QuizItem,
    student_id: int | None,
    lang: str,
    saved: Sequence[str] = (),
    feedback: Feedback | None = None,
    attempt: int = 1,
    earned: float | None = None,
) -> dict[str, Any]:
    """One item as the student sees it in attempt number ``attempt``; ``saved`` are the student's own stored values."""
    question = questions.question_for(quiz, item, student_id, attempt)
    q = present_question(question, lang)
    saved = [str(v) for v in saved]
    return {
        "item": item,
        "position": item.position,
        "title": kind_title(item.kind, lang),
        "q": q,
        "saved": saved,
        "saved_number": saved[-1] if saved and q["widget"] in ("number", "case", "decimal", "text") else "",
        "fb": _with_credit(present_feedback(feedback, lang), earned) if feedback is not None else None,
    }


def _with_credit(fb: dict[str, Any], earned: float | None) -> dict[str, Any]:
    """The verdict follows the item's credit (``earned``: the stored grade or the teacher's
    override): part credit is "teilweise richtig", an override to 1 is right."""
    if earned is not None:
        fb["credit"] = earned
        fb["credit_shown"] = shown_points(earned)
    return fb


def earned(answer: QuizAnswer | None) -> float | None:
    """The credit an answer row earns: the teacher's override where there is one, else the grade."""
    if answer is None:
        return None
    return answer.credit if answer.override_credit is None else answer.override_credit


def saved_values(answer: QuizAnswer | None) -> list[str]:
    return [str(v) for v in (answer.values if answer else [])]


def result_cells(cells: Sequence[float | None]) -> str:
    """The item cells of one results row as HTML (one string per row, not 60 template nodes): ✓ for
    full credit, ✗ for none, the credit itself for part of it ("0,67"), – for no answer."""
    from django.utils.html import escape
    from django.utils.safestring import mark_safe
    from django.utils.translation import gettext

    right = f'<td class="cell-right">✓<span class="visually-hidden">{escape(gettext("richtig"))}</span></td>'
    wrong = f'<td class="cell-wrong">✗<span class="visually-hidden">{escape(gettext("falsch"))}</span></td>'
    part = gettext("Teilpunkte")

    def cell(value: float | None) -> str:
        if value is None:
            return "<td>–</td>"
        if value >= 1:
            return right
        if value <= 0:
            return wrong
        hidden = f'<span class="visually-hidden"> {escape(part)}</span>'
        return f'<td class="cell-part">{escape(shown_points(value))}{hidden}</td>'

    return mark_safe("".join(cell(value) for value in cells))  # fixed markup, numbers and translated words escaped


# --- the statistics' wrong answers in words -----------------------------------------------------


def shown_item_stats(quiz: Quiz, stats: Sequence[ItemStat], lang: str) -> list[ItemStat]:
    """``selectors.analysis.item_stats`` with the most common wrong answers in words."""
    shown = []
    for stat in stats:
        if stat.wrong:
            question, widget = shared_question(quiz, stat.item)
            words = [(answer_words(value, lang, question, widget, stat.item.kind), n) for value, n in stat.wrong]
            stat = replace(stat, wrong=words)
        shown.append(stat)
    return shown


# --- the import preview ------------------------------------------------------------------------


def import_preview(parsed: Parsed, lang: str) -> list[dict[str, Any]]:
    """Every question read from a file as the learner will see it, with its answer key, how it is
    graded and what differs from Moodle, in the file's order (nothing is saved)."""
    entries = []
    for n, imported in enumerate(parsed.questions, start=1):
        kind = ImportedType(
            OwnItem(kind=IMPORTED_KIND, title=imported.title, situation=imported.as_json()), f"vorschau-{n}"
        )
        entries.append(
            {
                "n": n,
                "field_id": f"preview-{n}",
                "line": imported.line,
                "title": imported.title,
                "kind": KIND_NAMES[imported.kind].get(lang),
                "q": present_question(kind.generate(1, 0), lang),
                "key": kind.key(lang),
                "rule": kind.rule(lang),
                "shares": kind.shares(lang),
                "changes": [c.text.get(lang) for c in parsed.changes if c.line == imported.line],
            }
        )
    return entries

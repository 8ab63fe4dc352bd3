"""Turn quiz items into plain dicts for the templates (question only, never the answer)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from skatschule.training.exercises.base import Feedback
from skatschule.training.presenters import present_feedback, present_question

from . import services
from .models import Quiz, QuizAnswer, QuizItem


def present_item(
    quiz: Quiz,
    item: QuizItem,
    student_id: int | None,
    lang: str,
    saved: Sequence[str] = (),
    feedback: Feedback | None = None,
) -> dict[str, Any]:
    """One item as the student sees it; ``saved`` are the student's own stored values."""
    question = services.question_for(quiz, item, student_id)
    q = present_question(question, lang)
    saved = [str(v) for v in saved]
    order = list(saved) if q["widget"] == "order" else []
    q["select_rows"] = [
        {
            "pos": pos,
            "options": [
                {"value": o["value"], "label": o["label"], "selected": len(order) >= pos and order[pos - 1] == o["value"]}
                for o in q["options"]
            ],
        }
        for pos in q["positions"]
    ]
    return {
        "item": item,
        "position": item.position,
        "title": services._kind_title(item.kind, lang),
        "q": q,
        "saved": saved,
        "saved_number": saved[0] if saved and q["widget"] == "number" else "",
        "fb": present_feedback(feedback, lang) if feedback is not None else None,
    }


def saved_values(answer: QuizAnswer | None) -> list[str]:
    return [str(v) for v in (answer.values if answer else [])]

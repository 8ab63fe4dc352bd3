"""Entering an answer in the shared answer widget (templates/training/partials/answer_fields.html),
the way a learner would. Used by the training and the quiz browser tests."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from skatschule.exercises.answers import signed_choice
from skatschule.exercises.base import Question


def fill_answer(form: Any, question: Question, values: Sequence[str], field_id: object) -> None:
    """Fill ``form`` (a Playwright locator) with ``values``; ``field_id`` is the widget's id part."""
    if signed_choice(question):  # Spitzen: mit/ohne and a number ("+2" is "+" and 2)
        form.locator(f"#ans-{field_id}-{'mit' if values[0].startswith('+') else 'ohne'}").check()
        form.locator(f"#ans-{field_id}-count").fill(values[0][1:])
    elif question.widget in ("number", "decimal", "text"):
        assert form.locator(f'label[for="ans-{field_id}"]').count() == 1, "the answer field has no label"
        form.locator(f"#ans-{field_id}").fill(values[0])
    elif question.widget in ("choice", "multi"):
        for value in values:
            form.locator(f'input[value="{value}"]').check()
    elif question.widget == "cards":
        for value in values:
            form.locator(f'label.card-choice:has(input[value="{value}"])').click()
    elif question.widget == "case":
        form.locator(f'input[value="{values[0]}"]').check()
        form.locator(f"#ans-{field_id}-score").fill(values[1])
    else:  # order
        for position, value in enumerate(values, start=1):
            form.locator(f"#ans-{field_id}-{position}").select_option(value)

"""Turn engine-side values (Question, Feedback) into plain dicts for the templates.

Only what the learner may see goes into a question's dict; the answer never does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from skatschule.core.points import shown_points
from skatschule.exercises.answers import signed_choice
from skatschule.exercises.base import Feedback, Question


def given_again(q: dict[str, Any], values: Sequence[str]) -> dict[str, Any]:
    """The learner's own values of an answer that could not be read, for the form shown again
    (``saved`` and ``saved_number`` of training/partials/answer_fields.html): nothing typed or
    ticked is lost. The mit/ohne toggle keeps its sign and count as one value ("+3")."""
    given = [str(v)[:40] for v in values[:20]]
    if q.get("signed_max") and given:
        return {"saved": ["".join(given[:2])], "saved_number": ""}
    number = given[-1] if given and q.get("widget") in ("number", "case", "decimal", "text") else ""
    return {"saved": given, "saved_number": number}


def present_question(question: Question, lang: str) -> dict[str, Any]:
    options = [
        {"value": choice.value, "label": choice.label.get(lang), "n": n}
        for n, choice in enumerate(question.options, start=1)
    ]
    option_codes = [choice.value for choice in question.options] or list(question.cards)
    # The context cards are shown above the form unless they are exactly the clickable ones.
    show_cards = bool(question.cards) and not (
        (question.widget == "cards" and sorted(option_codes) == sorted(question.cards)) or question.widget == "discard"
    )
    return {
        "kind": question.kind,
        "difficulty": question.difficulty,
        "widget": question.widget,
        # signed-count choices (Spitzen): a mit/ohne toggle and a number, not 22 radio buttons
        "signed_max": signed_choice(question),
        "prompt": question.prompt.get(lang),
        "facts": [fact.get(lang) for fact in question.facts],
        "cards": list(question.cards),
        "show_cards": show_cards,
        "trick": list(question.trick),
        "skat": list(question.skat),
        "options": options,
        "option_codes": option_codes,
        "positions": list(range(1, len(options) + 1)),
        "variant": question.variant,
        "rule_ids": list(question.rule_ids),
    }


def present_feedback(feedback: Feedback, lang: str) -> dict[str, Any]:
    rules: dict[str, None] = dict.fromkeys(feedback.rule_ids)
    for step in feedback.steps:
        for rule in step.rules:
            rules.setdefault(rule, None)
    return {
        "correct": feedback.correct,
        "credit": feedback.credit,
        "credit_shown": shown_points(feedback.credit) if feedback.credit is not None else "",
        "answer": feedback.answer.get(lang),
        "given": feedback.given.get(lang),
        "steps": [{"text": step.text(lang), "rules": list(step.rules)} for step in feedback.steps],
        "rule_ids": list(rules),
    }


def present_marks(question: Question, given: Sequence[str], right: Sequence[str]) -> dict[str, Any] | None:
    """After an answer: the cards of a card question marked right, wrong or missed (``given``: the
    learner's cleaned answer; ``right``: the engine's). ``None`` for questions without card answers.

    - ``cards`` (pick cards): chosen and right ``right``, chosen but not right ``wrong``, right but not
      chosen ``missed``, neither: no mark; in the order they were shown;
    - ``order``: the learner's order, each place ``right`` or ``wrong``; ``right_order`` beside it.
    """
    if question.widget == "cards":
        shown = [choice.value for choice in question.options] or list(question.cards)
        chosen, wanted = set(given), set(right)
        return {"widget": "cards", "marks": [(code, _mark(code in chosen, code in wanted)) for code in shown]}
    if question.widget == "order":
        marks = [(code, "right" if code == want else "wrong") for code, want in zip(given, right, strict=False)]
        return {"widget": "order", "marks": marks, "right_order": list(right)}
    return None


def _mark(chosen: bool, wanted: bool) -> str:
    if chosen:
        return "right" if wanted else "wrong"
    return "missed" if wanted else ""

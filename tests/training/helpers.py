from __future__ import annotations

from skatschule.owners import Owner
from skatschule.training.models import IssuedExercise
from skatschule.training.registry import get_type
from skatschule.training.services.issuing import Submitted, issue, question_for, submit
from tests.present import present


def right_answer(issued: IssuedExercise) -> list[str]:
    return present(get_type(issued.kind)).correct_answer(question_for(issued))


def wrong_answer(issued: IssuedExercise) -> list[str]:
    question = question_for(issued)
    right = present(get_type(issued.kind)).correct_answer(question)
    if question.widget == "number":
        return [str(int(right[0]) + 1)]
    if question.widget == "choice":
        return [next(o.value for o in question.options if o.value not in right)]
    if question.widget == "order":
        return list(reversed(right))
    others = [o.value for o in question.options if o.value not in right]
    return others[:1] if others else []


def answer(kind: str, difficulty: int, owner: Owner, correct: bool, lesson: str | None = None) -> Submitted:
    issued = issue(kind=kind, difficulty=difficulty, lesson=lesson, owner=owner)
    values = right_answer(issued) if correct else wrong_answer(issued)
    return submit(issued=issued, owner=owner, values=values)

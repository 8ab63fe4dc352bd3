"""Right and wrong answers for a student's variant, computed by the exercise types."""

from __future__ import annotations

from skatschule.quizzes import questions
from skatschule.quizzes.models import Quiz, QuizItem
from skatschule.training.registry import get_type
from tests.present import present


def right_values(quiz: Quiz, item: QuizItem, student_id: int | None) -> list[str]:
    question = questions.question_for(quiz, item, student_id)
    return present(get_type(item.kind)).correct_answer(question)


def wrong_values(quiz: Quiz, item: QuizItem, student_id: int | None) -> list[str]:
    """A readable answer the engine grades as wrong."""
    question = questions.question_for(quiz, item, student_id)
    right = right_values(quiz, item, student_id)
    if question.widget == "number":
        return [str(int(right[0]) + 1)]
    if question.widget == "choice":
        return [next(o.value for o in question.options if o.value not in right)]
    if question.widget in ("multi", "cards"):
        options = [o.value for o in question.options] or list(question.cards)
        return [options[0]] if right != [options[0]] else [options[1]]
    if question.widget == "order":
        return list(reversed(right))
    raise AssertionError(question.widget)

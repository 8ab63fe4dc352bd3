"""Pure computation for quiz items: seeds, the question a student sees, grading with the engine, the
timing of attempts (state, cut-off, open), when right answers may be shown, and the names of items.

No writes and no queries beyond the item's quiz; selectors and the attempt services share it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.utils import timezone

from skatschule.core.notfound import NotFound
from skatschule.exercises.base import Feedback, Question
from skatschule.training.registry import get_type
from skatschule.training.services.issuing import grade_answer

from .models import OwnItem, Quiz, QuizAttempt, QuizItem
from .own_items import type_for

SEED_LIMIT = 2**31


def derive_seed(quiz: Quiz, item: QuizItem, student_id: int | None, attempt: int = 1) -> int:
    """The item's seed for this student and attempt number.

    Fixed quizzes share ``item.seed`` (every student, every attempt: see
    :func:`repeats_shown_answers` for why a second attempt is refused then). Random ones
    hash the quiz's secret, the student, the position and, from the second attempt on, the
    attempt number. A later attempt never repeats a question an earlier attempt asked: when
    two seeds happen to give the same question (small question spaces), the next candidate
    seed is taken, deterministically, so a reload shows the same question.
    """
    if quiz.variants != Quiz.Variants.RANDOM or student_id is None:
        return item.seed
    base = f"{quiz.secret}:{student_id}:{item.position}"
    if attempt <= 1:
        return _hashed_seed(base)
    kind = exercise_type(item.kind)
    earlier = (
        {
            _question_content(kind.generate(item.difficulty, derive_seed(quiz, item, student_id, n)))
            for n in range(1, attempt)
        }
        if kind is not None
        else set()
    )
    seed = _hashed_seed(f"{base}:attempt:{attempt}")
    for retry in range(1, _REPEAT_RETRIES + 1):
        if kind is None or _question_content(kind.generate(item.difficulty, seed)) not in earlier:
            break
        seed = _hashed_seed(f"{base}:attempt:{attempt}:{retry}")
    return seed


_REPEAT_RETRIES = 50


def _hashed_seed(key: str) -> int:
    digest = hashlib.sha256(key.encode()).digest()
    return int.from_bytes(digest[:4], "big") % SEED_LIMIT


def _question_content(question: Question) -> tuple[object, ...]:
    """What makes two questions the same for the learner (the seed itself does not)."""
    # the options as a set: the same options in another order are the same question
    options = tuple(sorted((o.value, o.label.de) for o in question.options))
    return (question.prompt.de, question.facts, question.cards, question.trick, question.skat, options)


def exercise_type(kind: str) -> Any:
    """The exercise type of a quiz item: a registered one, or a teacher's own item (``own_items``)."""
    return get_type(kind) or type_for(kind)


def grade_values(question: Question, values: Sequence[str]) -> Feedback:
    """``grade_answer``, also for a teacher's own items."""
    own = exercise_type(question.kind) if question.kind.startswith("eigen-") else None
    return own.grade(question, values) if own is not None else grade_answer(question=question, values=values)


def question_for(quiz: Quiz, item: QuizItem, student_id: int | None, attempt: int = 1) -> Question:
    kind = exercise_type(item.kind)
    if kind is None:
        raise NotFound("this exercise type no longer exists")
    question: Question = kind.generate(item.difficulty, derive_seed(quiz, item, student_id, attempt))
    return question


def grade_for_display(
    quiz: Quiz, item: QuizItem, student_id: int | None, values: Sequence[str], attempt: int = 1
) -> Feedback:
    return grade_values(question_for(quiz, item, student_id, attempt), values)


# --- timing (the server's clock decides) ---


def quiz_state(quiz: Quiz, now: datetime | None = None) -> str:
    """``"upcoming"``, ``"open"`` or ``"closed"``."""
    now = now or timezone.now()
    if quiz.opens_at and now < quiz.opens_at:
        return "upcoming"
    if quiz.closes_at and now >= quiz.closes_at:
        return "closed"
    return "open"


def cutoff(attempt: QuizAttempt) -> datetime | None:
    """When the attempt stops taking answers: its deadline or the quiz's close, the earlier."""
    times = [t for t in (attempt.deadline, attempt.quiz.closes_at) if t is not None]
    return min(times) if times else None


def is_open(attempt: QuizAttempt, now: datetime | None = None) -> bool:
    now = now or timezone.now()
    limit = cutoff(attempt)
    return attempt.submitted_at is None and (limit is None or now < limit)


# --- when right answers may be shown ---


def key_open(quiz: Quiz, now: datetime | None = None) -> bool:
    """May right answers of this quiz be shown at all now? With random variants each student has
    own questions: yes. Items "the same for everyone" share one key, which a second account
    (joined with the class code, handing in an empty attempt) could pass on: only once the quiz
    is closed (its end, or the teacher's "Beenden", which is the release)."""
    return quiz.variants == Quiz.Variants.RANDOM or quiz_state(quiz, now) == "closed"


def immediate_feedback(quiz: Quiz, now: datetime | None = None) -> bool:
    """Right answers right after each answer (the teacher's choice, and :func:`key_open`)."""
    return quiz.show_answers == Quiz.ShowAnswers.IMMEDIATELY and key_open(quiz, now)


def answers_visible(attempt: QuizAttempt, now: datetime | None = None) -> bool:
    """May the student see the right answers of this attempt now? Until then: the score only."""
    now = now or timezone.now()
    policy = attempt.quiz.show_answers
    if not key_open(attempt.quiz, now):
        return False
    if policy == Quiz.ShowAnswers.IMMEDIATELY:
        return True
    if policy == Quiz.ShowAnswers.AFTER_SUBMIT:
        return attempt.submitted_at is not None
    return attempt.submitted_at is not None and quiz_state(attempt.quiz, now) == "closed"


# --- the names of items ---


def kind_title(kind: str, lang: str) -> str:
    found = exercise_type(kind)
    return found.title(lang) if found else kind


def teacher_item_title(kind: str, lang: str) -> str:
    """An item's name on the teacher's pages: an own item by the title its teacher gave it, with its
    type ("Kreuz sticht · Wer bekommt den Stich?"); students only ever see the type (:func:`kind_title`),
    since a title may tell the answer."""
    found = exercise_type(kind)
    item = getattr(found, "item", None)
    if isinstance(item, OwnItem):
        return f"{item.title} · {found.title(lang)}"
    return kind_title(kind, lang)

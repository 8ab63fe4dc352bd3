"""Issuing exercises and grading answers.

- :func:`issue` creates the server-side state of one exercise (random 31-bit seed).
- :func:`submit` grades an answer to an issued exercise, once: a second submit returns the
  first attempt's feedback and records nothing (also under a race: the unique link from
  Attempt to IssuedExercise decides, and the loser reads the winner's attempt). It returns a
  :class:`Submitted`.
- Errors: :class:`UnknownExercise` (a ``NotFound``), :class:`BadDifficulty` (400),
  ``NotFound`` for an exercise of another owner, :class:`AnswerError` (400) for an answer
  that cannot be read. Unreadable answers are not graded and not stored.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

from django.db import IntegrityError, transaction
from django.utils import timezone

from skatschule.core.errors import UserError
from skatschule.core.notfound import NotFound
from skatschule.engine import SkatError, parse_card
from skatschule.engine.numbers import plain_number
from skatschule.exercises.answers import join_signed, signed_choice
from skatschule.exercises.base import AnswerError, ExerciseType, Feedback, Question
from skatschule.owners import Owner

from ..lessons import Lesson
from ..models import Attempt, IssuedExercise
from ..registry import get_type
from . import progress_summary, review

__all__ = [
    "AnswerError",
    "BadDifficulty",
    "UnknownExercise",
    "issue",
    "exercise_type",
    "question_for",
    "get_issued",
    "clean_answer",
    "submit",
    "Submitted",
    "grade_attempt",
    "TIME_CAP_MS",
]

TIME_CAP_MS = 30 * 60 * 1000
"""Time taken is capped at 30 minutes (a tab left open says nothing about the learner)."""
MAX_VALUES = 40
MAX_VALUE_LENGTH = 64
SEED_LIMIT = 2**31


class UnknownExercise(NotFound):
    """No exercise type with this slug."""


class BadDifficulty(UserError):
    """A difficulty the exercise type does not have (a 400, not a 404)."""


def exercise_type(*, kind: str) -> ExerciseType:
    found = get_type(kind)
    if found is None:
        raise UnknownExercise(f"unknown exercise type {kind!r}")
    return found


def check_difficulty(*, kind: ExerciseType, difficulty: object) -> int:
    value = plain_number(str(difficulty).strip(), max_digits=3)
    if value is None:
        raise BadDifficulty(
            f"Die Stufe {str(difficulty)[:20]!r} ist keine Zahl.",
            f"The level {str(difficulty)[:20]!r} is not a number.",
        )
    try:
        kind.check_difficulty(value)
    except AnswerError as exc:
        raise BadDifficulty(exc.text.de, exc.text.en) from None
    return value


def issue(  # noqa: PLR0913 - over the budget since issue 27; to be split
    *,
    kind: str,
    difficulty: int | str,
    lesson: Lesson | str | None = None,
    owner: Owner,
    seed: int | None = None,
    mode: str | None = None,
) -> IssuedExercise:
    """Hand out one exercise of ``kind`` at ``difficulty`` to ``owner``."""
    exercise = exercise_type(kind=kind)
    level = check_difficulty(kind=exercise, difficulty=difficulty)
    lesson_slug = str(getattr(lesson, "slug", lesson) or "") or None
    if seed is None:
        seed = secrets.randbelow(SEED_LIMIT)
    if mode is None:
        mode = IssuedExercise.Mode.LESSON if lesson_slug else IssuedExercise.Mode.PRACTICE
    return IssuedExercise.objects.create(
        **owner.fields(), kind=kind, difficulty=level, seed=seed, lesson=lesson_slug, mode=mode
    )


def question_for(issued: IssuedExercise | Attempt) -> Question:
    """Rebuild the question from kind, difficulty and seed (deterministic)."""
    return exercise_type(kind=issued.kind).generate(issued.difficulty, issued.seed)


def get_issued(*, public_id: UUID | str, owner: Owner) -> IssuedExercise:
    """The owner's issued exercise with this uuid; ``NotFound`` for anyone else's or a forged one."""
    issued = IssuedExercise.objects.owned_by(owner).filter(public_id=public_id).first()
    if issued is None:
        raise NotFound("no such exercise")
    return issued


_INTEGER = re.compile(r"^[+-]?\d{1,7}$")


def _unreadable(de: str, en: str) -> AnswerError:
    return AnswerError(de, en)


def _number(question: Question, cleaned: list[str]) -> list[str]:
    given = [v for v in cleaned if v]
    if len(given) != 1:
        raise _unreadable("Bitte gib eine Zahl ein.", "Please enter a number.")
    value = given[0].replace("\u2212", "-")
    if not _INTEGER.match(value):
        raise _unreadable(f"„{value[:20]}“ ist keine ganze Zahl.", f"“{value[:20]}” is not a whole number.")
    return [value]


def _choice(question: Question, cleaned: list[str]) -> list[str]:
    if signed_choice(question):  # the compact mit/ohne control: a sign and a number
        cleaned = join_signed(cleaned)
    given = [v for v in cleaned if v]
    if len(given) != 1 or given[0] not in [choice.value for choice in question.options]:
        raise _unreadable("Bitte wähle genau eine der Antworten.", "Please choose exactly one of the answers.")
    return given


def _several(question: Question, cleaned: list[str]) -> list[str]:
    """``multi`` and ``cards``: distinct values, each an option (or, for cards without a list, a card)."""
    given = [v for v in cleaned if v]
    allowed = {choice.value for choice in question.options} or set(question.cards)
    if question.widget == "cards" and not allowed:
        try:
            for v in given:
                parse_card(v)
        except SkatError:
            raise _unreadable("Das ist keine Karte.", "That is not a card.") from None
    elif any(v not in allowed for v in given):
        raise _unreadable("Diese Antwort steht nicht zur Auswahl.", "That answer is not one of the options.")
    if len(set(given)) != len(given):
        raise _unreadable("Jede Antwort bitte nur einmal.", "Please give each answer only once.")
    return given


def _order(question: Question, cleaned: list[str]) -> list[str]:
    options = [choice.value for choice in question.options]
    given = [v for v in cleaned if v]
    if len(given) == 1 and len(options) > 1:
        given = given[0].replace(",", " ").split()
    expected = options or list(question.cards)
    if any(v not in expected for v in given):
        raise _unreadable("Diese Antwort steht nicht zur Auswahl.", "That answer is not one of the options.")
    if sorted(given) != sorted(expected):
        raise _unreadable("Bitte ordne jede Karte genau einmal ein.", "Please place every card exactly once.")
    return given


_SHAPES = {"number": _number, "choice": _choice, "multi": _several, "cards": _several, "order": _order}
"""How each widget's raw answer is checked (a widget not listed passes its stripped values on)."""


def clean_answer(*, question: Question, values: Sequence[str]) -> list[str]:
    """Check the shape of the raw answer for the question's widget; raise AnswerError if unreadable.

    The graders then only see well-formed values (``number``: one integer; ``choice``: one
    option; ``multi``/``cards``: distinct options; ``order``: every option exactly once,
    as several fields or one field with the values separated by spaces).
    """
    if len(values) > MAX_VALUES or any(len(str(v)) > MAX_VALUE_LENGTH for v in values):
        raise _unreadable("Diese Antwort ist zu lang.", "This answer is too long.")
    cleaned = [str(v).strip() for v in values]
    shape = _SHAPES.get(question.widget)
    return cleaned if shape is None else shape(question, cleaned)


def grade_answer(*, question: Question, values: Sequence[str]) -> Feedback:
    """Check the shape, then grade with the exercise type. Raises AnswerError if unreadable."""
    cleaned = clean_answer(question=question, values=values)
    try:
        return exercise_type(kind=question.kind).grade(question, cleaned)
    except AnswerError:
        raise
    except SkatError as exc:  # e.g. InvalidCard from the engine: still an unreadable answer
        raise AnswerError(exc.text.de, exc.text.en) from exc


def grade_attempt(attempt: Attempt) -> Feedback:
    """Grade a stored attempt's raw answer again, with the current exercise type."""
    return grade_answer(question=question_for(attempt), values=attempt.answer)


def _rule_ids(question: Question, feedback: Feedback) -> list[str]:
    seen: dict[str, None] = {}
    for rule in (*question.rule_ids, *feedback.rule_ids, *(r for step in feedback.steps for r in step.rules)):
        seen.setdefault(rule, None)
    return list(seen)


def _owns(issued: IssuedExercise, owner: Owner) -> bool:
    if owner.user_id is not None:
        return issued.user_id == owner.user_id
    return issued.user_id is None and issued.session_key == owner.session_key


@dataclass(frozen=True)
class Submitted:
    """What :func:`submit` did: the attempt (the first one, ``created`` False, when the exercise
    had been answered before), its feedback, and the progress state written with it in the same
    transaction (None when nothing was written)."""

    attempt: Attempt
    feedback: Feedback
    created: bool
    progress_state: dict[str, Any] | None = None


def submit(*, issued: IssuedExercise, owner: Owner, values: Sequence[str], now: datetime | None = None) -> Submitted:
    """Grade and record the answer ``values`` to ``issued`` (see the module docstring)."""
    if not _owns(issued, owner):
        raise NotFound("no such exercise")
    question = question_for(issued)
    previous = Attempt.objects.filter(issued=issued).first()
    if previous is not None:
        return Submitted(previous, grade_answer(question=question, values=previous.answer), created=False)

    raw = [str(v) for v in values]
    feedback = grade_answer(question=question, values=raw)  # AnswerError: nothing is stored
    now = now or timezone.now()
    elapsed = int((now - issued.issued_at).total_seconds() * 1000)
    try:
        with transaction.atomic():
            attempt = Attempt.objects.create(
                issued=issued,
                **owner.fields(),
                kind=issued.kind,
                difficulty=issued.difficulty,
                seed=issued.seed,
                lesson=issued.lesson,
                answer=raw,
                normalized=(feedback.normalized or "")[:500],
                correct=bool(feedback.correct),
                time_taken_ms=max(0, min(TIME_CAP_MS, elapsed)),
                rule_ids=_rule_ids(question, feedback),
                generator=exercise_type(kind=issued.kind).generator,
                created_at=now,
            )
            review.record_answer(owner=owner, attempt=attempt, now=now)
            # the running progress, in the same transaction; the answer's page shows it as it is now
            state = progress_summary.record(owner=owner, attempt=attempt)
    except IntegrityError:
        # A concurrent submit of the same exercise won the race: report its result.
        previous = Attempt.objects.filter(issued=issued).first()
        if previous is None:
            raise
        return Submitted(previous, grade_answer(question=question, values=previous.answer), created=False)
    return Submitted(attempt, feedback, created=True, progress_state=state)

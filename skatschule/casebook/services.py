"""The casebook's logic: filtering cases, and the referee exam.

Filtering (:func:`filter_cases`): by category slug and by rule id; a bad value raises
:class:`BadFilter` (the view answers 400 with its message). The casebook index uses the
richer :func:`skatschule.casebook.selectors.find_cases` (sections, level, words).

Answering a case page (:func:`answer_case`): the case is graded as the exercise ``fall``
grades it (by the engine where the case has an engine input); a signed-in reader's answer
is counted in :class:`~skatschule.casebook.models.SolvedCase` (:func:`record_case_answer`).

The exam (Schiedsrichter-Prüfung):

- :func:`start_exam` draws ``size`` questions (5 .. 20, default 20), shuffled: up to seven in
  ten are cases the engine decides, asked with other numbers (``fall_variante``: relabelled
  suits, another bid, so another list entry, in generated words), the others irregularities
  generated on fresh deals (``regelverstoss``, levels 1-3). Never a case as published
  (``fall``): its page is public and shows the ruling after one answer. Each case comes at
  most once. Only ``(kind, difficulty, seed)`` is stored; the answer is computed when it
  is graded. Nothing on the question page names the case: no id, no title; the options come
  in an order drawn from the seed.
- The time limit is :data:`SECONDS_PER_QUESTION` per question from the start. The server
  enforces it: an answer that arrives after the deadline (plus :data:`GRACE_SECONDS` for
  the network) raises :class:`ExamClosed` and is not recorded; the exam is then over.
- :func:`answer_question` grades with the exercise type and records the first answer only
  (a conditional update; a second submission changes nothing and reports ``created=False``).
- :func:`review` lists every question with the given and the right answer, the derivation
  and the rule ids; it is only available once the exam is over (:class:`ExamNotOver`).
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from uuid import UUID

from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.db.models import Case, F, Q, Value, When
from django.utils import timezone

from skatschule.content.ids import RULE_ID_RE as RULE_ID
from skatschule.core.errors import UserError
from skatschule.core.notfound import NotFound
from skatschule.engine.numbers import is_plain_number
from skatschule.engine.rulings import Irregularity
from skatschule.exercises import REGISTRY
from skatschule.exercises.base import AnswerError, ExerciseType, Feedback, Question
from skatschule.owners import Owner

from . import cases as casebook
from .exercise_types.fall import Fall, seed_for_case
from .exercise_types.fall_variante import FallVariante, eligible
from .models import Exam, ExamQuestion, SolvedCase

__all__ = [
    "BadFilter",
    "ExamClosed",
    "ExamNotOver",
    "DEFAULT_SIZE",
    "MIN_SIZE",
    "MAX_SIZE",
    "SECONDS_PER_QUESTION",
    "GRACE_SECONDS",
    "filter_cases",
    "CaseResult",
    "answer_case",
    "case_question",
    "record_case_answer",
    "parse_size",
    "start_exam",
    "get_exam",
    "is_over",
    "seconds_left",
    "current_question",
    "question_of",
    "answer_question",
    "finish_exam",
]

DEFAULT_SIZE = 20
MIN_SIZE = 5
MAX_SIZE = 20
SECONDS_PER_QUESTION = 90
GRACE_SECONDS = 5
CASE_SHARE = 0.7
"""Up to this share of an exam are casebook cases, each asked as a fresh variant (``fall_variante``)."""
VARIANT_LEVEL = 2
SEED_LIMIT = 2**31
_VARIANT = FallVariante()


def exam_type(*, kind: str) -> ExerciseType:
    """The exercise type of an exam question (the training types and ``fall_variante``)."""
    if kind == _VARIANT.slug:
        return _VARIANT
    return REGISTRY[kind]


class BadFilter(UserError):
    """A filter value or exam size the casebook does not have (400)."""


class ExamClosed(BadFilter):
    """The exam is over (time up or handed in): the answer is not recorded (403)."""

    status = 403


class ExamNotOver(BadFilter):
    """The review is shown only after the exam (403)."""

    status = 403


# --------------------------------------------------------------------------- the casebook


def filter_cases(*, category: str | None, rule_id: str | None) -> tuple[casebook.Case, ...]:
    """The cases of ``category`` (a slug) that cite ``rule_id``; empty values do not filter."""
    category = (category or "").strip()
    rule_id = (rule_id or "").strip()
    found = casebook.load_cases()
    if category:
        if category not in {c.slug for c in casebook.CATEGORIES}:
            raise BadFilter(
                f"Die Kategorie „{category[:40]}“ gibt es nicht.", f"There is no category “{category[:40]}”."
            )
        found = tuple(c for c in found if c.category == category)
    if rule_id:
        if not RULE_ID.match(rule_id):
            raise BadFilter(
                f"„{rule_id[:40]}“ ist keine Regelnummer (Beispiel: 3.2.3).",
                f"“{rule_id[:40]}” is not a rule number (example: 3.2.3).",
            )
        found = tuple(c for c in found if rule_id in c.rule_ids)
    return found


# --------------------------------------------------------------------------- answering a case


@dataclass(frozen=True)
class CaseResult:
    """A graded answer on a case page: the exercise ``fall``'s feedback and, for a signed-in
    reader, the stored record (None for anonymous readers)."""

    feedback: Feedback
    record: SolvedCase | None


def case_question(*, case: casebook.Case) -> Question:
    """The case as a question of the exercise ``fall``: level 1 asks for the decision, level 2
    (a case that asks for the score) for the decision and the list entry."""
    level = 2 if case.score_asked else 1
    seed = seed_for_case(level, case.id)
    if seed is None:  # every case is in its level's pool; level 3 holds them all
        level, seed = 3, seed_for_case(3, case.id)
    assert seed is not None
    return REGISTRY["fall"].generate(level, seed)


def answer_case(*, case: casebook.Case, answer: Sequence[str], user: User | AnonymousUser | None = None) -> CaseResult:
    """Grade an answer to ``case`` with the engine (via the exercise ``fall``); an unreadable
    answer raises :class:`AnswerError` before anything is stored. A signed-in ``user`` gets the
    answer recorded (:func:`record_case_answer`)."""
    question = case_question(case=case)
    feedback = REGISTRY["fall"].grade(question, answer)
    record = None
    if isinstance(user, User):
        record = record_case_answer(user=user, case_id=case.id, correct=feedback.correct)
    return CaseResult(feedback, record)


def record_case_answer(*, user: User, case_id: str, correct: bool) -> SolvedCase:
    """Count one graded answer of ``user`` to ``case_id``. The *first* answer decides
    ``solved``: trying every option until one is right solves nothing (later answers count in
    ``attempts`` and ``last_correct`` only).

    Safe under concurrent answers: the row is created once (unique per user and case) and
    updated with one UPDATE of database-side expressions, which read the row as it was (so of
    two answers at once, exactly one is the first)."""
    now = timezone.now()
    row, _ = SolvedCase.objects.get_or_create(user=user, case_id=case_id)
    first = Q(attempts=0)
    changes: dict[str, object] = {"attempts": F("attempts") + 1, "last_correct": correct, "updated_at": now}
    if correct:
        changes["solved"] = Case(When(first, then=Value(True)), default=F("solved"))
        changes["first_solved_at"] = Case(When(first, then=Value(now)), default=F("first_solved_at"))
    SolvedCase.objects.filter(pk=row.pk).update(**changes)
    row.refresh_from_db()
    return row


# --------------------------------------------------------------------------- the exam


def parse_size(*, value: object) -> int:
    """The number of questions from ``?fragen=`` or the form (default 20, 5 .. 20)."""
    if value is None or str(value).strip() == "":
        return DEFAULT_SIZE
    text = str(value).strip()
    if not is_number(text=text) or not MIN_SIZE <= int(text) <= MAX_SIZE:
        raise _bad_size()
    return int(text)


def is_number(*, text: str) -> bool:
    """Plain ASCII digits, short enough for any integer column. ``str.isdigit`` alone also
    accepts "²" (which ``int`` refuses: a 500) and "٨٠" (which it reads as 80): the one
    reading of :mod:`skatschule.engine.numbers`."""
    return is_plain_number(text)


def _bad_size() -> BadFilter:
    return BadFilter(
        f"Eine Prüfung hat {MIN_SIZE} bis {MAX_SIZE} Fragen.", f"An exam has {MIN_SIZE} to {MAX_SIZE} questions."
    )


def _draw(size: int, rng: random.Random) -> list[tuple[str, int, int]]:
    # Never a case as published (``fall``): its wording is on a public page, where one answer
    # shows the ruling. Cases come only as fresh variants; the rest are generated irregularities.
    questions: list[tuple[str, int, int]] = []
    variable = eligible()
    free = list(range(len(variable)))
    n_variants = min(len(free), round(size * CASE_SHARE))
    for index in rng.sample(free, n_variants):
        # seed % len(variable) picks the case; the rest of the seed draws its new numbers
        laps = (SEED_LIMIT - 1 - index) // len(variable)
        questions.append((_VARIANT.slug, VARIANT_LEVEL, index + len(variable) * rng.randrange(laps)))
    levels = REGISTRY["regelverstoss"].levels
    for i in range(size - len(questions)):
        questions.append(("regelverstoss", 1 + i % levels, rng.randrange(SEED_LIMIT)))
    rng.shuffle(questions)
    return questions


def start_exam(*, owner: Owner, size: int = DEFAULT_SIZE, now: datetime | None = None) -> Exam:
    """A new exam of ``size`` questions for ``owner``, timed from ``now``."""
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise _bad_size()
    rng = random.Random(secrets.randbits(64))
    with transaction.atomic():
        exam = Exam.objects.create(
            **owner.fields(), size=size, time_limit_s=size * SECONDS_PER_QUESTION, started_at=now or timezone.now()
        )
        ExamQuestion.objects.bulk_create(
            ExamQuestion(exam=exam, position=i, kind=kind, difficulty=level, seed=seed)
            for i, (kind, level, seed) in enumerate(_draw(size, rng), start=1)
        )
    return exam


def get_exam(*, public_id: UUID | str, owner: Owner) -> Exam:
    """The owner's exam with this uuid; ``NotFound`` for anyone else's."""
    exam = Exam.objects.owned_by(owner).filter(public_id=public_id).first()
    if exam is None:
        raise NotFound("no such exam")
    return exam


def seconds_left(exam: Exam, *, now: datetime | None = None) -> int:
    now = now or timezone.now()
    return max(0, int((exam.deadline - now).total_seconds()))


def _late(exam: Exam, now: datetime) -> bool:
    return now > exam.deadline + timedelta(seconds=GRACE_SECONDS)


def is_over(exam: Exam, *, now: datetime | None = None) -> bool:
    """Handed in, out of time, or every question answered."""
    now = now or timezone.now()
    if exam.finished_at is not None or _late(exam, now):
        return True
    return not exam.questions.filter(answered_at__isnull=True).exists()


def finish_exam(*, exam: Exam, now: datetime | None = None) -> Exam:
    """Close the exam (idempotent); the finishing time is never after the deadline."""
    now = now or timezone.now()
    if exam.finished_at is None:
        when = min(now, exam.deadline)
        Exam.objects.filter(pk=exam.pk, finished_at__isnull=True).update(finished_at=when)
        exam.refresh_from_db(fields=["finished_at"])
    return exam


def current_question(exam: Exam) -> ExamQuestion | None:
    """The first question not answered yet."""
    return exam.questions.filter(answered_at__isnull=True).order_by("position").first()


def question_of(item: ExamQuestion) -> Question:
    return exam_type(kind=item.kind).generate(item.difficulty, item.seed)


def case_of(item: ExamQuestion) -> casebook.Case | None:
    """The casebook case behind a ``fall`` question (None for generated questions)."""
    if item.kind != "fall":
        return None
    kind = REGISTRY["fall"]
    assert isinstance(kind, Fall)  # registered by the casebook app (CasebookConfig.ready)
    return kind.scenario(item.difficulty, item.seed)


def variant_of(item: ExamQuestion) -> casebook.Case | None:
    """The case a ``fall_variante`` question varies (internal: no page names it, see :func:`variant_kind`)."""
    if item.kind != _VARIANT.slug:
        return None
    return _VARIANT.case_for(item.seed)


def variant_kind(item: ExamQuestion) -> Irregularity | None:
    """The irregularity a ``fall_variante`` question turns on: what the review, the result sheet
    and the trainer's statistics name, with its rule. Never the public case: its page has the
    ruling, and a name would tie the exam's numbers to it."""
    case = variant_of(item)
    if case is None or case.engine_input is None:
        return None
    return Irregularity(case.engine_input["event"]["type"])


@dataclass(frozen=True)
class Answered:
    item: ExamQuestion
    feedback: Feedback
    created: bool


def answer_question(*, exam: Exam, position: object, values: Sequence[str], now: datetime | None = None) -> Answered:
    """Grade and record the answer to question ``position`` (see the module docstring)."""
    now = now or timezone.now()
    try:
        number = int(str(position))
    except ValueError:
        raise NotFound("no such question") from None
    item = exam.questions.filter(position=number).first()
    if item is None:
        raise NotFound("no such question")
    if item.answered_at is not None:
        return Answered(item, _grade(item, item.answer or []), created=False)
    if exam.finished_at is not None or _late(exam, now):
        finish_exam(exam=exam, now=now)
        raise ExamClosed(
            "Die Zeit ist abgelaufen: Diese Antwort kam nach dem Ende der Prüfung und zählt nicht.",
            "Time is up: this answer arrived after the end of the exam and does not count.",
        )
    raw = [str(v)[:64] for v in values][:4]
    feedback = _grade(item, raw)  # AnswerError: nothing is recorded
    with transaction.atomic():  # the answer and, with the last one, the end of the exam
        updated = ExamQuestion.objects.filter(pk=item.pk, answered_at__isnull=True).update(
            answer=raw, correct=feedback.correct, answered_at=now
        )
        if updated and not exam.questions.filter(answered_at__isnull=True).exists():
            finish_exam(exam=exam, now=now)
    item.refresh_from_db()
    if not updated:  # a concurrent submission won: report the recorded answer
        return Answered(item, _grade(item, item.answer or []), created=False)
    return Answered(item, feedback, created=True)


def _grade(item: ExamQuestion, values: Sequence[str]) -> Feedback:
    question = question_of(item)
    return exam_type(kind=item.kind).grade(question, [str(v) for v in values])


class ReviewLocked(ExamNotOver):
    """A group exam's right answers are shown only once the trainer releases them, or once every
    member of the class has finished (403); until then a sitting shows only its score."""


__all__ += [
    "ReviewLocked",
    "Answered",
    "case_of",
    "variant_of",
    "variant_kind",
    "exam_type",
    "AnswerError",
]

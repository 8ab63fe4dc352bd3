"""The quizzes app's logic. Views only translate HTTP to these calls.

Building: :func:`build_pool` turns the teacher's choice (exercise types, lessons, rule ids,
difficulty) into ``(kind, level)`` pairs; :func:`create_quiz` draws the items from it.

Taking (the functions other tests may call directly):

- ``start_attempt(quiz, student, now=None) -> QuizAttempt``: the open attempt, or a new one.
- ``save_answer(attempt, item, values, now=None) -> SavedAnswer``: grade ``values`` (the raw
  ``answer`` form values) with the engine and store them, one row per (attempt, item).
  Raises ``AnswerError`` (400, nothing stored) for an unreadable answer, ``QuizClosed`` (409)
  when the attempt is submitted, past its timer or the quiz is closed, ``Http404`` for an item
  of another quiz.
- ``submit(attempt, now=None) -> tuple[QuizAttempt, bool]``: submit once; the bool is False when
  it had been submitted before (a double click, a concurrent request). The attempt row is
  locked by a conditional ``UPDATE ... WHERE submitted_at IS NULL`` first, so concurrent
  submits and saves serialise on it (row lock on PostgreSQL, write lock on SQLite).

The server's clock decides: an attempt's cut-off is the earlier of its deadline (start + time
limit) and the quiz's close time. Attempts left open past it are submitted with the answers
saved before it (:func:`finalize_expired`).

No answer key is ever stored: :func:`answer_key` asks each exercise type's
``correct_answer`` and ``grade`` for it.
"""

from __future__ import annotations

import hashlib
import re
import random
import secrets
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import Count, Q, QuerySet
from django.http import Http404
from django.utils import timezone

from skatschule.classrooms.models import Classroom
from skatschule.classrooms.services import is_teacher
from skatschule.home.errors import UserError
from skatschule.training.exercises.base import AnswerError, Feedback, Question
from skatschule.training.lessons import RULE_ID, get_lesson, get_lessons
from skatschule.training.registry import exercise_types, exercises_for_rule, get_type
from skatschule.training.services.issuing import grade_answer

from .models import MAX_ATTEMPTS, MAX_ITEMS, MAX_MINUTES, Quiz, QuizAnswer, QuizAttempt, QuizItem

__all__ = [
    "QuizError",
    "QuizClosed",
    "SavedAnswer",
    "build_pool",
    "create_quiz",
    "derive_seed",
    "question_for",
    "quiz_state",
    "start_attempt",
    "cutoff",
    "is_open",
    "save_answer",
    "submit",
    "finalize_expired",
    "answers_visible",
    "own_quiz",
    "student_quiz",
    "own_attempt",
    "quizzes_for_student",
    "attempts_left",
    "student_results",
    "item_stats",
    "csv_rows",
    "answer_key",
    "grade_for_display",
    "AnswerError",
]

SEED_LIMIT = 2**31


class QuizError(UserError):
    """A choice or request the quiz rules do not allow (400), with German and English text."""


class QuizClosed(QuizError):
    """Too late: the attempt is submitted, its time is up or the quiz is closed (409)."""

    status = 409


# --- building ---------------------------------------------------------------------------------


def _levels(kind: str) -> int:
    found = get_type(kind)
    return int(getattr(found, "levels", 1) or 1) if found else 0


def build_pool(
    kinds: Iterable[str] = (), lessons: Iterable[str] = (), rules: Iterable[str] = (), difficulty: int = 1
) -> list[tuple[str, int]]:
    """The ``(kind, level)`` pairs the items are drawn from, without repeats, in a stable order.

    Exercise types and the types that practise a rule id come at ``difficulty`` (capped at the
    type's highest level); a lesson brings its own steps at that level (all its steps if it has
    none there). Unknown names raise :class:`QuizError`.
    """
    pool: dict[tuple[str, int], None] = {}

    def add(kind: str, level: int) -> None:
        top = _levels(kind)
        if top:
            pool.setdefault((kind, max(1, min(level, top))), None)

    for kind in kinds:
        if get_type(kind) is None:
            raise QuizError(f"Die Übung „{kind[:40]}“ gibt es nicht.", f"There is no exercise “{kind[:40]}”.")
        add(kind, difficulty)
    for slug in lessons:
        lesson = get_lesson(slug)
        if lesson is None:
            raise QuizError(f"Die Lektion „{slug[:40]}“ gibt es nicht.", f"There is no lesson “{slug[:40]}”.")
        steps = [s for s in lesson.steps if s.level == difficulty] or list(lesson.steps)
        for step in steps:
            add(step.kind, step.level)
    for rule in rules:
        if not RULE_ID.match(rule):
            raise QuizError(f"„{rule[:20]}“ ist keine Regelnummer.", f"“{rule[:20]}” is not a rule number.")
        practice = exercises_for_rule(rule)
        if not practice:
            raise QuizError(
                f"Zur Regel {rule} gibt es noch keine Übung.", f"There is no exercise for rule {rule} yet."
            )
        for entry in practice:
            if entry.kind == "exercise":
                add(entry.slug, difficulty)
            else:
                lesson = get_lesson(entry.slug)
                for step in lesson.steps if lesson else ():
                    if step.level == difficulty:
                        add(step.kind, step.level)
    return list(pool)


def lesson_choices(lang: str) -> list[tuple[str, str]]:
    return [(lesson.slug, lesson.title(lang)) for lesson in get_lessons()]


def kind_choices(lang: str) -> list[tuple[str, str]]:
    return [(slug, kind.title(lang)) for slug, kind in exercise_types().items()]


def max_level() -> int:
    return max((int(getattr(k, "levels", 1) or 1) for k in exercise_types().values()), default=1)


def create_quiz(
    owner: AbstractBaseUser,
    classroom: Classroom,
    title: str,
    pool: Sequence[tuple[str, int]],
    item_count: int,
    *,
    difficulty: int = 1,
    variants: str = Quiz.Variants.FIXED,
    opens_at: datetime | None = None,
    closes_at: datetime | None = None,
    time_limit_minutes: int | None = None,
    max_attempts: int = 1,
    show_answers: str = Quiz.ShowAnswers.AFTER_SUBMIT,
    sources: dict[str, Any] | None = None,
) -> Quiz:
    """Create the quiz and its items: the pool shuffled and repeated until there are enough."""
    if not is_teacher(owner) or classroom.teacher_id != owner.pk:
        raise Http404("not your class")
    if not pool:
        raise QuizError("Bitte wähle mindestens eine Übung.", "Please choose at least one exercise.")
    if not 1 <= item_count <= MAX_ITEMS:
        raise QuizError(
            f"Ein Quiz hat 1 bis {MAX_ITEMS} Aufgaben.", f"A quiz has 1 to {MAX_ITEMS} items."
        )
    title = " ".join(str(title).split())[:120]
    if not title:
        raise QuizError("Bitte gib dem Quiz einen Titel.", "Please give the quiz a title.")
    secret = secrets.token_hex(16)
    rng = random.Random(secret)
    chosen: list[tuple[str, int]] = []
    while len(chosen) < item_count:
        batch = list(pool)
        rng.shuffle(batch)
        chosen.extend(batch)
    with transaction.atomic():
        quiz = Quiz.objects.create(
            owner=owner,
            classroom=classroom,
            title=title,
            sources=sources or {},
            difficulty=difficulty,
            variants=variants,
            secret=secret,
            opens_at=opens_at,
            closes_at=closes_at,
            time_limit_minutes=time_limit_minutes,
            max_attempts=max(1, min(MAX_ATTEMPTS, max_attempts)),
            show_answers=show_answers,
        )
        QuizItem.objects.bulk_create(
            QuizItem(quiz=quiz, position=n, kind=kind, difficulty=level, seed=rng.randrange(SEED_LIMIT))
            for n, (kind, level) in enumerate(chosen[:item_count], start=1)
        )
    return quiz


# --- variants ---------------------------------------------------------------------------------


def derive_seed(quiz: Quiz, item: QuizItem, student_id: int | None) -> int:
    """The item's seed for this student: fixed quizzes share ``item.seed``; random ones hash."""
    if quiz.variants != Quiz.Variants.RANDOM or student_id is None:
        return item.seed
    digest = hashlib.sha256(f"{quiz.secret}:{student_id}:{item.position}".encode()).digest()
    return int.from_bytes(digest[:4], "big") % SEED_LIMIT


def question_for(quiz: Quiz, item: QuizItem, student_id: int | None) -> Question:
    kind = get_type(item.kind)
    if kind is None:
        raise Http404("this exercise type no longer exists")
    return kind.generate(item.difficulty, derive_seed(quiz, item, student_id))


def grade_for_display(quiz: Quiz, item: QuizItem, student_id: int | None, values: Sequence[str]) -> Feedback:
    return grade_answer(question_for(quiz, item, student_id), values)


# --- permissions ------------------------------------------------------------------------------


def _int(pk: object) -> int:
    text = str(pk)
    if not text.isdigit() or len(text) > 18:
        raise Http404("no such id")
    return int(text)


def own_quiz(user: AbstractBaseUser, pk: object) -> Quiz:
    """The teacher's own quiz; ``Http404`` for everyone else."""
    if not is_teacher(user):
        raise Http404("not a teacher")
    found = Quiz.objects.filter(pk=_int(pk), owner=user).select_related("classroom").first()
    if found is None:
        raise Http404("no such quiz")
    return found


def quizzes_for_student(user: AbstractBaseUser) -> QuerySet[Quiz]:
    if not user.is_authenticated:
        return Quiz.objects.none()
    return Quiz.objects.filter(classroom__memberships__student=user).select_related("classroom").distinct()


def student_quiz(user: AbstractBaseUser, pk: object) -> Quiz:
    """A quiz of one of the student's classes; ``Http404`` for anyone else's."""
    found = quizzes_for_student(user).filter(pk=_int(pk)).first()
    if found is None:
        raise Http404("no such quiz")
    return found


def own_attempt(user: AbstractBaseUser, public_id: object) -> QuizAttempt:
    """The student's own attempt by its uuid; ``Http404`` for anyone else's."""
    found = (
        QuizAttempt.objects.filter(public_id=public_id, student=user).select_related("quiz", "quiz__classroom").first()
        if user.is_authenticated
        else None
    )
    if found is None:
        raise Http404("no such attempt")
    return found


def quiz_attempt(quiz: Quiz, pk: object) -> QuizAttempt:
    found = quiz.attempts.filter(pk=_int(pk)).select_related("student").first()
    if found is None:
        raise Http404("no such attempt")
    return found


def item_at(quiz: Quiz, position: object) -> QuizItem:
    found = quiz.items.filter(position=_int(position)).first() if str(position).isdigit() else None
    if found is None:
        raise Http404("no such item")
    return found


# --- timing -----------------------------------------------------------------------------------


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


def attempts_left(quiz: Quiz, student: AbstractBaseUser) -> int:
    used = quiz.attempts.filter(student=student).count()
    return max(0, quiz.max_attempts - used)


def start_attempt(quiz: Quiz, student: AbstractBaseUser, now: datetime | None = None) -> QuizAttempt:
    """The student's open attempt, or a new one if the quiz is open and attempts are left."""
    now = now or timezone.now()
    finalize_expired(quiz.attempts.filter(student=student), now)
    # One query, one snapshot: either a concurrent start's attempt is in it (and is returned)
    # or it is not (and creating the same number again hits the unique constraint).
    mine = list(quiz.attempts.filter(student=student))
    current = next((a for a in mine if a.submitted_at is None), None)
    if current is not None:
        return current
    state = quiz_state(quiz, now)
    if state == "upcoming":
        raise QuizError("Dieses Quiz hat noch nicht begonnen.", "This quiz has not started yet.")
    if state == "closed":
        raise QuizClosed("Dieses Quiz ist beendet.", "This quiz has ended.")
    used = max((a.number for a in mine), default=0)
    if used >= quiz.max_attempts:
        raise QuizClosed(
            "Du hast alle erlaubten Versuche schon gemacht.", "You have used all the attempts allowed."
        )
    deadline = now + timedelta(minutes=quiz.time_limit_minutes) if quiz.time_limit_minutes else None
    if deadline and quiz.closes_at:
        deadline = min(deadline, quiz.closes_at)
    try:
        with transaction.atomic():
            return QuizAttempt.objects.create(
                quiz=quiz, student=student, number=used + 1, started_at=now, updated_at=now, deadline=deadline
            )
    except IntegrityError:  # a concurrent start (double click) created it: use that one
        found = quiz.attempts.filter(student=student, number=used + 1).first()
        if found is None:
            raise
        return found


def _closed_message(attempt: QuizAttempt, now: datetime) -> QuizClosed:
    if attempt.submitted_at is not None:
        return QuizClosed(
            "Dieser Versuch ist schon abgegeben; Antworten lassen sich nicht mehr ändern.",
            "This attempt has been submitted; answers can no longer be changed.",
        )
    if attempt.quiz.closes_at and now >= attempt.quiz.closes_at:
        return QuizClosed(
            "Das Quiz ist beendet; diese Antwort kam zu spät und wurde nicht gespeichert.",
            "The quiz has ended; this answer came too late and was not saved.",
        )
    return QuizClosed(
        "Die Zeit ist abgelaufen; diese Antwort wurde nicht mehr gespeichert.",
        "Time is up; this answer was not saved.",
    )


# --- answering --------------------------------------------------------------------------------


@dataclass
class SavedAnswer:
    answer: QuizAnswer
    feedback: Feedback
    created: bool
    changed: bool = True
    """False when the policy shows answers right away and the item had been answered already."""


def _claim(attempt: QuizAttempt, now: datetime) -> bool:
    """Lock the open attempt's row (first statement of the transaction is a write)."""
    limit = cutoff(attempt)
    if limit is not None and now >= limit:
        return False
    return QuizAttempt.objects.filter(pk=attempt.pk, submitted_at__isnull=True).update(updated_at=now) == 1


def save_answer(
    attempt: QuizAttempt, item: QuizItem, values: Sequence[str], now: datetime | None = None
) -> SavedAnswer:
    """Grade and store the answer to ``item`` in ``attempt`` (see the module docstring)."""
    now = now or timezone.now()
    quiz = attempt.quiz
    if item.quiz_id != quiz.pk:
        raise Http404("no such item")
    raw = [str(v) for v in values]
    feedback = grade_answer(question_for(quiz, item, attempt.student_id), raw)  # AnswerError: nothing stored
    with transaction.atomic():
        if not _claim(attempt, now):
            attempt.refresh_from_db()
            raise _closed_message(attempt, now)
        existing = QuizAnswer.objects.filter(attempt=attempt, item=item).first()
        if existing is not None and quiz.show_answers == Quiz.ShowAnswers.IMMEDIATELY:
            # The right answer has been shown: the first answer counts.
            shown = grade_answer(question_for(quiz, item, attempt.student_id), existing.values)
            return SavedAnswer(existing, shown, created=False, changed=False)
        fields = {
            "values": raw,
            "normalized": (feedback.normalized or feedback.given_de or "")[:500],
            "correct": bool(feedback.correct),
            "answered_at": now,
        }
        if existing is None:
            answer = QuizAnswer.objects.create(attempt=attempt, item=item, **fields)
            return SavedAnswer(answer, feedback, created=True)
        QuizAnswer.objects.filter(pk=existing.pk).update(**fields)
        existing.refresh_from_db()
        return SavedAnswer(existing, feedback, created=False)


def submit(attempt: QuizAttempt, now: datetime | None = None) -> tuple[QuizAttempt, bool]:
    """Submit the attempt exactly once. Returns (attempt, True) for the one call that did it."""
    now = now or timezone.now()
    with transaction.atomic():
        locked = QuizAttempt.objects.filter(pk=attempt.pk, submitted_at__isnull=True).update(updated_at=now)
        if locked:
            limit = cutoff(attempt)
            when = min(now, limit) if limit else now
            score = QuizAnswer.objects.filter(attempt_id=attempt.pk, correct=True).count()
            done = QuizAttempt.objects.filter(pk=attempt.pk, submitted_at__isnull=True).update(
                submitted_at=when, score=score
            )
        else:
            done = 0
    attempt.refresh_from_db()
    return attempt, bool(done)


def finalize_expired(attempts: QuerySet[QuizAttempt], now: datetime | None = None) -> int:
    """Submit the open attempts whose time is over (with the answers saved before). Returns how many."""
    now = now or timezone.now()
    count = 0
    for attempt in attempts.filter(submitted_at__isnull=True).select_related("quiz"):
        if not is_open(attempt, now):
            count += submit(attempt, now)[1]
    return count


def answers_visible(attempt: QuizAttempt, now: datetime | None = None) -> bool:
    """May the student see the right answers of this attempt now?"""
    now = now or timezone.now()
    policy = attempt.quiz.show_answers
    if policy == Quiz.ShowAnswers.IMMEDIATELY:
        return True
    if policy == Quiz.ShowAnswers.AFTER_SUBMIT:
        return attempt.submitted_at is not None
    return attempt.submitted_at is not None and quiz_state(attempt.quiz, now) == "closed"


# --- results ----------------------------------------------------------------------------------


@dataclass
class ResultRow:
    attempt: QuizAttempt
    answers: dict[int, QuizAnswer]
    total: int

    @property
    def seconds(self) -> int | None:
        if self.attempt.submitted_at is None:
            return None
        return max(0, int((self.attempt.submitted_at - self.attempt.started_at).total_seconds()))

    @property
    def duration(self) -> str:
        seconds = self.seconds
        if seconds is None:
            return "–"
        return f"{seconds // 60}:{seconds % 60:02d}"

    @property
    def percent(self) -> int:
        return round(100 * (self.attempt.score or 0) / self.total) if self.total else 0


def student_results(quiz: Quiz, now: datetime | None = None) -> list[ResultRow]:
    """One row per attempt (submitted or not), by student name and attempt number."""
    finalize_expired(quiz.attempts.all(), now)
    total = quiz.items.count()
    attempts = list(quiz.attempts.select_related("student").order_by("student__username", "number"))
    by_attempt: dict[int, dict[int, QuizAnswer]] = {a.pk: {} for a in attempts}
    for answer in QuizAnswer.objects.filter(attempt__quiz=quiz).select_related("item"):
        by_attempt.setdefault(answer.attempt_id, {})[answer.item.position] = answer
    return [ResultRow(a, by_attempt[a.pk], total) for a in attempts]


@dataclass
class ItemStat:
    item: QuizItem
    title: str
    answered: int = 0
    correct: int = 0
    wrong: list[tuple[str, int]] = field(default_factory=list)

    @property
    def percent(self) -> int | None:
        return round(100 * self.correct / self.answered) if self.answered else None


def item_stats(quiz: Quiz, lang: str = "de", top: int = 3) -> list[ItemStat]:
    """Per item, over submitted attempts: how many answered, % correct, most common wrong answers."""
    stats = {item.pk: ItemStat(item, _kind_title(item.kind, lang)) for item in quiz.items.all()}
    wrong: dict[int, Counter[str]] = {pk: Counter() for pk in stats}
    answers = QuizAnswer.objects.filter(attempt__quiz=quiz, attempt__submitted_at__isnull=False)
    for item_id, normalized, correct in answers.values_list("item_id", "normalized", "correct"):
        stat = stats[item_id]
        stat.answered += 1
        if correct:
            stat.correct += 1
        else:
            wrong[item_id][normalized or "–"] += 1
    for pk, stat in stats.items():
        stat.wrong = wrong[pk].most_common(top)
    return list(stats.values())


def _kind_title(kind: str, lang: str) -> str:
    found = get_type(kind)
    return found.title(lang) if found else kind


def csv_rows(quiz: Quiz, lang: str = "de") -> list[list[str]]:
    """The results as a table: a header row, then one row per attempt."""
    rows = student_results(quiz)
    items = list(quiz.items.all())
    if lang == "en":
        header = ["Username", "Attempt", "Started", "Submitted", "Seconds", "Score", "Items"]
        per_item = ("Item {n} answer", "Item {n} correct")
        yes, no = "yes", "no"
    else:
        header = ["Benutzername", "Versuch", "Beginn", "Abgabe", "Dauer (Sekunden)", "Punkte", "Aufgaben"]
        per_item = ("Aufgabe {n} Antwort", "Aufgabe {n} richtig")
        yes, no = "ja", "nein"
    for item in items:
        header.extend(label.format(n=item.position) for label in per_item)
    table = [header]
    for row in rows:
        attempt = row.attempt
        line = [
            attempt.student.get_username(),
            str(attempt.number),
            timezone.localtime(attempt.started_at).isoformat(timespec="seconds"),
            timezone.localtime(attempt.submitted_at).isoformat(timespec="seconds") if attempt.submitted_at else "",
            "" if row.seconds is None else str(row.seconds),
            "" if attempt.score is None else str(attempt.score),
            str(row.total),
        ]
        for item in items:
            answer = row.answers.get(item.position)
            line.extend(["", ""] if answer is None else [answer.normalized, yes if answer.correct else no])
        table.append([_csv_safe(cell) for cell in line])
    return table


def _csv_safe(cell: str) -> str:
    """Keep spreadsheet programs from reading a cell as a formula (user names are free text)."""
    if cell and cell[0] in "=+-@\t\r" and not re.fullmatch(r"[+-]?\d+", cell):
        return "'" + cell
    return cell


@dataclass
class KeyEntry:
    item: QuizItem
    title: str
    question: Question
    answer: str


def answer_key(quiz: Quiz, lang: str = "de", student_id: int | None = None) -> list[KeyEntry]:
    """Each item's question and right answer, computed by the exercise type (never stored)."""
    entries = []
    for item in quiz.items.all():
        kind = get_type(item.kind)
        if kind is None:
            continue
        question = question_for(quiz, item, student_id)
        feedback = grade_answer(question, kind.correct_answer(question))
        entries.append(KeyEntry(item, kind.title(lang), question, feedback.answer(lang)))
    return entries


def right_answer(quiz: Quiz, item: QuizItem, student_id: int | None, lang: str = "de") -> str:
    """The right answer to the student's variant of ``item``, for display (engine-computed)."""
    kind = get_type(item.kind)
    if kind is None:
        return ""
    question = question_for(quiz, item, student_id)
    return grade_answer(question, kind.correct_answer(question)).answer(lang)


def close_quiz(quiz: Quiz, now: datetime | None = None) -> Quiz:
    """End the quiz now: open attempts are submitted with what they have."""
    now = now or timezone.now()
    if quiz.closes_at is None or quiz.closes_at > now:
        quiz.closes_at = now
        if quiz.opens_at and quiz.opens_at >= now:
            quiz.opens_at = None
        quiz.save(update_fields=["closes_at", "opens_at"])
    finalize_expired(quiz.attempts.all(), now)
    return quiz


def quiz_summary(quiz: Quiz) -> dict[str, int]:
    counts = quiz.attempts.aggregate(
        started=Count("pk"), submitted=Count("pk", filter=Q(submitted_at__isnull=False))
    )
    return {"started": counts["started"] or 0, "submitted": counts["submitted"] or 0}


__all__ += ["ResultRow", "ItemStat", "KeyEntry", "lesson_choices", "kind_choices", "max_level", "quiz_attempt", "item_at", "quiz_summary", "MAX_MINUTES", "right_answer", "close_quiz"]

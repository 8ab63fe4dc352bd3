"""The quizzes app's logic. Views only translate HTTP to these calls.

Building: :func:`build_pool` turns the teacher's choice (exercise types, lessons, rule ids,
difficulty) into ``(kind, level)`` pairs; :func:`create_quiz` draws the items from it.
Editing: :func:`update_quiz` changes anything before the first attempt; after it, the items,
their order, difficulty, variants and class are locked (``QuizLocked``, 409) and time changes
follow the timing rules below (its docstring has the details).

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
from skatschule.exercises.base import AnswerError, Feedback, Question
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
    _check_items(pool, item_count)
    settings = _checked_settings(
        title=title,
        opens_at=opens_at,
        closes_at=closes_at,
        time_limit_minutes=time_limit_minutes,
        max_attempts=max(1, min(MAX_ATTEMPTS, max_attempts)),
        show_answers=show_answers,
    )
    check_attempt_rule(variants, settings["max_attempts"], settings["show_answers"])
    secret = secrets.token_hex(16)
    with transaction.atomic():
        quiz = Quiz.objects.create(
            owner=owner,
            classroom=classroom,
            sources=sources or {},
            difficulty=difficulty,
            variants=variants,
            secret=secret,
            **settings,
        )
        _draw_items(quiz, pool, item_count)
    return quiz


def _check_items(pool: Sequence[tuple[str, int]], item_count: int) -> None:
    if not pool:
        raise QuizError("Bitte wähle mindestens eine Übung.", "Please choose at least one exercise.")
    if not 1 <= item_count <= MAX_ITEMS:
        raise QuizError(
            f"Ein Quiz hat 1 bis {MAX_ITEMS} Aufgaben.", f"A quiz has 1 to {MAX_ITEMS} items."
        )


def _draw_items(quiz: Quiz, pool: Sequence[tuple[str, int]], item_count: int) -> None:
    """Store ``item_count`` items: the pool shuffled and repeated, seeded by the quiz's secret."""
    rng = random.Random(quiz.secret)
    chosen: list[tuple[str, int]] = []
    while len(chosen) < item_count:
        batch = list(pool)
        rng.shuffle(batch)
        chosen.extend(batch)
    QuizItem.objects.bulk_create(
        QuizItem(quiz=quiz, position=n, kind=kind, difficulty=level, seed=rng.randrange(SEED_LIMIT))
        for n, (kind, level) in enumerate(chosen[:item_count], start=1)
    )


def _checked_settings(
    *,
    title: str,
    opens_at: datetime | None,
    closes_at: datetime | None,
    time_limit_minutes: int | None,
    max_attempts: int,
    show_answers: str,
) -> dict[str, Any]:
    """The quiz's title, times and rules, checked like the database's constraints (a 400, not a 500)."""
    title = " ".join(str(title).split())[:120]
    if not title:
        raise QuizError("Bitte gib dem Quiz einen Titel.", "Please give the quiz a title.")
    if opens_at and closes_at and closes_at <= opens_at:
        raise QuizError("Das Ende muss nach dem Beginn liegen.", "The end must come after the start.")
    if time_limit_minutes is not None and not 1 <= time_limit_minutes <= MAX_MINUTES:
        raise QuizError(
            f"Das Zeitlimit liegt zwischen 1 und {MAX_MINUTES} Minuten.",
            f"The time limit is between 1 and {MAX_MINUTES} minutes.",
        )
    if not 1 <= max_attempts <= MAX_ATTEMPTS:
        raise QuizError(
            f"Erlaubt sind 1 bis {MAX_ATTEMPTS} Versuche.", f"Between 1 and {MAX_ATTEMPTS} attempts are allowed."
        )
    if show_answers not in Quiz.ShowAnswers.values:
        raise QuizError("Diese Einstellung für die Lösungen gibt es nicht.", "There is no such answer setting.")
    if show_answers == Quiz.ShowAnswers.AFTER_CLOSE and closes_at is None:
        raise QuizError(
            "Für „Lösungen nach dem Ende“ braucht das Quiz ein Ende.",
            "To show the answers after the end, the quiz needs an end.",
        )
    return {
        "title": title,
        "opens_at": opens_at,
        "closes_at": closes_at,
        "time_limit_minutes": time_limit_minutes,
        "max_attempts": max_attempts,
        "show_answers": show_answers,
    }


# --- variants ---------------------------------------------------------------------------------


def repeats_shown_answers(variants: str, max_attempts: int, show_answers: str) -> bool:
    """Would a later attempt ask the questions whose right answers an earlier one showed?

    With items "the same for everyone" (``FIXED``) every attempt gets the very same questions.
    If the answers are shown right after each answer or after submitting, a second attempt
    could simply copy them; so that combination is refused (:func:`check_attempt_rule`).
    Random variants draw new questions for every attempt (the attempt number enters the seed,
    :func:`derive_seed`); answers shown only after the quiz's end come when no attempt is left.
    """
    return variants != Quiz.Variants.RANDOM and max_attempts > 1 and show_answers != Quiz.ShowAnswers.AFTER_CLOSE


ATTEMPT_RULE_DE = (
    "Bei Aufgaben „Für alle gleich“ bekommt jeder Versuch dieselben Fragen. Werden die Lösungen sofort "
    "oder nach der Abgabe gezeigt, könnte man sie im nächsten Versuch nur abschreiben. Wähle deshalb "
    "„Zufällige Varianten je Person“ (dann stellt jeder Versuch neue Fragen), „Lösungen nach dem Ende "
    "des Quiz“ oder einen einzigen Versuch."
)
ATTEMPT_RULE_EN = (
    "With items “the same for everyone”, every attempt gets the same questions. If the answers are "
    "shown right away or after submitting, the next attempt could simply copy them. So choose "
    "“random variants for each person” (then every attempt asks new questions), answers “after the "
    "end of the quiz”, or a single attempt."
)


def check_attempt_rule(variants: str, max_attempts: int, show_answers: str) -> None:
    """Refuse (:class:`QuizError`, 400) what :func:`repeats_shown_answers` describes, with the why."""
    if repeats_shown_answers(variants, max_attempts, show_answers):
        raise QuizError(ATTEMPT_RULE_DE, ATTEMPT_RULE_EN)



def derive_seed(quiz: Quiz, item: QuizItem, student_id: int | None, attempt: int = 1) -> int:
    """The item's seed for this student and attempt number.

    Fixed quizzes share ``item.seed`` (every student, every attempt: see
    :func:`repeats_shown_answers` for why a second attempt is refused then). Random ones
    hash the quiz's secret, the student, the position and, from the second attempt on, the
    attempt number: attempt 2 never repeats the questions whose answers attempt 1 showed.
    """
    if quiz.variants != Quiz.Variants.RANDOM or student_id is None:
        return item.seed
    key = f"{quiz.secret}:{student_id}:{item.position}"
    if attempt > 1:
        key += f":attempt:{attempt}"
    digest = hashlib.sha256(key.encode()).digest()
    return int.from_bytes(digest[:4], "big") % SEED_LIMIT


def question_for(quiz: Quiz, item: QuizItem, student_id: int | None, attempt: int = 1) -> Question:
    kind = get_type(item.kind)
    if kind is None:
        raise Http404("this exercise type no longer exists")
    return kind.generate(item.difficulty, derive_seed(quiz, item, student_id, attempt))


def grade_for_display(
    quiz: Quiz, item: QuizItem, student_id: int | None, values: Sequence[str], attempt: int = 1
) -> Feedback:
    return grade_answer(question_for(quiz, item, student_id, attempt), values)


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
    """The student's open attempt, or a new one if the quiz is open and attempts are left.

    The quiz row is locked (``select_for_update``) while the attempt is made, the same lock
    :func:`update_quiz` takes: an edit either commits first (the new attempt gets its items
    and rules) or waits until this attempt exists (and then may no longer change the items).
    """
    now = now or timezone.now()
    finalize_expired(quiz.attempts.filter(student=student), now)
    used = 0
    try:
        with transaction.atomic():
            locked = Quiz.objects.select_for_update().filter(pk=quiz.pk).first()
            if locked is None:
                raise Http404("no such quiz")
            # One query after the lock: either a concurrent start's attempt is in it (and is
            # returned) or it is not (and creating the same number again hits the unique constraint).
            mine = list(locked.attempts.filter(student=student))
            current = next((a for a in mine if a.submitted_at is None), None)
            if current is not None:
                return current
            state = quiz_state(locked, now)
            if state == "upcoming":
                raise QuizError("Dieses Quiz hat noch nicht begonnen.", "This quiz has not started yet.")
            if state == "closed":
                raise QuizClosed("Dieses Quiz ist beendet.", "This quiz has ended.")
            used = max((a.number for a in mine), default=0)
            if used >= locked.max_attempts:
                raise QuizClosed(
                    "Du hast alle erlaubten Versuche schon gemacht.", "You have used all the attempts allowed."
                )
            deadline = _deadline(now, locked.time_limit_minutes, locked.closes_at)
            return QuizAttempt.objects.create(
                quiz=locked, student=student, number=used + 1, started_at=now, updated_at=now, deadline=deadline
            )
    except IntegrityError:  # a concurrent start (double click) created it: use that one
        found = quiz.attempts.filter(student=student, number=used + 1).first()
        if found is None:
            raise
        return found


def _deadline(started_at: datetime, minutes: int | None, closes_at: datetime | None) -> datetime | None:
    """An attempt's own deadline: start plus time limit, capped by the close time (None without a limit)."""
    if not minutes:
        return None
    deadline = started_at + timedelta(minutes=minutes)
    return min(deadline, closes_at) if closes_at else deadline


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
    feedback = grade_answer(question_for(quiz, item, attempt.student_id, attempt.number), raw)  # AnswerError: nothing stored
    with transaction.atomic():
        if not _claim(attempt, now):
            attempt.refresh_from_db()
            raise _closed_message(attempt, now)
        existing = QuizAnswer.objects.filter(attempt=attempt, item=item).first()
        if existing is not None and quiz.show_answers == Quiz.ShowAnswers.IMMEDIATELY:
            # The right answer has been shown: the first answer counts.
            shown = grade_answer(question_for(quiz, item, attempt.student_id, attempt.number), existing.values)
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


def right_answer(quiz: Quiz, item: QuizItem, student_id: int | None, lang: str = "de", attempt: int = 1) -> str:
    """The right answer to the student's variant of ``item``, for display (engine-computed)."""
    kind = get_type(item.kind)
    if kind is None:
        return ""
    question = question_for(quiz, item, student_id, attempt)
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


# --- editing ----------------------------------------------------------------------------------


class QuizLocked(QuizError):
    """The change would touch what students of a started quiz already saw or rely on (409)."""

    status = 409


class _Keep:
    def __repr__(self) -> str:
        return "KEEP"


KEEP: Any = _Keep()
"""Default of :func:`update_quiz`'s arguments: leave this setting as it is."""

# What is fixed once the first attempt exists, with its name for messages (German, English).
LOCKED_ONCE_STARTED = {
    "classroom": ("Klasse", "class"),
    "sources": ("Auswahl der Aufgaben", "choice of items"),
    "item_count": ("Anzahl der Aufgaben", "number of items"),
    "difficulty": ("Schwierigkeit", "difficulty"),
    "variants": ("Varianten", "variants"),
    "redraw": ("neue Aufgaben ziehen", "drawing new items"),
}


def has_attempts(quiz: Quiz) -> bool:
    """Has anyone started the quiz? Then its items, variants, difficulty and class are locked."""
    return quiz.attempts.exists()


def quiz_sources(quiz: Quiz) -> dict[str, list[str]]:
    """What the items were drawn from: exercise types, lessons and rule ids, sorted.

    A quiz made without a record of its choice (by code) counts as chosen from its items' types.
    """
    stored = quiz.sources if isinstance(quiz.sources, dict) else {}
    found = {key: _names(stored.get(key) or []) for key in ("kinds", "lessons", "rules")}
    if not any(found.values()):
        found["kinds"] = _names(item.kind for item in quiz.items.all() if get_type(item.kind) is not None)
    return found


def _names(values: Iterable[Any]) -> list[str]:
    return sorted({str(v) for v in values if str(v)})


def update_quiz(
    quiz: Quiz,
    editor: AbstractBaseUser,
    *,
    title: Any = KEEP,
    classroom: Any = KEEP,
    kinds: Any = KEEP,
    lessons: Any = KEEP,
    rules: Any = KEEP,
    item_count: Any = KEEP,
    difficulty: Any = KEEP,
    variants: Any = KEEP,
    opens_at: Any = KEEP,
    closes_at: Any = KEEP,
    time_limit_minutes: Any = KEEP,
    max_attempts: Any = KEEP,
    show_answers: Any = KEEP,
    redraw: bool = False,
    now: datetime | None = None,
) -> Quiz:
    """Change a quiz; every argument left at ``KEEP`` stays as it is. Returns the saved quiz.

    Only the owner may edit (``Http404`` for anyone else). Everything runs in one transaction
    that first locks the quiz row (``select_for_update``); :func:`start_attempt` takes the same
    lock, so whether attempts exist is decided once and an edit racing a first start cannot
    change items someone is about to answer.

    **Before the first attempt** everything the builder sets may change. New items are drawn
    (with a new secret, so random variants change too) only when the choice of exercises, the
    number of items or the difficulty changes, or when ``redraw`` asks for it; a new title or
    new times keep the items the teacher may already have previewed.

    **Once an attempt exists** the class, the choice of items, their number and order
    (``redraw``), the difficulty and the variants are locked: students have seen or answered
    those questions, results must compare like with like, and another class would take the
    quiz away from the students who took it. Asking to change them raises
    :class:`QuizLocked` (409) and nothing is saved, whatever the form showed. Still allowed:
    title, start, end, time limit, allowed attempts and when answers are shown, under the
    timing rules of this module (an attempt stops at the earlier of its deadline and the
    quiz's close; the server's clock decides):

    - Attempts already over under the old settings are submitted first
      (:func:`finalize_expired`), so an extension never revives an attempt whose time ran out.
    - While attempts are running, the end may move earlier but not into the past (running
      attempts are cut at the new end, never retroactively: answers saved before now stay
      inside their attempt's time; "close now" is :func:`close_quiz`), the start may not move
      into the future, and answers shown right after each answer stay shown until everyone
      has submitted (those students already saw right answers; letting them change answers
      afterwards would be unfair).
    - A running attempt keeps the time it was promised when it started: a longer time limit
      extends it and lifting the limit removes it, but a shorter limit (or a limit on a quiz
      that had none) applies to new attempts only. The end applies to everyone: a later end
      lets running attempts use their whole time, an earlier end cuts them.
    - Fewer allowed attempts stop new starts; attempts made and their results stay.
    """
    now = now or timezone.now()
    if not is_teacher(editor):
        raise Http404("not a teacher")
    with transaction.atomic():
        current = Quiz.objects.select_for_update().filter(pk=quiz.pk, owner_id=editor.pk).first()
        if current is None:
            raise Http404("no such quiz")
        old_sources = quiz_sources(current)
        count = current.items.count()
        new_classroom = current.classroom if classroom is KEEP else classroom
        new_sources = {
            "kinds": old_sources["kinds"] if kinds is KEEP else _names(kinds or []),
            "lessons": old_sources["lessons"] if lessons is KEEP else _names(lessons or []),
            "rules": old_sources["rules"] if rules is KEEP else _names(rules or []),
        }
        new_count = count if item_count is KEEP else item_count
        new_difficulty = current.difficulty if difficulty is KEEP else difficulty
        new_variants = current.variants if variants is KEEP else variants
        changed = [
            name
            for name, differs in (
                ("classroom", getattr(new_classroom, "pk", None) != current.classroom_id),
                ("sources", new_sources != old_sources),
                ("item_count", new_count != count),
                ("difficulty", new_difficulty != current.difficulty),
                ("variants", new_variants != current.variants),
                ("redraw", bool(redraw)),
            )
            if differs
        ]
        # Attempts whose time is over are submitted under the rules they ran under.
        finalize_expired(current.attempts.all(), now)
        started = current.attempts.exists()
        if started and changed:
            raise QuizLocked(
                "Dieses Quiz wurde schon begonnen; nicht mehr ändern lässt sich: "
                + ", ".join(LOCKED_ONCE_STARTED[name][0] for name in changed)
                + ". Nichts wurde gespeichert.",
                "Students have already started this quiz, so this can no longer be changed: "
                + ", ".join(LOCKED_ONCE_STARTED[name][1] for name in changed)
                + ". Nothing was saved.",
            )
        if not isinstance(new_classroom, Classroom) or new_classroom.teacher_id != editor.pk:
            raise Http404("not your class")
        if new_variants not in Quiz.Variants.values:
            raise QuizError("Diese Art von Varianten gibt es nicht.", "There is no such kind of variants.")
        if not isinstance(new_difficulty, int) or not 1 <= new_difficulty <= max_level():
            raise QuizError(
                f"Die Schwierigkeit liegt zwischen 1 und {max_level()}.",
                f"The difficulty is between 1 and {max_level()}.",
            )
        settings = _checked_settings(
            title=current.title if title is KEEP else title,
            opens_at=current.opens_at if opens_at is KEEP else opens_at,
            closes_at=current.closes_at if closes_at is KEEP else closes_at,
            time_limit_minutes=current.time_limit_minutes if time_limit_minutes is KEEP else time_limit_minutes,
            max_attempts=current.max_attempts if max_attempts is KEEP else max_attempts,
            show_answers=current.show_answers if show_answers is KEEP else show_answers,
        )
        check_attempt_rule(new_variants, settings["max_attempts"], settings["show_answers"])
        running = list(current.attempts.filter(submitted_at__isnull=True)) if started else []
        if running:
            _check_running_attempts(current, settings, now)
        new_items = {"sources", "item_count", "difficulty", "redraw"} & set(changed)
        pool: list[tuple[str, int]] = []
        if new_items:
            pool = build_pool(new_sources["kinds"], new_sources["lessons"], new_sources["rules"], new_difficulty)
            _check_items(pool, new_count)
        old_limit, old_close = current.time_limit_minutes, current.closes_at
        for name, value in settings.items():
            setattr(current, name, value)
        current.classroom = new_classroom
        current.difficulty = new_difficulty
        current.variants = new_variants
        if new_items or current.sources != new_sources:
            current.sources = new_sources
        if new_items:
            current.secret = secrets.token_hex(16)
        current.save()
        if new_items:  # no attempt exists (checked under the lock), so no answer points at them
            current.items.all().delete()
            _draw_items(current, pool, new_count)
        if running and (current.time_limit_minutes != old_limit or current.closes_at != old_close):
            for attempt in running:
                QuizAttempt.objects.filter(pk=attempt.pk, submitted_at__isnull=True).update(
                    deadline=_running_deadline(attempt, old_limit, current.time_limit_minutes)
                )
    return current


def _running_deadline(attempt: QuizAttempt, old_limit: int | None, new_limit: int | None) -> datetime | None:
    """A running attempt's own deadline after the time limit or the close time changed.

    Its promised end is its stored deadline, or start plus the old limit if that is later (the
    stored one may be capped by the old close time). A longer limit extends it, a lifted limit
    removes it, a shorter or a new limit leaves it. It is stored without the close time's cap:
    :func:`cutoff` applies the (new) close time anyway, and a later close must not lose time.
    """
    if new_limit is None:
        return None  # the limit is lifted
    if attempt.deadline is None:
        return None  # started without a limit: a new one is for new attempts
    promised = attempt.deadline
    if old_limit is not None:
        promised = max(promised, attempt.started_at + timedelta(minutes=old_limit))
    return max(promised, attempt.started_at + timedelta(minutes=new_limit))


def _check_running_attempts(quiz: Quiz, settings: dict[str, Any], now: datetime) -> None:
    """The changes :func:`update_quiz` refuses while attempts are running (see there)."""
    closes, opens = settings["closes_at"], settings["opens_at"]
    if closes != quiz.closes_at and closes is not None and closes <= now:
        raise QuizLocked(
            "Es laufen noch Versuche, deshalb darf das Ende nicht in der Vergangenheit liegen. "
            "Um das Quiz sofort zu beenden, nutze „Quiz jetzt beenden“.",
            "Attempts are still running, so the end cannot lie in the past. "
            "To end the quiz right away, use “Close the quiz now”.",
        )
    if opens != quiz.opens_at and opens is not None and opens > now:
        raise QuizLocked(
            "Es laufen noch Versuche, deshalb lässt sich der Beginn nicht in die Zukunft verschieben.",
            "Attempts are still running, so the start cannot be moved into the future.",
        )
    if quiz.show_answers == Quiz.ShowAnswers.IMMEDIATELY and settings["show_answers"] != quiz.show_answers:
        raise QuizLocked(
            "In laufenden Versuchen wurden die Lösungen schon sofort gezeigt. „Lösungen zeigen“ bleibt "
            "deshalb bei „Sofort nach jeder Antwort“, bis alle abgegeben haben.",
            "Running attempts have already been shown the answers right away, so “Show answers” stays at "
            "“Right after each answer” until everyone has submitted.",
        )


def quiz_summary(quiz: Quiz) -> dict[str, int]:
    counts = quiz.attempts.aggregate(
        started=Count("pk"), submitted=Count("pk", filter=Q(submitted_at__isnull=False))
    )
    return {"started": counts["started"] or 0, "submitted": counts["submitted"] or 0}


__all__ += ["ResultRow", "ItemStat", "KeyEntry", "lesson_choices", "kind_choices", "max_level", "quiz_attempt", "item_at", "quiz_summary", "MAX_MINUTES", "right_answer", "close_quiz",
            "QuizLocked", "KEEP", "LOCKED_ONCE_STARTED", "has_attempts", "quiz_sources", "update_quiz",
            "repeats_shown_answers", "check_attempt_rule"]

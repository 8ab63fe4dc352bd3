"""Authoring quizzes: build the pool, create, update (:class:`QuizChanges`) and close a quiz."""

from __future__ import annotations

import enum
import random
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from skatschule.classrooms.models import Classroom
from skatschule.classrooms.services import is_teacher
from skatschule.core.notfound import NotFound
from skatschule.core.text import one_line
from skatschule.training.lessons import RULE_ID, get_lesson
from skatschule.training.registry import exercises_for_rule, get_type

from ..errors import QuizError, QuizLocked
from ..levels import max_level, type_levels
from ..models import MAX_ATTEMPTS, MAX_ITEMS, MAX_MINUTES, Quiz, QuizAttempt, QuizItem
from ..questions import SEED_LIMIT
from ..selectors.teaching import quiz_sources, sorted_names
from .attempts import finalize_expired


def build_pool(  # noqa: C901 - over the budget since issue 27; to be split
    *, kinds: Iterable[str] = (), lessons: Iterable[str] = (), rules: Iterable[str] = (), difficulty: int = 1
) -> list[tuple[str, int]]:
    """The ``(kind, level)`` pairs the items are drawn from, without repeats, in a stable order.

    Exercise types and the types that practise a rule id come at ``difficulty`` (capped at the
    type's highest level); a lesson brings its own steps at that level (all its steps if it has
    none there). Unknown names raise :class:`QuizError`.
    """
    pool: dict[tuple[str, int], None] = {}

    def add(kind: str, level: int) -> None:
        top = type_levels(kind)
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
            raise QuizError(f"Zur Regel {rule} gibt es noch keine Übung.", f"There is no exercise for rule {rule} yet.")
        for entry in practice:
            if entry.kind == "exercise":
                add(entry.slug, difficulty)
            else:
                lesson = get_lesson(entry.slug)
                for step in lesson.steps if lesson else ():
                    if step.level == difficulty:
                        add(step.kind, step.level)
    return list(pool)


def create_quiz(  # noqa: PLR0913 - over the budget since issue 27; to be split
    *,
    owner: User,
    classroom: Classroom,
    title: str,
    pool: Sequence[tuple[str, int]],
    item_count: int,
    difficulty: int = 1,
    variants: str = Quiz.Variants.FIXED,
    opens_at: datetime | None = None,
    closes_at: datetime | None = None,
    time_limit_minutes: int | None = None,
    max_attempts: int = 1,
    show_answers: str = Quiz.ShowAnswers.AFTER_SUBMIT,
    partial_credit: str = Quiz.PartialCredit.ALL_OR_NOTHING,
    grading_policy: str = Quiz.GradingPolicy.HIGHEST,
    sources: dict[str, Any] | None = None,
    draft: bool = False,
) -> Quiz:
    """Create the quiz and its items: the pool shuffled and repeated until there are enough.

    ``draft=True`` (the builder's way) keeps it from students until it is published
    (``quizzes.publishing``); otherwise it is published at once."""
    if not is_teacher(user=owner) or classroom.teacher_id != owner.pk:
        raise NotFound("not your class")
    _check_items(pool, item_count)
    settings = checked_settings(
        title=title,
        opens_at=opens_at,
        closes_at=closes_at,
        time_limit_minutes=time_limit_minutes,
        max_attempts=max(1, min(MAX_ATTEMPTS, max_attempts)),
        show_answers=show_answers,
        partial_credit=partial_credit,
        grading_policy=grading_policy,
    )
    check_attempt_rule(variants=variants, max_attempts=settings["max_attempts"], show_answers=settings["show_answers"])
    secret = secrets.token_hex(16)
    with transaction.atomic():
        quiz = Quiz.objects.create(
            owner=owner,
            classroom=classroom,
            sources=sources or {},
            difficulty=difficulty,
            variants=variants,
            secret=secret,
            published_at=None if draft else timezone.now(),
            **settings,
        )
        _draw_items(quiz, pool, item_count)
    return quiz


def _check_items(pool: Sequence[tuple[str, int]], item_count: int) -> None:
    if not pool:
        raise QuizError("Bitte wähle mindestens eine Übung.", "Please choose at least one exercise.")
    if not 1 <= item_count <= MAX_ITEMS:
        raise QuizError(f"Ein Quiz hat 1 bis {MAX_ITEMS} Aufgaben.", f"A quiz has 1 to {MAX_ITEMS} items.")


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


def checked_settings(  # noqa: PLR0913 - over the budget since issue 27; to be split
    *,
    title: str,
    opens_at: datetime | None,
    closes_at: datetime | None,
    time_limit_minutes: int | None,
    max_attempts: int,
    show_answers: str,
    partial_credit: str = Quiz.PartialCredit.ALL_OR_NOTHING,
    grading_policy: str = Quiz.GradingPolicy.HIGHEST,
) -> dict[str, Any]:
    """The quiz's title, times and rules, checked like the database's constraints (a 400, not a 500)."""
    title = one_line(title, 120)
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
    if partial_credit not in Quiz.PartialCredit.values:
        raise QuizError("Diese Regel für Teilpunkte gibt es nicht.", "There is no such partial credit rule.")
    if grading_policy not in Quiz.GradingPolicy.values:
        raise QuizError("Diese Bewertung gibt es nicht.", "There is no such grading policy.")
    return {
        "title": title,
        "partial_credit": partial_credit,
        "grading_policy": grading_policy,
        "opens_at": opens_at,
        "closes_at": closes_at,
        "time_limit_minutes": time_limit_minutes,
        "max_attempts": max_attempts,
        "show_answers": show_answers,
    }


def repeats_shown_answers(*, variants: str, max_attempts: int, show_answers: str) -> bool:
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


def check_attempt_rule(*, variants: str, max_attempts: int, show_answers: str) -> None:
    """Refuse (:class:`QuizError`, 400) what :func:`repeats_shown_answers` describes, with the why."""
    if repeats_shown_answers(variants=variants, max_attempts=max_attempts, show_answers=show_answers):
        raise QuizError(ATTEMPT_RULE_DE, ATTEMPT_RULE_EN)


@transaction.atomic
def close_quiz(*, quiz: Quiz, now: datetime | None = None) -> Quiz:
    """End the quiz now: open attempts are submitted with what they have."""
    now = now or timezone.now()
    if quiz.closes_at is None or quiz.closes_at > now:
        quiz.closes_at = now
        if quiz.opens_at and quiz.opens_at >= now:
            quiz.opens_at = None
        quiz.save(update_fields=["closes_at", "opens_at"])
    finalize_expired(attempts=quiz.attempts.all(), now=now)
    return quiz


class Unchanged(enum.Enum):
    """The value of a :class:`QuizChanges` field that leaves the setting as it is."""

    UNCHANGED = "unchanged"


UNCHANGED = Unchanged.UNCHANGED


@dataclass(frozen=True)
class QuizChanges:
    """What :func:`update_quiz` should change; a field left at ``UNCHANGED`` stays as it is.

    ``None`` is a value, not "unchanged": ``closes_at=None`` removes the end, ``time_limit_minutes=None``
    lifts the limit. ``redraw`` asks for new items even when nothing else about them changes.
    """

    title: str | Unchanged = UNCHANGED
    classroom: Classroom | None | Unchanged = UNCHANGED
    kinds: Sequence[str] | None | Unchanged = UNCHANGED
    lessons: Sequence[str] | None | Unchanged = UNCHANGED
    rules: Sequence[str] | None | Unchanged = UNCHANGED
    item_count: int | None | Unchanged = UNCHANGED
    difficulty: int | None | Unchanged = UNCHANGED
    variants: str | None | Unchanged = UNCHANGED
    opens_at: datetime | None | Unchanged = UNCHANGED
    closes_at: datetime | None | Unchanged = UNCHANGED
    time_limit_minutes: int | None | Unchanged = UNCHANGED
    max_attempts: int | None | Unchanged = UNCHANGED
    show_answers: str | None | Unchanged = UNCHANGED
    partial_credit: str | None | Unchanged = UNCHANGED
    grading_policy: str | None | Unchanged = UNCHANGED
    redraw: bool = False


def _or(value: Any, current: Any) -> Any:
    """``current`` when the change leaves it alone, else the new value."""
    return current if value is UNCHANGED else value


# What is fixed once the first attempt exists, with its name for messages (German, English).
LOCKED_ONCE_STARTED = {
    "classroom": ("Klasse", "class"),
    "sources": ("Auswahl der Aufgaben", "choice of items"),
    "item_count": ("Anzahl der Aufgaben", "number of items"),
    "difficulty": ("Schwierigkeit", "difficulty"),
    "variants": ("Varianten", "variants"),
    "partial_credit": ("Teilpunkte", "partial credit"),
    "redraw": ("neue Aufgaben ziehen", "drawing new items"),
}


def update_quiz(*, quiz: Quiz, editor: User, changes: QuizChanges, now: datetime | None = None) -> Quiz:
    """Apply ``changes`` (fields at ``UNCHANGED`` stay as they are). Returns the saved quiz.

    Only the owner may edit (``NotFound`` for anyone else). Everything runs in one transaction
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
    if not is_teacher(user=editor):
        raise NotFound("not a teacher")
    with transaction.atomic():
        current = Quiz.objects.select_for_update().filter(pk=quiz.pk, owner_id=editor.pk).first()
        if current is None:
            raise NotFound("no such quiz")
        plan = _plan(current, changes)
        # Attempts whose time is over are submitted under the rules they ran under.
        finalize_expired(attempts=current.attempts.all(), now=now)
        started = current.attempts.exists()
        if started and plan.changed:
            raise QuizLocked(
                "Dieses Quiz wurde schon begonnen; nicht mehr ändern lässt sich: "
                + ", ".join(LOCKED_ONCE_STARTED[name][0] for name in plan.changed)
                + ". Nichts wurde gespeichert.",
                "Students have already started this quiz, so this can no longer be changed: "
                + ", ".join(LOCKED_ONCE_STARTED[name][1] for name in plan.changed)
                + ". Nothing was saved.",
            )
        _check_plan(plan, editor)
        settings = checked_settings(
            title=_or(changes.title, current.title),
            opens_at=_or(changes.opens_at, current.opens_at),
            closes_at=_or(changes.closes_at, current.closes_at),
            time_limit_minutes=_or(changes.time_limit_minutes, current.time_limit_minutes),
            max_attempts=_or(changes.max_attempts, current.max_attempts),
            show_answers=_or(changes.show_answers, current.show_answers),
            partial_credit=plan.partial,
            grading_policy=_or(changes.grading_policy, current.grading_policy) or current.grading_policy,
        )
        check_attempt_rule(
            variants=plan.variants, max_attempts=settings["max_attempts"], show_answers=settings["show_answers"]
        )
        running = list(current.attempts.filter(submitted_at__isnull=True)) if started else []
        if running:
            _check_running_attempts(current, settings, now)
        _save_plan(current, plan, settings, running)
    return current


@dataclass(frozen=True)
class _Plan:
    """What an edit of a quiz would set (:func:`update_quiz`), and which locked parts it changes."""

    classroom: Any
    sources: dict[str, list[str]]
    count: int
    difficulty: Any
    variants: Any
    partial: Any
    changed: list[str]
    """The names of :data:`LOCKED_ONCE_STARTED` that differ from the quiz as it is."""

    @property
    def new_items(self) -> bool:
        """Items must be drawn anew (no attempt exists then: :func:`update_quiz` checks)."""
        return bool({"sources", "item_count", "difficulty", "redraw"} & set(self.changed))


def _plan(current: Quiz, changes: QuizChanges) -> _Plan:
    old_sources = quiz_sources(current)
    count = current.items.count()
    classroom = _or(changes.classroom, current.classroom)
    sources = {
        key: old_sources[key] if value is UNCHANGED else sorted_names(values=value or [])
        for key, value in (("kinds", changes.kinds), ("lessons", changes.lessons), ("rules", changes.rules))
    }
    plan = _Plan(
        classroom=classroom,
        sources=sources,
        count=_or(changes.item_count, count),
        difficulty=_or(changes.difficulty, current.difficulty),
        variants=_or(changes.variants, current.variants),
        partial=_or(changes.partial_credit, current.partial_credit) or current.partial_credit,
        changed=[],
    )
    differs = (
        ("classroom", getattr(classroom, "pk", None) != current.classroom_id),
        ("sources", sources != old_sources),
        ("item_count", plan.count != count),
        ("difficulty", plan.difficulty != current.difficulty),
        ("variants", plan.variants != current.variants),
        ("partial_credit", plan.partial != current.partial_credit),  # saved answers keep their credit
        ("redraw", bool(changes.redraw)),
    )
    return replace(plan, changed=[name for name, changed in differs if changed])


def _check_plan(plan: _Plan, editor: User) -> None:
    """The class is the editor's own, the variants exist, the difficulty is within the levels."""
    if not isinstance(plan.classroom, Classroom) or plan.classroom.teacher_id != editor.pk:
        raise NotFound("not your class")
    if plan.variants not in Quiz.Variants.values:
        raise QuizError("Diese Art von Varianten gibt es nicht.", "There is no such kind of variants.")
    if not isinstance(plan.difficulty, int) or not 1 <= plan.difficulty <= max_level():
        raise QuizError(
            f"Die Schwierigkeit liegt zwischen 1 und {max_level()}.",
            f"The difficulty is between 1 and {max_level()}.",
        )


def _save_plan(current: Quiz, plan: _Plan, settings: dict[str, Any], running: list[QuizAttempt]) -> None:
    """Write the checked edit: the settings, new items if needed, running attempts' deadlines."""
    pool: list[tuple[str, int]] = []
    if plan.new_items:
        pool = build_pool(
            kinds=plan.sources["kinds"],
            lessons=plan.sources["lessons"],
            rules=plan.sources["rules"],
            difficulty=plan.difficulty,
        )
        _check_items(pool, plan.count)
    old_limit, old_close = current.time_limit_minutes, current.closes_at
    for name, value in settings.items():
        setattr(current, name, value)
    current.classroom = plan.classroom
    current.difficulty = plan.difficulty
    current.variants = plan.variants
    if plan.new_items or current.sources != plan.sources:
        current.sources = plan.sources
    if plan.new_items:
        current.secret = secrets.token_hex(16)
    current.save()
    if plan.new_items:  # no attempt exists (checked under the lock), so no answer points at them
        current.items.all().delete()
        _draw_items(current, pool, plan.count)
    if running and (current.time_limit_minutes != old_limit or current.closes_at != old_close):
        for attempt in running:
            QuizAttempt.objects.filter(pk=attempt.pk, submitted_at__isnull=True).update(
                deadline=_running_deadline(attempt, old_limit, current.time_limit_minutes)
            )


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

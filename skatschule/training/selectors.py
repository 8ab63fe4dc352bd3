"""The training app's reads: progress, derived from the attempts.

The definitions below are a function of the owner's attempts, oldest first. The functions
that take ``rows`` compute them from the whole history (:func:`derived_progress`, the
reference); the pages use :func:`progress` and :func:`lesson_progress_for`, which read the same
figures from the running state in :mod:`.services.progress_summary` (kept up to date with each answer,
checked against the attempts on every read), so a page costs the same after 10 answers or
after 10,000.

Definitions (shown on the pages, tested in tests/training/test_progress.py):

- An attempt counts for a lesson when its ``(kind, difficulty)`` is one of the lesson's
  steps, whether it was answered on the lesson page, in free practice or as a review.
  Its grade is the *effective* grade (the newest re-grade, else the original).
- **accuracy**: right answers / answers, in percent.
- **streak**: right answers in a row, counted back from the newest answer.
- **activities** (a game finished at the table, :mod:`.services.activities`) are steps of their lesson
  (they count for its attempts, mastery and step passes) but no answers: they are not in the
  accuracy, the streak or the chapter and rule figures.
- **mastered**: at least ``needed`` of the last ``window`` answers of the lesson are right
  (the lesson's ``mastery: 8/10``). Mastery is not sticky: it can be lost again.
- **percent** (the progress bar): ``min(100, right answers among the last window / needed * 100)``.
- **current step**: the lesson's steps are its exercises in order; a step is passed when
  the last ``STEP_PASS`` (5) answers at that step were all right; the current step is the
  first one not passed (the last step once all are passed).
- **chapters**: accuracy per rule chapter (1-4, K, A) over the attempts whose exercise
  names a rule of that chapter (each attempt counts once per chapter).
- **suggestion**: due reviews first, else the first lesson not mastered, in order.
- **history**: attempts imported from an unsigned file (``counts_for_mastery`` False) count
  in attempts, accuracy and the chapter and rule figures, but never in streaks, mastery or
  step passes (see ``portability``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.urls import reverse

from skatschule.core.language import current_lang
from skatschule.engine.numbers import is_plain_number
from skatschule.owners import Owner

from .lessons import Lesson, get_activity, get_lessons
from .models import Attempt
from .registry import get_type
from .services import progress_summary, review
from .services.progress_summary import CHAPTERS, STEP_PASS

__all__ = [
    "STEP_PASS",
    "CHAPTERS",
    "Row",
    "StepProgress",
    "LessonProgress",
    "ChapterStat",
    "RuleStat",
    "Suggestion",
    "Progress",
    "attempt_rows",
    "lesson_progress",
    "progress",
    "derived_progress",
    "lesson_progress_from_state",
    "streak",
    "best_streak",
    "next_step",
    "suggest",
]


@dataclass(frozen=True)
class Row:
    kind: str
    difficulty: int
    correct: bool
    rule_ids: tuple[str, ...]
    counts: bool = True
    """False for history imported from an unsigned file: shown in the figures, but no mastery or streak."""


def attempt_rows(*, owner: Owner, kinds: Iterable[str] | None = None) -> list[Row]:
    """The owner's attempts, oldest first, with their effective grade."""
    qs = Attempt.objects.owned_by(owner).with_grade()
    if kinds is not None:
        qs = qs.filter(kind__in=list(kinds))
    return [
        Row(kind, difficulty, bool(correct), tuple(rule_ids or ()), bool(counts))
        for kind, difficulty, correct, rule_ids, counts in qs.order_by("created_at", "pk").values_list(
            "kind", "difficulty", "effective_correct", "rule_ids", "counts_for_mastery"
        )
    ]


def counting(*, rows: Sequence[Row]) -> list[Row]:
    """The rows that count towards mastery, step passes and streaks (not imported history)."""
    return [row for row in rows if row.counts]


def streak(*, grades: Sequence[bool]) -> int:
    """Right answers in a row at the end of ``grades`` (oldest first)."""
    count = 0
    for correct in reversed(grades):
        if not correct:
            break
        count += 1
    return count


def best_streak(*, grades: Iterable[bool]) -> int:
    best = run = 0
    for correct in grades:
        run = run + 1 if correct else 0
        best = max(best, run)
    return best


def _percent(right: int, total: int) -> int | None:
    return round(100 * right / total) if total else None


@dataclass
class StepProgress:
    number: int
    """1-based, as shown (``?stufe=N`` on the lesson page)."""
    kind: str
    level: int
    title: str
    attempts: int
    recent_right: int
    """Right answers among the last ``STEP_PASS`` at this step."""
    passed: bool


@dataclass
class LessonProgress:
    lesson: Lesson
    attempts: int
    right: int
    accuracy: int | None
    streak: int
    recent: list[bool]
    """The last ``window`` grades, oldest first."""
    recent_right: int
    needed: int
    window: int
    mastered: bool
    percent: int
    steps: list[StepProgress]
    current_step: int
    """1-based number of the step to practise now."""
    suggested: bool = False

    @property
    def step(self) -> StepProgress:
        return self.steps[self.current_step - 1]

    @property
    def started(self) -> bool:
        return self.attempts > 0


def lesson_progress(*, lesson: Lesson, rows: Sequence[Row]) -> LessonProgress:
    """A lesson's progress from the whole history (the reference for the summary's fold)."""
    steps_set = {(step.kind, step.level) for step in lesson.steps}
    grades = [row.correct for row in rows if (row.kind, row.difficulty) in steps_set]
    earned = [row.correct for row in counting(rows=rows) if (row.kind, row.difficulty) in steps_set]
    step_grades = [
        [row.correct for row in counting(rows=rows) if row.kind == step.kind and row.difficulty == step.level]
        for step in lesson.steps
    ]
    return _lesson_progress(
        lesson,
        attempts=len(grades),
        right=sum(grades),
        streak=streak(grades=earned),
        recent=earned[-lesson.mastery_window :],
        steps=[(len(g), g[-STEP_PASS:]) for g in step_grades],
    )


def lesson_progress_for(*, owner: Owner, lesson: Lesson, state: dict[str, Any] | None = None) -> LessonProgress:
    """One lesson's progress (from the owner's progress summary, or ``state`` if given: the
    state :func:`.services.progress_summary.record` returned in the answer's own transaction)."""
    return lesson_progress_from_state(
        lesson=lesson, state=state if state is not None else progress_summary.load(owner=owner)
    )


def lesson_progress_from_state(*, lesson: Lesson, state: dict[str, Any]) -> LessonProgress:
    """:func:`lesson_progress` from the folded state of :mod:`.services.progress_summary`."""
    attempts, right, run, recent_bits = state["lessons"].get(lesson.slug, [0, 0, 0, ""])
    steps = []
    for step in lesson.steps:
        count, _right, last_bits = state["keys"].get(f"{step.kind}|{step.level}", [0, 0, ""])
        steps.append((count, [bit == "1" for bit in last_bits]))
    return _lesson_progress(
        lesson, attempts=attempts, right=right, streak=run, recent=[bit == "1" for bit in recent_bits], steps=steps
    )


def _lesson_progress(  # noqa: PLR0913 - over the budget since issue 27; to be split
    lesson: Lesson,
    *,
    attempts: int,
    right: int,
    streak: int,
    recent: list[bool],
    steps: list[tuple[int, list[bool]]],
) -> LessonProgress:
    """The one place that turns a lesson's figures into its :class:`LessonProgress`.

    ``recent``: the last grades that count for mastery (the window); ``steps``: per step of the
    lesson, (its counting attempts, its last ``STEP_PASS`` counting grades)."""
    lang = current_lang()
    shown: list[StepProgress] = []
    for number, (step, (count, last)) in enumerate(zip(lesson.steps, steps, strict=True), start=1):
        kind = get_type(step.kind) or get_activity(step.kind)
        shown.append(
            StepProgress(
                number=number,
                kind=step.kind,
                level=step.level,
                title=kind.title(lang) if kind is not None else step.kind,
                attempts=count,
                recent_right=sum(last),
                passed=len(last) == STEP_PASS and all(last),
            )
        )
    recent_right = sum(recent)
    return LessonProgress(
        lesson=lesson,
        attempts=attempts,
        right=right,
        accuracy=_percent(right, attempts),
        streak=streak,
        recent=recent,
        recent_right=recent_right,
        needed=lesson.mastery_needed,
        window=lesson.mastery_window,
        mastered=recent_right >= lesson.mastery_needed,
        percent=min(100, round(100 * recent_right / lesson.mastery_needed)),
        steps=shown,
        current_step=next((s.number for s in shown if not s.passed), len(shown)),
    )


@dataclass
class ChapterStat:
    chapter: str
    label: str
    attempts: int
    right: int
    accuracy: int | None


@dataclass
class RuleStat:
    rule_id: str
    attempts: int
    right: int
    accuracy: int | None


@dataclass
class Suggestion:
    """The one next thing to do (the dashboard and every feedback page name it)."""

    kind: str
    """``review``, ``lesson``, ``done`` or (after an answer in free practice) ``practice``."""
    url: str
    lesson: Lesson | None = None
    due: int = 0
    step: int = 0
    """For ``lesson``: the 1-based step to finish (the lesson's current step)."""
    step_title: str = ""


@dataclass
class Progress:
    lessons: list[LessonProgress]
    attempts: int
    right: int
    accuracy: int | None
    streak: int
    best_streak: int
    chapters: list[ChapterStat]
    rules: list[RuleStat]
    due_reviews: int
    scheduled_reviews: int
    next_lesson: LessonProgress | None
    suggestion: Suggestion
    weakest_rules: list[RuleStat] = field(default_factory=list)

    @property
    def mastered_count(self) -> int:
        return sum(1 for item in self.lessons if item.mastered)


def _chapter_of(rule_id: str) -> str:
    return rule_id.split(".", 1)[0]


def chapter_stats(*, rows: Sequence[Row]) -> list[ChapterStat]:
    counts = {code: [0, 0] for code, _label in CHAPTERS}
    for row in rows:
        for chapter in {_chapter_of(rule) for rule in row.rule_ids}:
            if chapter in counts:
                counts[chapter][0] += 1
                counts[chapter][1] += int(row.correct)
    return [
        ChapterStat(code, str(label), counts[code][0], counts[code][1], _percent(counts[code][1], counts[code][0]))
        for code, label in CHAPTERS
    ]


def _rule_key(rule_id: str) -> tuple[tuple[int, int, str], ...]:
    return tuple((0, int(part), "") if is_plain_number(part) else (1, 0, part) for part in rule_id.split("."))


def rule_stats(*, rows: Sequence[Row]) -> list[RuleStat]:
    counts: dict[str, list[int]] = {}
    for row in rows:
        for rule in set(row.rule_ids):
            entry = counts.setdefault(rule, [0, 0])
            entry[0] += 1
            entry[1] += int(row.correct)
    return [
        RuleStat(rule, total, right, _percent(right, total))
        for rule, (total, right) in sorted(counts.items(), key=lambda item: _rule_key(item[0]))
    ]


def progress(*, owner: Owner) -> Progress:
    """Everything the dashboard shows, from the owner's progress summary and review items."""
    state = progress_summary.load(owner=owner)
    lessons = [lesson_progress_from_state(lesson=lesson, state=state) for lesson in get_lessons()]
    chapters = []
    for code, label in CHAPTERS:
        total, right = state["chapters"].get(code, [0, 0])
        chapters.append(ChapterStat(code, str(label), total, right, _percent(right, total)))
    rules = [
        RuleStat(rule, total, right, _percent(right, total))
        for rule, (total, right) in sorted(state["rules"].items(), key=lambda item: _rule_key(item[0]))
    ]
    return _assemble(
        owner,
        lessons,
        attempts=state["count"] - state.get("activities", 0),
        right=state["right"],
        streak=state["run"],
        best=state["best"],
        chapters=chapters,
        rules=rules,
    )


def derived_progress(*, owner: Owner) -> Progress:
    """:func:`progress` computed from the whole history (the reference the summary is tested against)."""
    rows = attempt_rows(owner=owner)
    answers = [row for row in rows if get_activity(row.kind) is None]  # a finished game is no answer
    grades = [row.correct for row in answers]
    return _assemble(
        owner,
        [lesson_progress(lesson=lesson, rows=rows) for lesson in get_lessons()],
        attempts=len(answers),
        right=sum(grades),
        streak=streak(grades=[row.correct for row in counting(rows=answers)]),
        best=best_streak(grades=[row.correct for row in counting(rows=answers)]),
        chapters=chapter_stats(rows=answers),
        rules=rule_stats(rows=answers),
    )


def _assemble(  # noqa: PLR0913 - over the budget since issue 27; to be split
    owner: Owner,
    lessons: list[LessonProgress],
    *,
    attempts: int,
    right: int,
    streak: int,
    best: int,
    chapters: list[ChapterStat],
    rules: list[RuleStat],
) -> Progress:
    next_lesson = next((item for item in lessons if not item.mastered), None)
    if next_lesson is not None:
        next_lesson.suggested = True
    due = review.due_count(owner=owner)
    suggestion = suggest(due=due, open_lessons=[next_lesson] if next_lesson else [])
    weakest = sorted((r for r in rules if r.attempts), key=lambda r: (r.right / r.attempts, -r.attempts))[:8]
    return Progress(
        lessons=lessons,
        attempts=attempts,
        right=right,
        accuracy=_percent(right, attempts),
        streak=streak,
        best_streak=best,
        chapters=chapters,
        rules=rules,
        due_reviews=due,
        scheduled_reviews=review.pending_count(owner=owner),
        next_lesson=next_lesson,
        suggestion=suggestion,
        weakest_rules=weakest,
    )


def suggest(*, due: int, open_lessons: Iterable[LessonProgress]) -> Suggestion:
    """The one next thing: due reviews first, else the current step of the first lesson in
    ``open_lessons`` that is not mastered, else done (free practice)."""
    if due:
        return Suggestion("review", reverse("training:review"), due=due)
    for item in open_lessons:
        if not item.mastered:
            url = f"{item.lesson.url}?stufe={item.current_step}"
            return Suggestion("lesson", url, lesson=item.lesson, step=item.current_step, step_title=item.step.title)
    return Suggestion("done", reverse("training:lessons"))


def next_step(
    *, owner: Owner, lesson: Lesson | None = None, state: dict[str, Any] | None = None, practice: bool = False
) -> Suggestion:
    """The next thing after an answer: due reviews, else ``lesson`` (the exercise's own) while it is
    not mastered, else the first lesson not mastered (``state``: the progress just written).
    In free practice (``practice``) it is the review due, else more of the same practice."""
    due = review.due_count(owner=owner)
    if practice:
        return Suggestion("review", reverse("training:review"), due=due) if due else Suggestion("practice", "")
    state = state if state is not None else progress_summary.load(owner=owner)
    lessons = ([lesson] if lesson is not None else []) + list(get_lessons())
    return suggest(due=due, open_lessons=(lesson_progress_from_state(lesson=item, state=state) for item in lessons))


def suggested_lesson(*, owner: Owner) -> Lesson | None:
    """The first lesson (in order) that the owner has not mastered."""
    state = progress_summary.load(owner=owner)
    for lesson in get_lessons():
        if not lesson_progress_from_state(lesson=lesson, state=state).mastered:
            return lesson
    return None

"""Class progress for the teacher (issue 18): every student's lesson mastery, last activity
and quiz results in one table. Reads only (a selector module); mastery comes from
``training.services.progress.lesson_progress``, the same rule the student's own page uses.

All students' practice is read in one query; each lesson's progress is then computed in
Python from those rows (a class is tens of students, the lessons are a few dozen).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.apps import apps
from django.db.models import Max

from skatschule.training.lessons import Lesson, get_lessons
from skatschule.training.models import Attempt
from skatschule.training.services.progress import LessonProgress, Row, lesson_progress

from .models import Classroom

__all__ = ["ClassProgress", "StudentProgress", "class_progress", "progress_table", "SORT_NAME"]

SORT_NAME = "name"


@dataclass
class QuizCell:
    quiz_id: int
    title: str
    score: int | None
    """Best submitted score, None if nothing submitted."""
    total: int


@dataclass
class StudentProgress:
    student_id: int
    name: str
    lessons: list[LessonProgress]
    last_activity: datetime | None
    quizzes: list[QuizCell] = field(default_factory=list)

    @property
    def mastered(self) -> int:
        return sum(1 for p in self.lessons if p.mastered)


@dataclass
class LessonSummary:
    lesson: Lesson
    mastered: int
    started: int


@dataclass
class ClassProgress:
    classroom: Classroom
    lessons: list[Lesson]
    students: list[StudentProgress]
    summaries: list[LessonSummary]
    quizzes: list[tuple[int, str, int]]
    sort: str


def _rows_by_student(student_ids: Sequence[int]) -> dict[int, list[Row]]:
    rows: dict[int, list[Row]] = defaultdict(list)
    qs = (
        Attempt.objects.filter(user_id__in=list(student_ids))
        .with_grade()
        .order_by("created_at", "pk")
        .values_list("user_id", "kind", "difficulty", "effective_correct", "rule_ids")
    )
    for user_id, kind, difficulty, correct, rule_ids in qs:
        rows[user_id].append(Row(kind, difficulty, bool(correct), tuple(rule_ids or ())))
    return rows


def class_progress(classroom: Classroom, sort: str = SORT_NAME) -> ClassProgress:
    """The class's table, sorted by name or, for ``sort`` = a lesson slug, by that lesson's
    progress (most advanced first, then by name)."""
    # The quizzes app builds on classrooms (a quiz belongs to a class), so classrooms does not
    # import it: the class's quizzes come through the reverse relation, their attempts by name.
    QuizAttempt = apps.get_model("quizzes", "QuizAttempt")

    members = list(classroom.memberships.select_related("student").order_by("student__username"))
    ids = [m.student_id for m in members]
    lessons = list(get_lessons())
    rows = _rows_by_student(ids)
    practised = dict(
        Attempt.objects.filter(user_id__in=ids)
        .values("user_id")
        .annotate(last=Max("created_at"))
        .values_list("user_id", "last")
    )
    quizzes = [
        (q.pk, q.title, q.items.count())
        for q in classroom.quizzes.filter(published_at__isnull=False).order_by("created_at", "pk")
    ]
    best: dict[tuple[int, int], int] = {}
    quiz_activity: dict[int, datetime] = {}
    attempts = QuizAttempt.objects.filter(quiz__classroom=classroom, student_id__in=ids).values_list(
        "quiz_id", "student_id", "score", "updated_at"
    )
    for quiz_id, student_id, score, updated in attempts:
        if score is not None:
            best[(quiz_id, student_id)] = max(score, best.get((quiz_id, student_id), 0))
        if updated and (student_id not in quiz_activity or updated > quiz_activity[student_id]):
            quiz_activity[student_id] = updated
    students = []
    for m in members:
        sid = m.student_id
        times = [t for t in (practised.get(sid), quiz_activity.get(sid)) if t is not None]
        students.append(
            StudentProgress(
                student_id=sid,
                name=m.student.get_username(),
                lessons=[lesson_progress(lesson, rows.get(sid, [])) for lesson in lessons],
                last_activity=max(times) if times else None,
                quizzes=[QuizCell(qid, title, best.get((qid, sid)), total) for qid, title, total in quizzes],
            )
        )
    slugs = [lesson.slug for lesson in lessons]
    if sort in slugs:
        index = slugs.index(sort)
        students.sort(key=lambda s: (-s.lessons[index].recent_right, -s.lessons[index].attempts, s.name))
    else:
        sort = SORT_NAME
    summaries = [
        LessonSummary(
            lesson,
            mastered=sum(1 for s in students if s.lessons[n].mastered),
            started=sum(1 for s in students if s.lessons[n].started),
        )
        for n, lesson in enumerate(lessons)
    ]
    return ClassProgress(classroom, lessons, students, summaries, quizzes, sort)


def progress_table(progress: ClassProgress, lang: str = "de") -> list[list[Any]]:
    """The table for export: header, then one row per student (cells not yet guarded)."""
    en = lang == "en"
    header: list[Any] = [
        "Username" if en else "Benutzername",
        "Last activity" if en else "Letzte Aktivität",
        "Lessons mastered" if en else "Lektionen gemeistert",
    ]
    header += [lesson.title(lang) for lesson in progress.lessons]
    header += [title for _, title, _ in progress.quizzes]
    table = [header]
    mastered, started, untouched = ("mastered", "%", "–") if en else ("gemeistert", "%", "–")
    for s in progress.students:
        line: list[Any] = [s.name, s.last_activity.isoformat(timespec="minutes") if s.last_activity else "", s.mastered]
        for p in s.lessons:
            line.append(mastered if p.mastered else (f"{p.percent} {started}" if p.started else untouched))
        for cell in s.quizzes:
            line.append("" if cell.score is None else f"{cell.score}/{cell.total}")
        table.append(line)
    return table

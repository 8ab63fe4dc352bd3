"""Reads of the classrooms app: classes, homework and class progress. No writes here
(those are in :mod:`.services`).

- **Classes**: the teacher's classes (with member counts), the classes a student joined, the
  teacher's own class by id (``NotFound`` for anyone else's), a class's members.
- **Homework** (issue 18): whether and when each student finished an assignment, computed,
  not stored. A lesson assignment is done from the first moment the student's practice met
  the lesson's mastery rule (``mastery_needed`` right among the last ``mastery_window``
  answers at the lesson's steps, the rule of ``training.selectors``); it stays done
  even if a later wrong answer drops the current streak. A quiz assignment is done with the
  first submitted attempt. Done after the due time is "late"; not done after it is "overdue".
- **Class progress** (issue 18): every student's lesson mastery, last activity and quiz
  results in one table; mastery comes from ``training.selectors.lesson_progress``,
  the same rule the student's own page uses. All students' practice is read in one query;
  each lesson's progress is then computed in Python from those rows (a class is tens of
  students, the lessons are a few dozen).
"""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.apps import apps
from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Count, Max, QuerySet
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import override, pgettext

from skatschule.core.notfound import NotFound
from skatschule.core.people import person_name
from skatschule.core.points import policy_result, shown_points
from skatschule.core.spreadsheets import local_datetime
from skatschule.engine.numbers import is_plain_number
from skatschule.training.lessons import Lesson, get_lesson, get_lessons
from skatschule.training.models import Attempt
from skatschule.training.selectors import LessonProgress, Row, lesson_progress

from .models import TEACHER_GROUP, Assignment, Classroom, Membership

__all__ = [
    "SORT_NAME",
    "AssignmentSummary",
    "ClassProgress",
    "HomeworkLine",
    "StudentLine",
    "StudentProgress",
    "class_assignments",
    "class_progress",
    "class_quizzes",
    "class_status",
    "classrooms_joined",
    "classrooms_taught",
    "classrooms_taught_with_counts",
    "done_at",
    "is_id",
    "is_member",
    "is_teacher",
    "lesson_mastered_at",
    "members",
    "members_with_progress",
    "own_assignment",
    "own_classroom",
    "progress_table",
    "student_homework",
    "task_choices",
    "title_and_url",
]


# --- classes ----------------------------------------------------------------------------------


def is_teacher(*, user: User | AnonymousUser | None) -> bool:
    if user is None or not user.is_authenticated:
        return False
    cached = getattr(user, "_skatschule_is_teacher", None)
    if cached is None:
        cached = user.groups.filter(name=TEACHER_GROUP).exists()
        user._skatschule_is_teacher = cached  # type: ignore[attr-defined]  # a per-request cache on the user
    return bool(cached)


def classrooms_taught(user: User) -> QuerySet[Classroom]:
    if not is_teacher(user=user):
        return Classroom.objects.none()
    return Classroom.objects.filter(teacher=user)


def classrooms_taught_with_counts(user: User) -> QuerySet[Classroom]:
    """The teacher's classes, each with ``member_count``."""
    return classrooms_taught(user).annotate(member_count=Count("memberships"))


def classrooms_joined(user: User) -> QuerySet[Classroom]:
    if not user.is_authenticated:
        return Classroom.objects.none()
    return Classroom.objects.filter(memberships__student=user).select_related("teacher")


def is_id(*, value: object) -> bool:
    """A database id: ASCII digits only ("²" passes ``isdigit`` but not ``int``) and small
    enough for every backend's integer column (:mod:`skatschule.engine.numbers`)."""
    return is_plain_number(value)


def own_classroom(user: User, *, pk: object) -> Classroom:
    """The teacher's own class ``pk``; ``NotFound`` for anyone else's (or a forged id)."""
    found = classrooms_taught(user).filter(pk=int(str(pk))).first() if is_id(value=pk) else None
    if found is None:
        raise NotFound("no such class")
    return found


def members(classroom: Classroom) -> QuerySet[Membership]:
    return classroom.memberships.select_related("student")


def is_member(classroom: Classroom, *, user: User) -> bool:
    return classroom.memberships.filter(student=user).exists()


def class_quizzes(classroom: Classroom) -> QuerySet[Any]:
    """The class's quizzes (through the reverse relation: classrooms does not import quizzes)."""
    return classroom.quizzes.all()


# --- homework ---------------------------------------------------------------------------------


def task_choices(classroom: Classroom, *, lang: str = "de") -> list[tuple[str, list[tuple[str, str]]]]:
    """Grouped choices for the form: the lessons, and the class's quizzes (not drafts)."""
    lessons = [(f"lesson:{lesson.slug}", lesson.title(lang)) for lesson in get_lessons()]
    quizzes = [(f"quiz:{q.pk}", q.title) for q in classroom.quizzes.filter(published_at__isnull=False)]
    with override(lang):
        groups = [(_("Lektionen"), lessons)]
        if quizzes:
            groups.append((_("Quizze"), quizzes))
    return groups


def lesson_mastered_at(*, lesson: Lesson, grades: list[tuple[bool, datetime]]) -> datetime | None:
    """The time of the answer with which the mastery rule first held (``grades`` oldest first,
    only answers at the lesson's steps)."""
    window: deque[bool] = deque(maxlen=lesson.mastery_window)
    for correct, when in grades:
        window.append(correct)
        if sum(window) >= lesson.mastery_needed:
            return when
    return None


def _lesson_grades(lesson: Lesson, student_ids: list[int]) -> dict[int, list[tuple[bool, datetime]]]:
    steps = {(step.kind, step.level) for step in lesson.steps}
    grades: dict[int, list[tuple[bool, datetime]]] = {sid: [] for sid in student_ids}
    rows = (
        Attempt.objects.filter(user_id__in=student_ids, kind__in=lesson.kinds)
        .counting()  # the one rule: no unsigned history, imports count from their import
        .with_grade()
        .order_by("counted_at", "created_at", "pk")
        .values_list("user_id", "kind", "difficulty", "effective_correct", "counted_at")
    )
    for user_id, kind, difficulty, correct, created in rows:
        if (kind, difficulty) in steps:
            grades[user_id].append((bool(correct), created))
    return grades


def done_at(assignment: Assignment, *, student_ids: list[int]) -> dict[int, datetime | None]:
    """When each student finished the assignment (None: not yet)."""
    if assignment.kind == Assignment.Kind.LESSON:
        lesson = get_lesson(assignment.lesson_slug)
        if lesson is None:
            return dict.fromkeys(student_ids)
        grades = _lesson_grades(lesson, student_ids)
        return {sid: lesson_mastered_at(lesson=lesson, grades=grades[sid]) for sid in student_ids}
    assert assignment.quiz is not None  # a quiz assignment (the model's check constraint)
    first: dict[int, datetime | None] = dict.fromkeys(student_ids)
    # through the quiz's reverse relation: classrooms does not import the quizzes app
    submitted = assignment.quiz.attempts.filter(student_id__in=student_ids, submitted_at__isnull=False).values_list(
        "student_id", "submitted_at"
    )
    for sid, when in submitted:
        earlier = first[sid]
        if when is not None and (earlier is None or when < earlier):
            first[sid] = when
    return first


@dataclass
class HomeworkLine:
    assignment: Assignment
    title: str
    url: str
    done_at: datetime | None
    late: bool
    overdue: bool

    @property
    def done(self) -> bool:
        return self.done_at is not None


def title_and_url(assignment: Assignment, *, lang: str) -> tuple[str, str]:
    if assignment.kind == Assignment.Kind.LESSON:
        lesson = get_lesson(assignment.lesson_slug)
        return (lesson.title(lang), lesson.url) if lesson else (assignment.lesson_slug, "")
    quiz = assignment.quiz
    assert quiz is not None  # a quiz assignment (the model's check constraint)
    published = quiz.published_at
    visible = published is not None and published <= timezone.now()  # a scheduled quiz: no link before its time
    return quiz.title, reverse("quizzes:start", kwargs={"pk": assignment.quiz_id}) if visible else ""


def _line(assignment: Assignment, when: datetime | None, lang: str, now: datetime) -> HomeworkLine:
    title, url = title_and_url(assignment, lang=lang)
    return HomeworkLine(
        assignment=assignment,
        title=title,
        url=url,
        done_at=when,
        late=when is not None and when > assignment.due_at,
        overdue=when is None and now > assignment.due_at,
    )


@dataclass
class StudentLine:
    name: str
    done_at: datetime | None
    late: bool
    overdue: bool


def class_status(assignment: Assignment, *, now: datetime | None = None) -> list[StudentLine]:
    """Every member of the class with done / late / open, by name."""
    now = now or timezone.now()
    members = list(assignment.classroom.memberships.select_related("student").order_by("student__username"))
    finished = done_at(assignment, student_ids=[m.student_id for m in members])
    lines = []
    for m in members:
        when = finished[m.student_id]
        lines.append(
            StudentLine(
                name=person_name(m.student),
                done_at=when,
                late=when is not None and when > assignment.due_at,
                overdue=when is None and now > assignment.due_at,
            )
        )
    return lines


@dataclass
class AssignmentSummary:
    assignment: Assignment
    title: str
    done: int
    """Students who finished it (late ones included)."""
    late: int
    """Of those, the ones who finished after the due time."""
    size: int
    overdue: int = 0
    """Students not done although the due time has passed."""


def class_assignments(
    classroom: Classroom, *, lang: str = "de", now: datetime | None = None
) -> list[AssignmentSummary]:
    """The class's assignments with title, number done (and how many of them late), class size
    and, once the due time has passed, how many are overdue."""
    now = now or timezone.now()
    members = list(classroom.memberships.values_list("student_id", flat=True))
    result = []
    for assignment in classroom.assignments.select_related("quiz"):
        finished = [when for when in done_at(assignment, student_ids=members).values() if when is not None]
        title, _url = title_and_url(assignment, lang=lang)
        late = sum(1 for when in finished if when > assignment.due_at)
        overdue = len(members) - len(finished) if now > assignment.due_at else 0
        result.append(AssignmentSummary(assignment, title, len(finished), late, len(members), overdue))
    return result


def own_assignment(teacher: User, *, pk: object) -> Assignment:
    text = str(pk)
    found = (
        Assignment.objects.filter(pk=int(text), classroom__teacher_id=teacher.pk)
        .select_related("classroom", "quiz")
        .first()
        if is_id(value=text)
        else None
    )
    if found is None:
        raise NotFound("no such assignment")
    return found


def student_homework(user: User, *, lang: str = "de", now: datetime | None = None) -> list[HomeworkLine]:
    """The student's assignments from all their classes: open ones first (by due time), then done."""
    if not user.is_authenticated:
        return []
    now = now or timezone.now()
    assignments = Assignment.objects.filter(classroom__memberships__student=user).select_related("quiz", "classroom")
    lines = [_line(a, done_at(a, student_ids=[user.pk])[user.pk], lang, now) for a in assignments]
    lines.sort(key=lambda line: (line.done, line.assignment.due_at))
    return lines


# --- class progress ---------------------------------------------------------------------------

SORT_NAME = "name"


@dataclass
class QuizCell:
    quiz_id: int
    title: str
    points: float | None
    """The result under the quiz's grading policy (partial credit and overrides included, as
    the quiz's own results say), None if nothing submitted."""
    total: int

    @property
    def shown(self) -> str:
        return shown_points(self.points)


@dataclass
class StudyCell:
    """A student's answers at the stops of a study shared with the class: right of stops."""

    study_id: int
    right: int
    answered: int
    stops: int


@dataclass
class StudentProgress:
    student_id: int
    name: str
    lessons: list[LessonProgress]
    last_activity: datetime | None
    quizzes: list[QuizCell] = field(default_factory=list)
    studies: list[StudyCell] = field(default_factory=list)

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
    studies: list[tuple[int, str, int]] = field(default_factory=list)
    """(id, title, stops) of each study shared with the class."""


def _rows_by_student(student_ids: Sequence[int]) -> dict[int, list[Row]]:
    rows: dict[int, list[Row]] = defaultdict(list)
    qs = (
        Attempt.objects.filter(user_id__in=list(student_ids))
        .counting()  # the one rule (training.models.AttemptQuerySet.counting)
        .with_grade()
        .order_by("counted_at", "created_at", "pk")
        .values_list("user_id", "kind", "difficulty", "effective_correct", "rule_ids")
    )
    for user_id, kind, difficulty, correct, rule_ids in qs:
        rows[user_id].append(Row(kind, difficulty, bool(correct), tuple(rule_ids or ())))
    return rows


def class_progress(classroom: Classroom, *, sort: str = SORT_NAME) -> ClassProgress:
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
        .counting()
        .values("user_id")
        .annotate(last=Max("counted_at"))
        .values_list("user_id", "last")
    )
    published = list(classroom.quizzes.filter(published_at__isnull=False).order_by("created_at", "pk"))
    quizzes = [(q.pk, q.title, q.items.count()) for q in published]
    policies = {q.pk: q.grading_policy for q in published}
    submitted: dict[tuple[int, int], list[float]] = defaultdict(list)
    quiz_activity: dict[int, datetime] = {}
    attempts = (
        QuizAttempt.objects.filter(quiz__classroom=classroom, student_id__in=ids)
        .order_by("quiz_id", "student_id", "number")
        .values_list("quiz_id", "student_id", "submitted_at", "points", "updated_at")
    )
    for quiz_id, student_id, submitted_at, points, updated in attempts:
        if submitted_at is not None:
            submitted[(quiz_id, student_id)].append(float(points or 0.0))
        if updated and (student_id not in quiz_activity or updated > quiz_activity[student_id]):
            quiz_activity[student_id] = updated
    results = {key: policy_result(values, policies.get(key[0], "")) for key, values in submitted.items()}
    studies, study_answers = _study_answers(classroom, ids)
    students = []
    for m in members:
        sid = m.student_id
        times = [t for t in (practised.get(sid), quiz_activity.get(sid)) if t is not None]
        students.append(
            StudentProgress(
                student_id=sid,
                name=person_name(m.student),
                lessons=[lesson_progress(lesson=lesson, rows=rows.get(sid, [])) for lesson in lessons],
                last_activity=max(times) if times else None,
                quizzes=[QuizCell(qid, title, results.get((qid, sid)), total) for qid, title, total in quizzes],
                studies=[StudyCell(pk, *study_answers.get((pk, sid), (0, 0)), stops) for pk, _title, stops in studies],
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
    return ClassProgress(classroom, lessons, students, summaries, quizzes, sort, studies)


def _study_answers(
    classroom: Classroom, ids: list[int]
) -> tuple[list[tuple[int, str, int]], dict[tuple[int, int], tuple[int, int]]]:
    """The studies shared with the class (id, title, stops) and each student's (right, answered)
    per study. The studies app builds on classrooms: its rows come by name, as the quizzes' do."""
    StudyAnswer = apps.get_model("studies", "StudyAnswer")
    shared = list(classroom.studies.annotate(stop_count=Count("stops")).order_by("created", "pk"))
    studies = [(st.pk, st.title, st.stop_count) for st in shared]
    counts: dict[tuple[int, int], tuple[int, int]] = {}
    rows = StudyAnswer.objects.filter(stop__study__in=[pk for pk, _t, _n in studies], user_id__in=ids).values_list(
        "stop__study_id", "user_id", "correct"
    )
    for study_id, user_id, correct in rows:
        right, answered = counts.get((study_id, user_id), (0, 0))
        counts[(study_id, user_id)] = (right + bool(correct), answered + 1)
    return studies, counts


def progress_table(*, progress: ClassProgress, lang: str = "de") -> list[list[Any]]:
    """The table for export: header, then one row per student (cells not yet guarded)."""
    with override(lang):
        header: list[Any] = [
            pgettext("Tabellenkopf", "Benutzername"),
            pgettext("Tabellenkopf", "Letzte Aktivität"),
            pgettext("Tabellenkopf", "Lektionen gemeistert"),
        ]
        mastered = _("gemeistert")
    header += [lesson.title(lang) for lesson in progress.lessons]
    with override(lang):
        header += [
            pgettext("Tabellenkopf", "%(title)s (Punkte von %(total)d)") % {"title": title, "total": total}
            for _pk, title, total in progress.quizzes
        ]
        header += [
            pgettext("Tabellenkopf", "Studie: %(title)s (richtig von %(total)d)") % {"title": title, "total": total}
            for _pk, title, total in progress.studies
        ]
    table = [header]
    started, untouched = "%", "–"
    for s in progress.students:
        line: list[Any] = [s.name, local_datetime(s.last_activity) or "", s.mastered]
        for p in s.lessons:
            line.append(mastered if p.mastered else (f"{p.percent} {started}" if p.started else untouched))
        for cell in s.quizzes:
            line.append("" if cell.points is None else cell.points)
        for study in s.studies:
            line.append(study.right if study.answered else "")
        table.append(line)
    return table


def members_with_progress(classroom: Classroom) -> list[tuple[Membership, StudentProgress]]:
    """The class page's member list: each membership with the student's row of the class
    progress (lessons mastered, last activity), by name."""
    rows = {s.student_id: s for s in class_progress(classroom).students}
    return [(m, rows[m.student_id]) for m in members(classroom).order_by("student__username")]

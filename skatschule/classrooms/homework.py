"""Homework (issue 18): writes (``assign``, ``withdraw``) and reads (who is done, what is open).

A lesson assignment is done from the first moment the student's practice met the lesson's
mastery rule (``mastery_needed`` right among the last ``mastery_window`` answers at the
lesson's steps, the rule of ``training.services.progress``); it stays done even if a later
wrong answer drops the current streak. A quiz assignment is done with the first submitted
attempt. Done after the due time is "late"; not done after it is "overdue".
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import User
from django.http import Http404
from django.urls import reverse
from django.utils import timezone

from skatschule.training.lessons import Lesson, get_lesson, get_lessons
from skatschule.training.models import Attempt

from .models import Assignment, Classroom
from .services import ClassroomError

__all__ = ["assign", "withdraw", "task_choices", "done_at", "class_status", "student_homework", "HomeworkLine"]


def task_choices(classroom: Classroom, lang: str = "de") -> list[tuple[str, list[tuple[str, str]]]]:
    """Grouped choices for the form: the lessons, and the class's quizzes (not drafts)."""
    lessons = [(f"lesson:{lesson.slug}", lesson.title(lang)) for lesson in get_lessons()]
    quizzes = [(f"quiz:{q.pk}", q.title) for q in classroom.quizzes.filter(published_at__isnull=False)]
    groups = [("Lessons" if lang == "en" else "Lektionen", lessons)]
    if quizzes:
        groups.append(("Quizzes" if lang == "en" else "Quizze", quizzes))
    return groups


def assign(*, teacher: User, classroom: Classroom, task: str, due_at: datetime) -> Assignment:
    """Give ``task`` (``lesson:<slug>`` or ``quiz:<id>``) to the class, due at ``due_at``."""
    if classroom.teacher_id != teacher.pk:
        raise Http404("not your class")
    kind, _, value = str(task).partition(":")
    if due_at <= timezone.now():
        raise ClassroomError("Der Termin muss in der Zukunft liegen.", "The due date must be in the future.")
    if kind == Assignment.Kind.LESSON:
        if get_lesson(value) is None:
            raise ClassroomError("Diese Lektion gibt es nicht.", "There is no such lesson.")
        return Assignment.objects.create(classroom=classroom, kind=kind, lesson_slug=value, due_at=due_at)
    if kind == Assignment.Kind.QUIZ and value.isdigit():
        quiz = classroom.quizzes.filter(pk=int(value)).first()
        if quiz is None:
            raise ClassroomError("Dieses Quiz gehört nicht zur Klasse.", "This quiz is not one of the class's.")
        if quiz.published_at is None:
            raise ClassroomError(
                "Veröffentliche das Quiz zuerst; einen Entwurf sieht die Klasse nicht.",
                "Publish the quiz first; the class cannot see a draft.",
            )
        return Assignment.objects.create(classroom=classroom, kind=kind, quiz=quiz, due_at=due_at)
    raise ClassroomError("Bitte wähle eine Lektion oder ein Quiz.", "Please choose a lesson or a quiz.")


def withdraw(*, teacher: User, assignment: Assignment) -> None:
    if assignment.classroom.teacher_id != teacher.pk:
        raise Http404("not your class")
    assignment.delete()


# --- reads ------------------------------------------------------------------------------------


def lesson_mastered_at(lesson: Lesson, grades: list[tuple[bool, datetime]]) -> datetime | None:
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
        .with_grade()
        .order_by("created_at", "pk")
        .values_list("user_id", "kind", "difficulty", "effective_correct", "created_at")
    )
    for user_id, kind, difficulty, correct, created in rows:
        if (kind, difficulty) in steps:
            grades[user_id].append((bool(correct), created))
    return grades


def done_at(assignment: Assignment, student_ids: list[int]) -> dict[int, datetime | None]:
    """When each student finished the assignment (None: not yet)."""
    if assignment.kind == Assignment.Kind.LESSON:
        lesson = get_lesson(assignment.lesson_slug)
        if lesson is None:
            return dict.fromkeys(student_ids)
        grades = _lesson_grades(lesson, student_ids)
        return {sid: lesson_mastered_at(lesson, grades[sid]) for sid in student_ids}
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


def _title_and_url(assignment: Assignment, lang: str) -> tuple[str, str]:
    if assignment.kind == Assignment.Kind.LESSON:
        lesson = get_lesson(assignment.lesson_slug)
        return (lesson.title(lang), lesson.url) if lesson else (assignment.lesson_slug, "")
    quiz = assignment.quiz
    assert quiz is not None  # a quiz assignment (the model's check constraint)
    published = quiz.published_at
    visible = published is not None and published <= timezone.now()  # a scheduled quiz: no link before its time
    return quiz.title, reverse("quizzes:start", kwargs={"pk": assignment.quiz_id}) if visible else ""


def _line(assignment: Assignment, when: datetime | None, lang: str, now: datetime) -> HomeworkLine:
    title, url = _title_and_url(assignment, lang)
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


def class_status(assignment: Assignment, now: datetime | None = None) -> list[StudentLine]:
    """Every member of the class with done / late / open, by name."""
    now = now or timezone.now()
    members = list(assignment.classroom.memberships.select_related("student").order_by("student__username"))
    finished = done_at(assignment, [m.student_id for m in members])
    lines = []
    for m in members:
        when = finished[m.student_id]
        lines.append(
            StudentLine(
                name=m.student.get_username(),
                done_at=when,
                late=when is not None and when > assignment.due_at,
                overdue=when is None and now > assignment.due_at,
            )
        )
    return lines


def class_assignments(classroom: Classroom, lang: str = "de") -> list[tuple[Assignment, str, int, int]]:
    """The class's assignments with title, number done and class size."""
    members = list(classroom.memberships.values_list("student_id", flat=True))
    result = []
    for assignment in classroom.assignments.select_related("quiz"):
        finished = done_at(assignment, members)
        title, _ = _title_and_url(assignment, lang)
        result.append((assignment, title, sum(1 for v in finished.values() if v is not None), len(members)))
    return result


def own_assignment(teacher: User, pk: object) -> Assignment:
    text = str(pk)
    found = (
        Assignment.objects.filter(pk=int(text), classroom__teacher_id=teacher.pk)
        .select_related("classroom", "quiz")
        .first()
        if text.isdigit() and len(text) < 18
        else None
    )
    if found is None:
        raise Http404("no such assignment")
    return found


def student_homework(user: User, lang: str = "de", now: datetime | None = None) -> list[HomeworkLine]:
    """The student's assignments from all their classes: open ones first (by due time), then done."""
    if not user.is_authenticated:
        return []
    now = now or timezone.now()
    assignments = Assignment.objects.filter(classroom__memberships__student=user).select_related("quiz", "classroom")
    lines = [_line(a, done_at(a, [user.pk])[user.pk], lang, now) for a in assignments]
    lines.sort(key=lambda line: (line.done, line.assignment.due_at))
    return lines

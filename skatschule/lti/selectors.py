"""Reads of the LTI app: a teacher's LMS courses, what can be linked, what a link points to."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.http import Http404
from lti_tool.models import LtiContext

from skatschule.classrooms.selectors import is_id, task_choices
from skatschule.quizzes.models import Quiz
from skatschule.training.lessons import Lesson, get_lesson

from .models import CourseClass

__all__ = ["course_of", "own_course", "courses_taught", "link_choices", "linked_quiz", "linked_lesson"]


def course_of(context: LtiContext) -> CourseClass | None:
    return CourseClass.objects.filter(context=context).select_related("classroom").first()


def own_course(user: User, pk: object) -> CourseClass:
    """A course whose class the user teaches; ``Http404`` for anyone else's."""
    found = (
        CourseClass.objects.filter(pk=int(str(pk)), classroom__teacher=user)
        .select_related("classroom", "context")
        .first()
        if is_id(pk)
        else None
    )
    if found is None:
        raise Http404("no such course")
    return found


def courses_taught(user: User) -> list[CourseClass]:
    return list(CourseClass.objects.filter(classroom__teacher=user).select_related("classroom", "context"))


def link_choices(course: CourseClass, lang: str) -> list[tuple[str, list[tuple[str, str]]]]:
    """What a teacher can place in the LMS: every lesson and the class's published quizzes
    (the same choices as homework, ``lesson:<slug>`` and ``quiz:<id>``)."""
    return task_choices(course.classroom, lang)


def linked_quiz(course: CourseClass, quiz_id: str) -> Quiz | None:
    """A published quiz of the course's class (a link to anything else leads nowhere)."""
    if not quiz_id.isdigit():
        return None
    return Quiz.objects.filter(pk=int(quiz_id), classroom=course.classroom, published_at__isnull=False).first()


def linked_lesson(slug: str) -> Lesson | None:
    return get_lesson(slug)

"""Reads of the LTI app: a teacher's LMS courses, what can be linked, what a link points to."""

from __future__ import annotations

from django.contrib.auth.models import User
from lti_tool.models import LtiContext

from skatschule.classrooms.selectors import is_id, task_choices
from skatschule.core.notfound import NotFound
from skatschule.jobs.models import PENDING, Job, JobStatus
from skatschule.quizzes.models import Quiz, QuizAttempt
from skatschule.quizzes.selectors.results import newest_overrides
from skatschule.training.lessons import Lesson, get_lesson

from . import platform
from .models import CourseClass, GradeTarget

__all__ = ["course_of", "own_course", "courses_taught", "link_choices", "linked_quiz", "linked_lesson", "unsent_scores"]


def course_of(context: LtiContext) -> CourseClass | None:
    return CourseClass.objects.filter(context=context).select_related("classroom").first()


def own_course(user: User, *, pk: object) -> CourseClass:
    """A course whose class the user teaches; ``NotFound`` for anyone else's."""
    found = (
        CourseClass.objects.filter(pk=int(str(pk)), classroom__teacher=user)
        .select_related("classroom", "context")
        .first()
        if is_id(value=pk)
        else None
    )
    if found is None:
        raise NotFound("no such course")
    return found


def courses_taught(user: User) -> list[CourseClass]:
    return list(CourseClass.objects.filter(classroom__teacher=user).select_related("classroom", "context"))


def link_choices(course: CourseClass, *, lang: str) -> list[tuple[str, list[tuple[str, str]]]]:
    """What a teacher can place in the LMS: every lesson and the class's published quizzes
    (the same choices as homework, ``lesson:<slug>`` and ``quiz:<id>``)."""
    return task_choices(course.classroom, lang=lang)


def linked_quiz(course: CourseClass, *, quiz_id: str) -> Quiz | None:
    """A published quiz of the course's class (a link to anything else leads nowhere)."""
    if not quiz_id.isdigit():
        return None
    return Quiz.objects.filter(pk=int(quiz_id), classroom=course.classroom, published_at__isnull=False).first()


def linked_lesson(*, slug: str) -> Lesson | None:
    return get_lesson(slug)


def unsent_scores(course: CourseClass) -> list[tuple[GradeTarget, QuizAttempt]]:
    """Submitted attempts of the course's quizzes, launched from the LMS, whose score job is neither
    done nor pending (it failed, or was never queued)."""
    targets = list(GradeTarget.objects.filter(quiz__classroom=course.classroom))
    if not targets:
        return []
    by_pair: dict[tuple[int, int], list[GradeTarget]] = {}
    for target in targets:
        by_pair.setdefault((target.quiz_id, target.student_id), []).append(target)
    submitted = list(
        QuizAttempt.objects.filter(
            quiz__classroom=course.classroom, student_id__in={t.student_id for t in targets}, submitted_at__isnull=False
        )
    )
    overrides = newest_overrides(attempt_ids=(attempt.pk for attempt in submitted))
    wanted = {
        platform.score_key(target, attempt, overrides.get(attempt.pk)): (target, attempt)
        for attempt in submitted
        for target in by_pair.get((attempt.quiz_id, attempt.student_id), [])
    }
    handled = set(
        Job.objects.filter(
            kind=platform.SCORE_JOB, key__in=list(wanted), status__in=[JobStatus.DONE, *PENDING]
        ).values_list("key", flat=True)
    )
    return [pair for key, pair in wanted.items() if key not in handled]

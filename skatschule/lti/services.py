"""Writes of the LTI app: site users for LMS users, the class of a course, the roster, where
scores go, and the jobs that send them. Keyword-only and atomic, like every service.

The protocol itself (checking a launch, keys, JWTs) is in :mod:`.launch` and ``lti_tool``.
"""

from __future__ import annotations

import hashlib
import logging
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify
from lti_tool.models import LtiContext, LtiMembership, LtiUser

from skatschule.classrooms import services as classrooms
from skatschule.classrooms.models import Membership
from skatschule.core.errors import UserError
from skatschule.jobs import services as jobs
from skatschule.jobs.models import Job
from skatschule.owners import Owner
from skatschule.quizzes.models import Quiz, QuizAttempt
from skatschule.quizzes.selectors.results import newest_overrides

from . import platform
from .models import NONCE_KEPT, CourseClass, GradeTarget, UsedNonce
from .selectors import unsent_scores

__all__ = [
    "LaunchRefused",
    "use_nonce",
    "site_user",
    "course_class",
    "enrol",
    "remember_grade_target",
    "sync_roster",
    "request_roster",
    "on_attempt_submitted",
    "resend_scores",
]

log = logging.getLogger(__name__)

_CLASS_NAME_MAX = 100


class LaunchRefused(UserError):
    """A launch the site does not accept (forged, replayed, expired, not configured): 4xx."""

    def __init__(self, de: str, en: str, status: int = 403) -> None:
        super().__init__(de, en)
        self.status = status


def use_nonce(*, issuer: str, nonce: str) -> None:
    """Mark the launch's nonce used; :class:`LaunchRefused` if it was used before (a replay)."""
    now = timezone.now()
    UsedNonce.objects.filter(used_at__lt=now - NONCE_KEPT).delete()
    try:
        with transaction.atomic():
            UsedNonce.objects.create(issuer=issuer[:255], nonce=nonce[:255], used_at=now)
    except IntegrityError:
        raise LaunchRefused(
            "Dieser Start aus der Lernplattform wurde schon einmal verwendet. Bitte starte die Aktivität "
            "in der Lernplattform neu.",
            "This launch from the learning platform has already been used. Please start the activity "
            "again in the learning platform.",
        ) from None


def _username(lti_user: LtiUser) -> str:
    """Readable for the teacher (the name from the LMS) and unique per platform and person."""
    digest = hashlib.sha256(f"{lti_user.registration_id}|{lti_user.sub}".encode()).hexdigest()[:8]
    stem = slugify(lti_user.name or f"{lti_user.given_name} {lti_user.family_name}".strip())[:40] or "lms"
    return f"{stem}-{digest}"


def site_user(*, lti_user: LtiUser) -> User:
    """The site's user for this LMS user: created at the first launch, the same ever after.

    They sign in only through the LMS (no password). Names come from the launch; no e-mail is kept.
    """
    with transaction.atomic():
        # of=("self",): PostgreSQL cannot lock the nullable side of the outer join to auth_user
        locked = LtiUser.objects.select_for_update(of=("self",)).select_related("auth_user").get(pk=lti_user.pk)
        known: User | None = locked.auth_user
        if known is not None:
            return known
        user = User(
            username=_username(locked),
            first_name=locked.given_name[:150],
            last_name=locked.family_name[:150],
        )
        user.set_unusable_password()
        user.save()
        locked.auth_user = user
        locked.save(update_fields=["auth_user", "datetime_modified"])
        return user


def course_class(*, context: LtiContext, teacher: User | None) -> CourseClass | None:
    """The class of this LMS course; a teacher's launch creates it (they teach it), a student's
    launch before that finds none."""
    found = CourseClass.objects.filter(context=context).select_related("classroom").first()
    if found is not None or teacher is None:
        return found
    classrooms.grant_teacher(user=teacher)
    name = (context.title or context.label or "Kurs")[:_CLASS_NAME_MAX]
    try:
        with transaction.atomic():
            classroom = classrooms.create_classroom(teacher=teacher, name=name)
            return CourseClass.objects.create(context=context, classroom=classroom)
    except IntegrityError:  # a concurrent launch of the same course created it first
        return CourseClass.objects.select_related("classroom").get(context=context)


def enrol(*, course: CourseClass, student: User) -> bool:
    """Put the student in the course's class (True if newly); the class's teacher stays teacher."""
    if course.classroom.teacher_id == student.pk:
        return False
    return classrooms.join(student=student, raw_code=course.classroom.join_code).created


def remember_grade_target(*, student: User, quiz: Quiz, lti_user: LtiUser, ags_claim: Any) -> GradeTarget | None:
    """Where this student's results of ``quiz`` go, if the launch grants posting scores to a line item."""
    if not isinstance(ags_claim, dict):
        return None
    scope = ags_claim.get("scope") or []
    url = ags_claim.get("lineitem")
    if platform.SCORE_SCOPE not in scope or not isinstance(url, str) or not url.startswith(("https://", "http://")):
        return None
    target, _ = GradeTarget.objects.update_or_create(
        student=student, quiz=quiz, lineitem_url=url[:500], defaults={"lti_user": lti_user}
    )
    return target


# --- names and roles --------------------------------------------------------------------------


def sync_roster(*, course: CourseClass, member_data: list[dict[str, Any]]) -> dict[str, int]:
    """Make the class match the course's roster: active learners in, the others out.

    Only students who came from this LMS are ever removed; one who joined with the class code
    stays. Quiz results stay either way (``classrooms.leave``).
    """
    context = course.context
    with transaction.atomic():
        context.update_memberships(member_data)  # lti_tool: LMS users and their roles
        listed = {str(member["user_id"]) for member in member_data}
        LtiMembership.objects.filter(context=context).exclude(user__sub__in=listed).update(is_active=False)
        wanted = LtiMembership.objects.filter(
            context=context, is_learner=True, is_active=True, user__sub__in=listed
        ).select_related("user")
        keep: set[int] = set()
        added = 0
        for membership in wanted:
            student = site_user(lti_user=membership.user)
            if student.pk == course.classroom.teacher_id:
                continue
            keep.add(student.pk)
            added += enrol(course=course, student=student)
        from_lms = LtiUser.objects.filter(registration=context.deployment.registration, auth_user__isnull=False)
        gone = (
            Membership.objects.filter(classroom=course.classroom, student_id__in=from_lms.values("auth_user_id"))
            .exclude(student_id__in=keep)
            .values_list("student_id", flat=True)
        )
        removed = 0
        for student_id in list(gone):
            removed += classrooms.leave(classroom=course.classroom, student_id=student_id)
        course.roster_synced_at = timezone.now()
        course.save(update_fields=["roster_synced_at"])
    return {"members": len(member_data), "learners": len(keep), "added": added, "removed": removed}


def request_roster(*, course: CourseClass, teacher: User) -> Job:
    """Queue a roster sync for the course (each request is a new one: the roster changes)."""
    return jobs.submit(
        owner=Owner.for_user(teacher),
        kind=platform.ROSTER_JOB,
        key=f"{course.pk}:{timezone.now().isoformat()}",
        payload={"course": course.pk},
    )


# --- assignment and grade services ------------------------------------------------------------


def _queue_score(target: GradeTarget, attempt: QuizAttempt) -> bool:
    """Queue one score (the student owns the job). False when their job limit is reached: the
    score then shows as not sent on the course page, from where the teacher sends it again."""
    try:
        jobs.submit(
            owner=Owner(user_id=attempt.student_id),
            kind=platform.SCORE_JOB,
            key=platform.score_key(target, attempt, newest_overrides(attempt_ids=[attempt.pk]).get(attempt.pk)),
            payload={"target": target.pk, "attempt": attempt.pk},
        )
    except jobs.LimitReached:
        log.warning("lti score for attempt %s not queued: the student's job limit is reached", attempt.pk)
        return False
    return True


def on_attempt_submitted(*, sender: Any, attempt: QuizAttempt, **kwargs: Any) -> None:
    """An attempt was submitted, or a teacher changed its score: queue its score for each line item
    its student launched it from."""
    for target in GradeTarget.objects.filter(student_id=attempt.student_id, quiz_id=attempt.quiz_id):
        _queue_score(target, attempt)


def resend_scores(*, course: CourseClass) -> int:
    """Queue again every score of the course that the LMS has not confirmed (a failed job, or none
    queued). Returns how many were queued."""
    return sum(_queue_score(target, attempt) for target, attempt in unsent_scores(course))

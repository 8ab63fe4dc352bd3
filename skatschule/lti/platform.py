"""Calls from the site to an LMS: the roster (names and roles) and scores (assignment and grade
services), through ``pylti1p3``'s service connector with a timeout on every request.

Both run in a job (:mod:`skatschule.jobs`), never inside a page request: a slow LMS keeps a
worker waiting, not a visitor.
"""

from __future__ import annotations

import logging
from typing import Any, Final

import requests
from lti_tool.models import LtiContext, LtiRegistration
from pylti1p3.assignments_grades import AssignmentsGradesService
from pylti1p3.grade import Grade
from pylti1p3.names_roles import NamesRolesProvisioningService
from pylti1p3.service_connector import REQUESTS_USER_AGENT, ServiceConnector

from skatschule.quizzes.models import QuizAttempt, ScoreOverride
from skatschule.quizzes.selectors.results import graded_result, newest_overrides
from skatschule.quizzes.selectors.taking import item_count

from .models import GradeTarget

__all__ = ["score_key", "SCORE_JOB", "ROSTER_JOB", "SCORE_SCOPE", "TIMEOUT_SECONDS", "members", "send_score"]

log = logging.getLogger(__name__)

SCORE_JOB = "lti.score"
ROSTER_JOB = "lti.roster"
SCORE_SCOPE: Final = "https://purl.imsglobal.org/spec/lti-ags/scope/score"
TIMEOUT_SECONDS = 10.0


def score_key(target: GradeTarget, attempt: QuizAttempt, override: ScoreOverride | None = None) -> str:
    """The job key of one attempt's score for one line item. A teacher's override of one of its
    answers (the newest, ``override``) makes a new key: the changed score is sent again."""
    key = f"{attempt.public_id}:{target.pk}"
    return f"{key}:{override.pk}" if override is not None else key


class _TimeoutSession(requests.Session):
    """``requests`` has no default timeout; the connector's calls get one here."""

    def request(self, *args: Any, **kwargs: Any) -> requests.Response:
        kwargs.setdefault("timeout", TIMEOUT_SECONDS)
        return super().request(*args, **kwargs)


def _connector(registration: LtiRegistration) -> ServiceConnector:
    session = _TimeoutSession()
    session.headers["User-Agent"] = REQUESTS_USER_AGENT
    return ServiceConnector(registration.to_registration(), requests_session=session)


def members(context: LtiContext) -> list[dict[str, Any]]:
    """The course's members as the LMS lists them (every page), or [] without the service."""
    if not context.memberships_url:
        return []
    service = NamesRolesProvisioningService(
        _connector(context.deployment.registration), {"context_memberships_url": context.memberships_url}
    )
    return [dict(member) for member in service.get_members()]


def send_score(payload: dict[str, Any]) -> dict[str, Any]:
    """Job ``lti.score``: post the submitted attempt's score to the student's line item.

    ``payload``: ``{"target": GradeTarget pk, "attempt": attempt pk}``. The score is the student's
    result under the quiz's grading policy (highest, last, first attempt or the average, with
    partial credit and overrides; ``scoreGiven`` of ``scoreMaximum`` = the quiz's item count), marked completed
    and fully graded, stamped with the submission time or the time of the teacher's newest override
    of the attempt, whichever is later (the LMS keeps the newest).
    """
    target = GradeTarget.objects.select_related("lti_user__registration").get(pk=payload["target"])
    attempt = QuizAttempt.objects.select_related("quiz").get(
        pk=payload["attempt"], quiz_id=target.quiz_id, student_id=target.student_id
    )
    if attempt.submitted_at is None or attempt.score is None:
        raise ValueError("the attempt is not submitted")
    override = newest_overrides(attempt_ids=[attempt.pk]).get(attempt.pk)
    stamp = max(attempt.submitted_at, override.at) if override is not None else attempt.submitted_at
    maximum = item_count(attempt.quiz)
    given = graded_result(attempt.quiz, student_id=attempt.student_id) or 0.0
    grade = (
        Grade()
        .set_score_given(given)
        .set_score_maximum(maximum)
        .set_timestamp(stamp.isoformat())
        .set_activity_progress("Completed")
        .set_grading_progress("FullyGraded")
        .set_user_id(target.lti_user.sub)
    )
    service = AssignmentsGradesService(
        _connector(target.lti_user.registration), {"scope": [SCORE_SCOPE], "lineitem": target.lineitem_url}
    )
    service.put_grade(grade)
    log.info("lti score sent: attempt %s, %s/%s", attempt.pk, given, maximum)
    return {"score": given, "maximum": maximum, "lineitem": target.lineitem_url}

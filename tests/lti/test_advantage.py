"""LTI Advantage against the simulated platform: deep linking, names and roles, grades."""

from __future__ import annotations

import re
from datetime import timedelta
from html import unescape
from typing import Any

import jwt
import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone
from jwcrypto.jwk import JWK
from lti_tool.models import Key, LtiRegistration, LtiUser
from pytest_django.fixtures import DjangoCaptureOnCommitCallbacks

from skatschule.classrooms import services as classrooms
from skatschule.classrooms.models import Membership
from skatschule.jobs.models import Job, JobStatus
from skatschule.lti.models import CourseClass
from skatschule.quizzes import questions
from skatschule.quizzes.models import Quiz, QuizAttempt
from skatschule.quizzes.services import attempts, grading
from skatschule.quizzes.services.authoring import create_quiz
from tests.present import present
from tests.quizzes.helpers import right_values, wrong_values

from .conftest import ANNA, BEN, CARL, TEACHER, launch
from .platform_sim import DL, LTI, Platform

pytestmark = pytest.mark.django_db


def _course(platform: Platform, registration: LtiRegistration, **token: Any) -> tuple[Client, CourseClass]:
    client = Client()
    assert launch(client, platform, registration, TEACHER, **token).status_code == 302
    return client, CourseClass.objects.get()


def _quiz(course: CourseClass, items: int = 3) -> Quiz:
    return create_quiz(
        owner=course.classroom.teacher,
        classroom=course.classroom,
        title="Augen zählen",
        pool=[("augen", 1)],
        item_count=items,
    )


def _tool_public_key(kid: str) -> bytes:
    jwk = next(k for k in Key.objects.as_jwks()["keys"] if k["kid"] == kid)
    pem: bytes = JWK(**jwk).export_to_pem()
    return pem


def test_deep_link_teacher_picks_a_quiz_and_the_lms_gets_a_signed_link(
    platform: Platform, registration: LtiRegistration
) -> None:
    _, course = _course(platform, registration, services=False)
    quiz = _quiz(course, items=4)
    client = Client()
    response = launch(client, platform, registration, TEACHER, message_type="LtiDeepLinkingRequest")
    assert response.status_code == 302 and response["Location"] == "/lti/auswahl/"
    page = client.get("/lti/auswahl/").content.decode()
    assert f'value="quiz:{quiz.pk}"' in page and 'value="lesson:' in page

    assert client.post("/lti/auswahl/", {"resource": "quiz:999999"}).status_code == 400  # not offered
    answer = client.post("/lti/auswahl/", {"resource": f"quiz:{quiz.pk}"})
    assert answer.status_code == 200
    assert f"form-action 'self' {platform.issuer}" in answer["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in answer["Content-Security-Policy"]
    html = answer.content.decode()
    assert f'action="{platform.url("/deep-link-return")}"' in html
    token = unescape(present(re.search(r'name="JWT" value="([^"]+)"', html)).group(1))
    kid = jwt.get_unverified_header(token)["kid"]
    claims = jwt.decode(token, _tool_public_key(kid), algorithms=["RS256"], audience=platform.issuer)
    assert claims["iss"] == platform.client_id
    assert claims[LTI + "message_type"] == "LtiDeepLinkingResponse"
    assert claims[LTI + "deployment_id"] == platform.deployment_id
    assert claims[DL + "data"] == "opaque-platform-data"
    (item,) = claims[DL + "content_items"]
    assert item["type"] == "ltiResourceLink" and item["title"] == "Augen zählen"
    assert item["url"] == "http://testserver/lti/start/"
    assert item["custom"] == {"skatschule": f"quiz:{quiz.pk}"}
    assert item["lineItem"] == {"scoreMaximum": 4, "label": "Augen zählen", "resourceId": f"quiz:{quiz.pk}"}
    # One choice per deep-linking launch.
    assert client.post("/lti/auswahl/", {"resource": f"quiz:{quiz.pk}"}).status_code == 403

    # The link the LMS stores opens the quiz for a student.
    launched = launch(Client(), platform, registration, ANNA, custom=item["custom"])
    assert launched["Location"] == f"/quiz/{quiz.pk}/start/"


def test_deep_link_to_a_lesson_has_no_grade_column(platform: Platform, registration: LtiRegistration) -> None:
    _course(platform, registration, services=False)
    client = Client()
    launch(client, platform, registration, TEACHER, message_type="LtiDeepLinkingRequest")
    first = present(re.search(r'value="(lesson:[^"]+)"', client.get("/lti/auswahl/").content.decode())).group(1)
    answer = client.post("/lti/auswahl/", {"resource": first}).content.decode()
    token = unescape(present(re.search(r'name="JWT" value="([^"]+)"', answer)).group(1))
    claims = jwt.decode(token, options={"verify_signature": False})
    (item,) = claims[DL + "content_items"]
    assert item["custom"] == {"skatschule": first} and "lineItem" not in item
    slug = first.removeprefix("lesson:")
    launched = launch(Client(), platform, registration, ANNA, custom=item["custom"])
    assert launched.status_code == 302 and launched["Location"].endswith(f"/lektion/{slug}/")


def test_only_the_teacher_deep_links(platform: Platform, registration: LtiRegistration) -> None:
    _course(platform, registration, services=False)
    response = launch(Client(), platform, registration, ANNA, message_type="LtiDeepLinkingRequest")
    assert response.status_code == 403


def test_roster_creates_and_refreshes_the_class(
    platform: Platform, registration: LtiRegistration, student: User
) -> None:
    platform.members = [TEACHER, ANNA, BEN, CARL]
    CARL.status = "Inactive"
    try:
        client, course = _course(platform, registration)  # the teacher's first launch syncs the roster
    finally:
        CARL.status = "Active"

    def names() -> list[str]:
        return sorted(m.student.first_name for m in Membership.objects.filter(classroom=course.classroom))

    assert names() == ["Anna", "Ben"]
    assert Job.objects.get(kind="lti.roster").status == JobStatus.DONE
    classrooms.join(student=student, raw_code=course.classroom.join_code)  # joined by code, not from the LMS

    platform.members = [TEACHER, BEN, CARL]  # Anna left the course, Carl is active now
    answer = client.post(f"/lti/kurs/{course.pk}/abgleichen/")
    assert answer.status_code == 302
    page = client.get(answer["Location"]).content.decode()
    assert "2 Lernende im Kurs, 1 neu in der Klasse, 1 entfernt" in page
    assert names() == ["", "Ben", "Carl"]  # "" is the student who joined by code: kept
    assert LtiUser.objects.get(sub=ANNA.sub).auth_user.classrooms_joined.count() == 0
    assert all(r["client_assertion"] for r in platform.token_requests)
    # Another teacher cannot sync this course.
    assert Client().post(f"/lti/kurs/{course.pk}/abgleichen/").status_code == 302  # to the login page


def test_grade_passback_when_the_student_submits(
    platform: Platform,
    registration: LtiRegistration,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    _, course = _course(platform, registration)
    quiz = _quiz(course, items=3)
    launch(Client(), platform, registration, ANNA, custom={"skatschule": f"quiz:{quiz.pk}"})
    anna = LtiUser.objects.get(sub=ANNA.sub).auth_user
    attempt = attempts.start_attempt(quiz=quiz, student=anna)
    items = list(quiz.items.order_by("position"))
    for item, right in zip(items, (True, False, True)):
        values = right_values(quiz, item, anna.pk) if right else wrong_values(quiz, item, anna.pk)
        attempts.save_answer(attempt=attempt, item=item, values=values)
    with django_capture_on_commit_callbacks(execute=True):
        attempts.submit(attempt=attempt)
    attempt.refresh_from_db()
    assert attempt.score == 2  # graded by the engine
    (score,) = platform.scores
    assert score["userId"] == ANNA.sub
    assert score["scoreGiven"] == 2 and score["scoreMaximum"] == 3
    assert score["activityProgress"] == "Completed" and score["gradingProgress"] == "FullyGraded"
    assert score["_lineitem"] == platform.lineitem_url
    job = Job.objects.get(kind="lti.score")
    assert job.status == JobStatus.DONE and job.user_id == anna.pk
    # Submitting again changes nothing: the score went once.
    with django_capture_on_commit_callbacks(execute=True):
        attempts.submit(attempt=QuizAttempt.objects.get(pk=attempt.pk))
    assert len(platform.scores) == 1


def test_no_grade_without_the_score_scope(
    platform: Platform,
    registration: LtiRegistration,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    _, course = _course(platform, registration, services=False)
    quiz = _quiz(course, items=1)
    launch(Client(), platform, registration, ANNA, custom={"skatschule": f"quiz:{quiz.pk}"}, services=False)
    anna = LtiUser.objects.get(sub=ANNA.sub).auth_user
    attempt = attempts.start_attempt(quiz=quiz, student=anna)
    with django_capture_on_commit_callbacks(execute=True):
        attempts.submit(attempt=attempt)
    assert platform.scores == [] and not Job.objects.filter(kind="lti.score").exists()


def test_an_unreachable_platform_fails_the_job_not_the_submission(
    platform: Platform,
    registration: LtiRegistration,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    _, course = _course(platform, registration, services=False)
    quiz = _quiz(course, items=1)
    student_client = Client()
    launch(student_client, platform, registration, ANNA, custom={"skatschule": f"quiz:{quiz.pk}"})
    anna = LtiUser.objects.get(sub=ANNA.sub).auth_user
    attempt = attempts.start_attempt(quiz=quiz, student=anna)
    platform.stop()  # the LMS is down when she submits
    with django_capture_on_commit_callbacks(execute=True):
        response = student_client.post(f"/quiz/versuch/{attempt.public_id}/abgeben/")
    assert response.status_code == 302 and response["Location"].endswith("/ergebnis/")
    job = Job.objects.get(kind="lti.score")
    assert job.status == JobStatus.FAILED and job.payload["attempt"] == attempt.pk
    assert QuizAttempt.objects.get(pk=attempt.pk).submitted_at is not None


def test_the_teacher_sends_unconfirmed_scores_again(
    platform: Platform,
    registration: LtiRegistration,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    teacher_client, course = _course(platform, registration, services=False)
    quiz = _quiz(course, items=2)
    launch(Client(), platform, registration, ANNA, custom={"skatschule": f"quiz:{quiz.pk}"})
    anna = LtiUser.objects.get(sub=ANNA.sub).auth_user
    attempt = attempts.start_attempt(quiz=quiz, student=anna)
    attempts.save_answer(
        attempt=attempt, item=quiz.items.get(position=1), values=right_values(quiz, quiz.items.get(position=1), anna.pk)
    )
    platform.refuse_scores = True
    with django_capture_on_commit_callbacks(execute=True):
        attempts.submit(attempt=attempt)
    assert platform.scores == [] and Job.objects.get(kind="lti.score").status == JobStatus.FAILED
    page = teacher_client.get(f"/lti/kurs/{course.pk}/").content.decode()
    assert "1 Ergebnis hat die Lernplattform noch nicht bestätigt." in page

    platform.refuse_scores = False
    answer = teacher_client.post(f"/lti/kurs/{course.pk}/noten-senden/", follow=True)
    assert "1 Ergebnis erneut gesendet." in answer.content.decode()
    assert "sind dort angekommen oder unterwegs" in answer.content.decode()
    (score,) = platform.scores
    assert score["userId"] == ANNA.sub and score["scoreGiven"] == 1 and score["scoreMaximum"] == 2
    # Nothing left to send: a second click sends nothing twice.
    teacher_client.post(f"/lti/kurs/{course.pk}/noten-senden/")
    assert len(platform.scores) == 1
    # Only the class's teacher may.
    assert Client().post(f"/lti/kurs/{course.pk}/noten-senden/").status_code == 302


def test_grade_passback_sends_the_quiz_grading_policy_result(
    platform: Platform,
    registration: LtiRegistration,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    """Highest attempt: a worse second attempt sends the first attempt's points again."""
    _, course = _course(platform, registration)
    quiz = create_quiz(
        owner=course.classroom.teacher,
        classroom=course.classroom,
        title="Augen zählen",
        pool=[("augen", 1)],
        item_count=2,
        variants="random",
        max_attempts=2,
        grading_policy="highest",
    )
    launch(Client(), platform, registration, ANNA, custom={"skatschule": f"quiz:{quiz.pk}"})
    anna = LtiUser.objects.get(sub=ANNA.sub).auth_user
    for rights in (2, 1):
        attempt = attempts.start_attempt(quiz=quiz, student=anna)
        for n, item in enumerate(quiz.items.order_by("position")):
            question = questions.question_for(quiz, item, anna.pk, attempt.number)
            right = questions.exercise_type(item.kind).correct_answer(question)
            values = right if n < rights else [str(int(right[0]) + 1)]
            attempts.save_answer(attempt=attempt, item=item, values=values)
        with django_capture_on_commit_callbacks(execute=True):
            attempts.submit(attempt=attempt)
    assert [QuizAttempt.objects.get(pk=a.pk).points for a in quiz.attempts.order_by("number")] == [2, 1]
    assert [s["scoreGiven"] for s in platform.scores] == [2, 2]


def test_a_teachers_override_sends_the_changed_score(
    platform: Platform,
    registration: LtiRegistration,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    """The LMS got 1 of 2; the teacher gives the wrong answer full credit: it gets 2 of 2, stamped
    later than the first score, and the course page has nothing left to send."""
    teacher_client, course = _course(platform, registration)
    quiz = _quiz(course, items=2)
    launch(Client(), platform, registration, ANNA, custom={"skatschule": f"quiz:{quiz.pk}"})
    anna = LtiUser.objects.get(sub=ANNA.sub).auth_user
    attempt = attempts.start_attempt(quiz=quiz, student=anna)
    first, second = quiz.items.order_by("position")
    attempts.save_answer(attempt=attempt, item=first, values=right_values(quiz, first, anna.pk))
    attempts.save_answer(attempt=attempt, item=second, values=wrong_values(quiz, second, anna.pk))
    with django_capture_on_commit_callbacks(execute=True):
        attempts.submit(attempt=attempt)
    assert [s["scoreGiven"] for s in platform.scores] == [1]

    wrong = attempt.answers.get(item=second)
    with django_capture_on_commit_callbacks(execute=True):
        grading.override_score(
            answer=wrong,
            teacher=course.classroom.teacher,
            credit=1.0,
            comment="Gut begründet.",
            now=timezone.now() + timedelta(minutes=5),
        )
    assert [s["scoreGiven"] for s in platform.scores] == [1, 2]
    assert platform.scores[1]["timestamp"] > platform.scores[0]["timestamp"]
    assert Job.objects.filter(kind="lti.score", status=JobStatus.DONE).count() == 2
    page = teacher_client.get(f"/lti/kurs/{course.pk}/").content.decode()
    assert "noch nicht bestätigt" not in page


def test_a_grade_of_an_unanswered_item_sends_the_changed_score(
    platform: Platform,
    registration: LtiRegistration,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    """Anna left item 2 unanswered (the LMS got 1 of 2); the teacher grades it with 0.5 after an oral
    answer on the attempt's page: the LMS gets 1.5 of 2, and nothing is left to send."""
    teacher_client, course = _course(platform, registration)
    quiz = _quiz(course, items=2)
    launch(Client(), platform, registration, ANNA, custom={"skatschule": f"quiz:{quiz.pk}"})
    anna = LtiUser.objects.get(sub=ANNA.sub).auth_user
    attempt = attempts.start_attempt(quiz=quiz, student=anna)
    first = quiz.items.get(position=1)
    attempts.save_answer(attempt=attempt, item=first, values=right_values(quiz, first, anna.pk))
    with django_capture_on_commit_callbacks(execute=True):
        attempts.submit(attempt=attempt)
    assert [s["scoreGiven"] for s in platform.scores] == [1]

    teacher = Client()
    teacher.force_login(course.classroom.teacher)
    url = f"/quiz/{quiz.pk}/ergebnisse/{attempt.pk}/aufgabe/2/punkte/"
    with django_capture_on_commit_callbacks(execute=True):
        assert teacher.post(url, {"credit": "0.5", "comment": "Mündlich halb"}).status_code == 302
    assert [(s["scoreGiven"], s["scoreMaximum"]) for s in platform.scores] == [(1, 2), (1.5, 2)]
    assert Job.objects.filter(kind="lti.score", status=JobStatus.DONE).count() == 2
    page = teacher_client.get(f"/lti/kurs/{course.pk}/").content.decode()
    assert "noch nicht bestätigt" not in page

"""The OIDC login and the launch against the simulated platform, and every way a launch is refused."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone
from lti_tool.models import Key, LtiDeployment, LtiRegistration, LtiUser

from skatschule.classrooms.models import Classroom, Membership
from skatschule.lti.models import CourseClass, GradeTarget, UsedNonce
from skatschule.quizzes.models import Quiz
from skatschule.quizzes.services.authoring import create_quiz

from .conftest import ANNA, TEACHER, launch, login_state
from .platform_sim import INSTRUCTOR, Person, Platform, new_key

CO_TEACHER = Person("t-101", "Otto", "Ober", [INSTRUCTOR])

pytestmark = pytest.mark.django_db


def _teacher_launch(platform: Platform, registration: LtiRegistration) -> tuple[Client, CourseClass]:
    client = Client()
    response = launch(client, platform, registration, TEACHER, services=False)
    course = CourseClass.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/lti/kurs/{course.pk}/"
    return client, course


def _quiz(course: CourseClass) -> Quiz:
    return create_quiz(
        owner=course.classroom.teacher,
        classroom=course.classroom,
        title="Augen zählen",
        pool=[("augen", 1)],
        item_count=3,
    )


def test_whole_launch_teacher_creates_the_class_student_lands_on_the_quiz(
    platform: Platform, registration: LtiRegistration
) -> None:
    teacher_client, course = _teacher_launch(platform, registration)
    teacher = course.classroom.teacher
    assert course.classroom.name == platform.context_title
    assert teacher.groups.filter(name="Lehrkräfte").exists()
    assert LtiUser.objects.get(sub=TEACHER.sub).auth_user == teacher
    assert teacher_client.get(f"/lti/kurs/{course.pk}/").status_code == 200
    quiz = _quiz(course)

    student_client = Client()
    response = launch(student_client, platform, registration, ANNA, custom={"skatschule": f"quiz:{quiz.pk}"})
    assert response.status_code == 302 and response["Location"] == f"/quiz/{quiz.pk}/start/"
    anna = LtiUser.objects.get(sub=ANNA.sub).auth_user
    assert anna.first_name == "Anna" and not anna.has_usable_password()
    assert Membership.objects.filter(classroom=course.classroom, student=anna).exists()
    target = GradeTarget.objects.get(student=anna, quiz=quiz)
    assert target.lineitem_url == platform.lineitem_url
    page = student_client.get(response["Location"])
    assert page.status_code == 200 and "Augen zählen" in page.content.decode()
    # The same person launching again is the same site user.
    launch(Client(), platform, registration, ANNA, custom={"skatschule": f"quiz:{quiz.pk}"})
    assert LtiUser.objects.get(sub=ANNA.sub).auth_user == anna


def test_a_second_instructor_is_not_made_a_student(platform: Platform, registration: LtiRegistration) -> None:
    _teacher_launch(platform, registration)
    response = launch(Client(), platform, registration, CO_TEACHER)
    assert response.status_code == 409 and "Karla Kreuz" in response.content.decode()
    assert not Membership.objects.exists()


def test_student_before_any_teacher_is_told_so(platform: Platform, registration: LtiRegistration) -> None:
    response = launch(Client(), platform, registration, ANNA)
    assert response.status_code == 409
    assert "noch keine Lehrkraft" in response.content.decode()


def test_a_quiz_of_another_class_is_not_reachable(
    platform: Platform, registration: LtiRegistration, teacher: User, classroom: Classroom
) -> None:
    _teacher_launch(platform, registration)
    other = create_quiz(owner=teacher, classroom=classroom, title="Fremd", pool=[("augen", 1)], item_count=1)
    response = launch(Client(), platform, registration, ANNA, custom={"skatschule": f"quiz:{other.pk}"})
    assert response.status_code == 404
    assert not GradeTarget.objects.exists()


@pytest.mark.parametrize(
    "forgery",
    [
        {"key": "other"},  # signed with a key that is not the platform's (same kid)
        {"aud": "someone-else"},  # meant for another tool
        {"nonce": "made-up-nonce"},  # a nonce our login never issued
        {"expires_in": -60},  # expired
    ],
    ids=["wrong-key", "wrong-audience", "wrong-nonce", "expired"],
)
def test_forged_launch_is_refused_with_a_clear_page(
    platform: Platform, registration: LtiRegistration, forgery: dict[str, Any]
) -> None:
    client = Client()
    state, nonce = login_state(client, platform, registration, TEACHER)
    token = {"nonce": nonce, **forgery}
    if token.get("key") == "other":
        token["key"] = new_key()
    id_token = platform.id_token(person=TEACHER, **token)
    response = client.post("/lti/start/", {"id_token": id_token, "state": state})
    assert response.status_code == 403
    body = response.content.decode()
    assert "Start abgelehnt" in body and "ließ sich nicht prüfen" in body
    assert not CourseClass.objects.exists() and not LtiUser.objects.exists()
    assert "_auth_user_id" not in client.session


def test_the_same_launch_is_not_taken_twice(platform: Platform, registration: LtiRegistration) -> None:
    client = Client()
    state, nonce = login_state(client, platform, registration, TEACHER)
    posted = {"id_token": platform.id_token(nonce=nonce, person=TEACHER), "state": state}
    assert client.post("/lti/start/", posted).status_code == 302
    replay = client.post("/lti/start/", posted)
    assert replay.status_code == 403 and "schon einmal verwendet" in replay.content.decode()
    # From another browser (no state cookie) it is refused as well.
    elsewhere = Client()
    assert elsewhere.post("/lti/start/", posted).status_code == 403
    assert "_auth_user_id" not in elsewhere.session


def test_used_nonces_are_kept_two_days(platform: Platform, registration: LtiRegistration) -> None:
    launch(Client(), platform, registration, TEACHER)
    UsedNonce.objects.update(used_at=timezone.now() - timedelta(days=2, minutes=1))  # any day
    launch(Client(), platform, registration, TEACHER)
    assert UsedNonce.objects.count() == 1 and UsedNonce.objects.get().used_at > timezone.now() - timedelta(minutes=1)


WELL_FORMED_STATE = "state-0b9f3c2e-5d4a-4e1f-9c3b-7a6d2e1f0c9b"
"""Shaped like a state of the login step, but never handed out."""


def test_a_refused_launch_keeps_whoever_is_signed_in(
    platform: Platform, registration: LtiRegistration, student: User
) -> None:
    client = Client()
    client.force_login(student)
    assert client.post("/lti/start/", {"id_token": "a.b.c", "state": WELL_FORMED_STATE}).status_code == 403
    assert client.post("/lti/start/", {"id_token": "a.b.c", "state": "x"}).status_code == 400
    assert client.session["_auth_user_id"] == str(student.pk)


def test_inactive_deployment_is_refused(platform: Platform, registration: LtiRegistration) -> None:
    LtiDeployment.objects.update(is_active=False)
    response = launch(Client(), platform, registration, TEACHER)
    assert response.status_code == 403 and "Deployment" in response.content.decode()


def test_bad_requests_get_a_4xx_page(platform: Platform, registration: LtiRegistration) -> None:
    client = Client()
    assert client.get("/lti/start/").status_code == 405
    assert client.post("/lti/start/", {}).status_code == 400
    assert client.post("/lti/start/", {"id_token": "a.b", "state": WELL_FORMED_STATE}).status_code == 403
    # a state the login step never hands out ("state-" and a UUID) is refused before the library
    # sees it (it makes cache keys of it)
    for junk in ("x", "state-" + "ä" * 300, "a\x00b", WELL_FORMED_STATE + "x", WELL_FORMED_STATE.upper()):
        refused = client.post("/lti/start/", {"id_token": "a.b.c", "state": junk})
        assert refused.status_code == 400 and "state" in refused.content.decode()
    assert client.get(f"/lti/login/{registration.uuid}/").status_code == 400
    unknown = client.get(
        f"/lti/login/{registration.uuid}/",
        {"iss": "https://nobody.example", "login_hint": "x", "target_link_uri": "http://testserver/lti/start/"},
    )
    assert unknown.status_code == 400
    assert client.get("/lti/auswahl/").status_code == 302  # to the login page: no launch, no user


def test_login_without_a_tool_key_says_so(platform: Platform, registration: LtiRegistration, tool_key: Key) -> None:
    tool_key.delete()
    response = Client().get(
        f"/lti/login/{registration.uuid}/",
        {"iss": platform.issuer, "login_hint": "x", "target_link_uri": "http://testserver/lti/start/"},
    )
    assert response.status_code == 503 and "rotate_keys" in response.content.decode()


def test_jwks_lists_the_tool_key(platform: Platform, registration: LtiRegistration, tool_key: Key) -> None:
    keys = Client().get("/lti/jwks.json").json()["keys"]
    assert [k["kid"] for k in keys] == [tool_key.as_jwk()["kid"]] and "d" not in keys[0]


def test_the_platform_is_configured_in_the_admin(admin_client: Client, registration: LtiRegistration) -> None:
    assert admin_client.get("/admin/lti_tool/ltiregistration/add/").status_code == 200
    page = admin_client.get(f"/admin/lti_tool/ltiregistration/{registration.pk}/change/").content.decode()
    assert registration.client_id in page and "deployment-1" in page  # the deployment inline
    assert admin_client.get("/admin/lti/courseclass/").status_code == 200

"""An LTI launch that ends with a grade sent back, in Debian's chromium.

The learning platform is the simulated one of tests/lti (own RSA key, JWKS, OIDC authorization,
token, names and roles, scores; on 127.0.0.1 in a thread). The tool is the live server, also
reached as 127.0.0.1, and the platform fetches the tool's keys from its JWKS URL.

1. The teacher opens the course from the platform: the class is created (and filled from the
   roster); the teacher lands on the course page.
2. A student follows the deep-linked quiz in the platform: OIDC login, signed launch, quiz start
   page; she answers (two right, one wrong, checked by the engine) and submits.
3. The platform has received her score: 2 of 3, completed and fully graded.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from lti_tool.models import Key, LtiDeployment, LtiRegistration, LtiUser
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from skatschule.lti.models import CourseClass
from skatschule.quizzes import questions
from skatschule.quizzes.models import QuizAttempt
from skatschule.quizzes.services.authoring import create_quiz
from tests.browser.answers import fill_answer
from tests.lti.conftest import ANNA, TEACHER
from tests.lti.platform_sim import Person, Platform
from tests.quizzes.helpers import right_values, wrong_values

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def platform(live_server: LiveServer) -> Iterator[Platform]:
    Key.objects.generate()
    tool = live_server.url.replace("://localhost", "://127.0.0.1")  # same site as the platform
    sim = Platform(tool_jwks_url=tool + "/lti/jwks.json").start()
    registration = LtiRegistration.objects.create(
        name="Simulierte Lernplattform",
        issuer=sim.issuer,
        client_id=sim.client_id,
        auth_url=sim.url("/auth"),
        token_url=sim.url("/token"),
        keyset_url=sim.url("/jwks"),
    )
    LtiDeployment.objects.create(registration=registration, deployment_id=sim.deployment_id, is_active=True)
    sim.tool_login_url = f"{tool}/lti/login/{registration.uuid}/"
    sim.tool_launch_url = f"{tool}/lti/start/"
    try:
        yield sim
    finally:
        sim.stop()


def _from_platform(page: Page, platform: Platform, person: Person) -> None:
    page.goto(platform.url(f"/start?login_hint={person.sub}"))
    page.get_by_role("button", name="Weiter zum Werkzeug").click()  # a real platform submits it by script


def test_lti_launch_ends_with_a_grade_sent_back(browser: Browser, platform: Platform) -> None:
    platform.members = [TEACHER, ANNA]
    platform.launches[TEACHER.sub] = {"person": TEACHER}
    teacher_ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="de-DE")
    teacher_ctx.set_default_timeout(15_000)
    t = teacher_ctx.new_page()
    _from_platform(t, platform, TEACHER)
    expect(t.get_by_role("heading", level=1)).to_have_text("Kurs der Lernplattform: Skat-AG 9b")
    course = CourseClass.objects.get()
    anna = LtiUser.objects.get(sub=ANNA.sub).auth_user  # from the roster, before her first launch
    assert course.classroom.memberships.filter(student=anna).exists()
    quiz = create_quiz(
        owner=course.classroom.teacher,
        classroom=course.classroom,
        title="Augen zählen",
        pool=[("augen", 1)],
        item_count=3,
        variants="random",  # own questions: the score is shown at once
    )

    platform.launches[ANNA.sub] = {"person": ANNA, "custom": {"skatschule": f"quiz:{quiz.pk}"}}
    student_ctx = browser.new_context(viewport={"width": 375, "height": 800}, locale="de-DE")
    student_ctx.set_default_timeout(15_000)
    a = student_ctx.new_page()
    _from_platform(a, platform, ANNA)
    expect(a.get_by_role("heading", level=1)).to_have_text("Augen zählen")
    a.get_by_role("button", name="Quiz beginnen").click()
    attempt = QuizAttempt.objects.get(student=anna)
    for item in quiz.items.order_by("position"):
        right = item.position != 2
        values = right_values(quiz, item, anna.pk) if right else wrong_values(quiz, item, anna.pk)
        form = a.locator(f"#item-{item.position} form")
        fill_answer(form, questions.question_for(quiz, item, anna.pk), values, item.position)
        a.locator(f"#save-{item.position}").click()
        expect(a.locator(f"#status-{item.position}")).to_contain_text("Gespeichert")
    a.get_by_role("button", name="Quiz abgeben").click()
    expect(a.get_by_role("heading", level=1)).to_contain_text("Mein Ergebnis")
    expect(a.locator("#score")).to_have_text("2 / 3")

    deadline = time.monotonic() + 10
    while not platform.scores and time.monotonic() < deadline:
        time.sleep(0.1)
    (score,) = platform.scores
    attempt.refresh_from_db()
    assert score["userId"] == ANNA.sub and score["scoreGiven"] == attempt.score == 2
    assert score["scoreMaximum"] == 3
    assert score["activityProgress"] == "Completed" and score["gradingProgress"] == "FullyGraded"
    teacher_ctx.close()
    student_ctx.close()

"""The deep-linking answer widens ``form-action`` for its one form: on that response only, to the
origin of the verified request's ``deep_link_return_url`` only (never a wildcard, never more).

The whole header is compared directive by directive with ``settings.CSP_POLICY``, so a return
URL that smuggles a second source or a second directive into the header shows up as a
difference, not only as a missing substring.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from lti_tool.models import LtiRegistration

from skatschule.lti.models import CourseClass
from skatschule.quizzes.models import Quiz
from skatschule.quizzes.services.authoring import create_quiz

from .conftest import TEACHER, launch
from .platform_sim import Platform

pytestmark = pytest.mark.django_db


def _directives(header: str) -> dict[str, list[str]]:
    """The policy as {directive: sources}; a directive named twice fails the test (a browser
    would use the first one, so a smuggled duplicate is never harmless)."""
    found: dict[str, list[str]] = {}
    for part in header.split(";"):
        words = part.split()
        if not words:
            continue
        assert words[0] not in found, f"{words[0]} twice in {header!r}"
        found[words[0]] = words[1:]
    return found


def _policy(**changed: list[str]) -> dict[str, list[str]]:
    """The site's policy as a header carries it, with ``changed`` directives (form_action=...)."""
    policy = {name: list(sources) for name, sources in settings.CSP_POLICY.items()}
    for name, sources in changed.items():
        policy[name.replace("_", "-")] = sources
    return policy


def _quiz(platform: Platform, registration: LtiRegistration) -> Quiz:
    assert launch(Client(), platform, registration, TEACHER, services=False).status_code == 302
    course = CourseClass.objects.get()
    return create_quiz(
        owner=course.classroom.teacher,
        classroom=course.classroom,
        title="Augen zählen",
        pool=[("augen", 1)],
        item_count=2,
    )


def _deep_link(platform: Platform, registration: LtiRegistration, return_url: str = "") -> Client:
    client = Client()
    response = launch(
        client, platform, registration, TEACHER, message_type="LtiDeepLinkingRequest", return_url=return_url
    )
    assert response.status_code == 302 and response["Location"] == "/lti/auswahl/"
    return client


def test_only_the_answer_posts_to_exactly_the_return_urls_origin(
    platform: Platform, registration: LtiRegistration
) -> None:
    quiz = _quiz(platform, registration)
    client = _deep_link(platform, registration, return_url=platform.url("/mod/lti/contentitem_return.php?course=7"))
    # the choice page itself and an ordinary page keep the site's policy
    assert _directives(client.get("/lti/auswahl/")["Content-Security-Policy"]) == _policy()
    assert _directives(client.get("/")["Content-Security-Policy"]) == _policy()
    answer = client.post("/lti/auswahl/", {"resource": f"quiz:{quiz.pk}"})
    assert answer.status_code == 200
    assert _directives(answer["Content-Security-Policy"]) == _policy(form_action=["'self'", platform.issuer])
    # and the next page of the same session is back to 'self'
    assert _directives(client.get("/")["Content-Security-Policy"]) == _policy()


def test_the_origin_is_scheme_host_and_port_in_lower_case(platform: Platform, registration: LtiRegistration) -> None:
    quiz = _quiz(platform, registration)
    client = _deep_link(platform, registration, return_url="HTTPS://LMS.Example.org:8443/dl-return?x=1#frag")
    answer = client.post("/lti/auswahl/", {"resource": f"quiz:{quiz.pk}"})
    assert answer.status_code == 200
    policy = _directives(answer["Content-Security-Policy"])
    assert policy == _policy(form_action=["'self'", "https://lms.example.org:8443"])


@pytest.mark.parametrize(
    "return_url",
    [
        "https://*/deep-link-return",  # a wildcard host: any https site
        "https://*.example.org/deep-link-return",
        "https://lms.example.org https:/deep-link-return",  # a second source: every https site
        "https://lms.example.org;frame-ancestors *",  # a second directive: framing by anyone
        "https://lms.example.org,frame-ancestors/x",
        "https://lms.example.org'/x",
        "https://teacher:secret@lms.example.org/deep-link-return",  # credentials in the address
        "https://lms.example.org:99999/deep-link-return",  # no such port
        "javascript://lms.example.org/%0aalert(1)",
        "https:///deep-link-return",
        "",
    ],
)
def test_a_return_url_that_is_no_plain_origin_widens_nothing(
    platform: Platform, registration: LtiRegistration, return_url: str
) -> None:
    quiz = _quiz(platform, registration)
    client = _deep_link(platform, registration, return_url=return_url or " ")
    answer = client.post("/lti/auswahl/", {"resource": f"quiz:{quiz.pk}"})
    assert answer.status_code == 400
    assert _directives(answer["Content-Security-Policy"]) == _policy()
    assert b'name="JWT"' not in answer.content


def test_no_widening_from_anything_the_browser_sends(platform: Platform, registration: LtiRegistration) -> None:
    """The origin comes from the signed launch kept on the server, never from the request."""
    quiz = _quiz(platform, registration)
    client = _deep_link(platform, registration)
    answer = client.post(
        "/lti/auswahl/",
        {
            "resource": f"quiz:{quiz.pk}",
            "deep_link_return_url": "https://evil.example/",
            "return_url": "https://evil.example/",
        },
        HTTP_ORIGIN="https://evil.example",
        HTTP_REFERER="https://evil.example/",
    )
    assert answer.status_code == 200
    assert _directives(answer["Content-Security-Policy"]) == _policy(form_action=["'self'", platform.issuer])
    # a teacher's ordinary launch (no deep-linking request in the session): refused, nothing widened
    plain = Client()
    assert launch(plain, platform, registration, TEACHER, services=False).status_code == 302
    refused = plain.post("/lti/auswahl/", {"resource": f"quiz:{quiz.pk}"})
    assert refused.status_code == 403
    assert _directives(refused["Content-Security-Policy"]) == _policy()


def test_report_only_mode_reports_the_same_policy(
    platform: Platform, registration: LtiRegistration, settings: Any
) -> None:
    settings.CONTENT_SECURITY_POLICY = None
    settings.CONTENT_SECURITY_POLICY_REPORT_ONLY = {"DIRECTIVES": settings.CSP_POLICY}
    quiz = _quiz(platform, registration)
    client = _deep_link(platform, registration)
    assert _directives(client.get("/")["Content-Security-Policy-Report-Only"]) == _policy()
    answer = client.post("/lti/auswahl/", {"resource": f"quiz:{quiz.pk}"})
    assert "Content-Security-Policy" not in answer
    policy = _directives(answer["Content-Security-Policy-Report-Only"])
    assert policy == _policy(form_action=["'self'", platform.issuer])

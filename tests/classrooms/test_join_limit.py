"""The limit on guessing join and invitation codes (skatschule.classrooms.join_limit).

The counters live in Django's cache (local memory in the tests), which outlives a test's
database rollback, so every test here starts and ends with an empty cache. The window's end
is tested by moving the clock (``time.time``, which the local-memory cache and the limiter
both read), never by waiting.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client, RequestFactory
from django.urls import reverse
from pytest_django.fixtures import Settings

from skatschule.classrooms import join_limit, services
from skatschule.classrooms.models import TEACHER_GROUP, Classroom, Membership, TeacherInvitation
from tests.people import client_for, make_user

pytestmark = pytest.mark.django_db

JOIN = reverse("classrooms:join")
INVITE = reverse("classrooms:become_teacher")
WRONG = "ZZZZZZZZ"  # well-formed, but no class has it (the fixture's code is random)


@pytest.fixture(autouse=True)
def _empty_cache() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def room(teacher: User) -> Classroom:
    room = services.create_classroom(teacher=teacher, name="Skatrunde")
    assert room.join_code != WRONG
    return room


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Callable[[float], None]:
    """Move time forward: ``clock(seconds)`` shifts ``time.time`` for the rest of the test."""
    real = time.time
    offset = [0.0]
    monkeypatch.setattr(time, "time", lambda: real() + offset[0])

    def advance(seconds: float) -> None:
        offset[0] += seconds

    return advance


def _guess_wrong(client: Client, times: int = 10, url: str = JOIN, code: str = WRONG, **extra: Any) -> None:
    for i in range(times):
        response = client.post(url, {"code": code}, **extra)
        assert response.status_code == 400, f"wrong code no. {i + 1} got {response.status_code}"


def test_ten_wrong_codes_then_even_the_right_code_is_refused(room: Classroom, student: User) -> None:
    client = client_for(student)
    _guess_wrong(client)
    response = client.post(JOIN, {"code": room.join_code})
    page = response.content.decode()
    assert response.status_code == 429
    assert "Zu viele falsche Codes in kurzer Zeit" in page and "warte 15 Minuten" in page
    assert "Zu viele Versuche" in page  # the title of the shared error page
    assert 15 * 60 - 5 <= int(response["Retry-After"]) <= 15 * 60  # seconds left; a slow machine ticks on
    assert not Membership.objects.filter(student=student).exists()
    # the join link refuses too, on the confirmation page and when confirming
    link = reverse("classrooms:join_code", kwargs={"code": room.join_code})
    assert client.get(link).status_code == 429
    assert client.post(link).status_code == 429
    assert not Membership.objects.filter(student=student).exists()


def test_the_refusal_in_english(room: Classroom, student: User) -> None:
    client = client_for(student)
    client.cookies["django_language"] = "en"
    _guess_wrong(client)
    response = client.post(JOIN, {"code": room.join_code})
    page = response.content.decode()
    assert response.status_code == 429
    assert "Too many wrong codes in a short time. Please wait 15 minutes before you try again." in page
    assert "Too many attempts" in page
    assert "Zu viele" not in page


def test_the_wait_shrinks_and_the_window_ends(room: Classroom, student: User, clock: Callable[[float], None]) -> None:
    client = client_for(student)
    _guess_wrong(client)
    clock(14 * 60 + 30)
    response = client.post(JOIN, {"code": room.join_code})
    assert response.status_code == 429 and "warte 1 Minute," in response.content.decode()
    assert 25 <= int(response["Retry-After"]) <= 30  # seconds left; a slow machine ticks on (it read 29)
    clock(31)  # now past the 15 minutes
    response = client.post(JOIN, {"code": room.join_code})
    assert response.status_code == 302
    assert Membership.objects.filter(student=student, classroom=room).exists()


def test_a_new_window_counts_from_zero(student: User, clock: Callable[[float], None]) -> None:
    client = client_for(student)
    _guess_wrong(client)
    clock(15 * 60 + 1)
    _guess_wrong(client)  # ten more wrong codes are allowed again, not one
    assert client.post(JOIN, {"code": WRONG}).status_code == 429


def test_counters_are_per_user(room: Classroom, student: User, other_student: User) -> None:
    """Both come from the same address (the test client's 127.0.0.1): only the guesser is stopped."""
    _guess_wrong(client_for(student))
    other = client_for(other_student)
    assert other.post(JOIN, {"code": WRONG}).status_code == 400
    assert other.post(JOIN, {"code": room.join_code}).status_code == 302
    assert Membership.objects.filter(student=other_student, classroom=room).exists()
    assert client_for(student).post(JOIN, {"code": room.join_code}).status_code == 429


def test_the_address_has_its_own_larger_limit(room: Classroom, settings: Settings) -> None:
    """Several accounts from one address: stopped after ADDRESS_FACTOR times the limit. The
    address is read like django-axes reads it: with PROXY_COUNT=1 the last X-Forwarded-For
    entry (the one our proxy wrote), so entries the client made up in front change nothing."""
    settings.PROXY_COUNT = 1
    for n in range(join_limit.ADDRESS_FACTOR):
        forged: dict[str, Any] = {"HTTP_X_FORWARDED_FOR": f"10.9.9.{n}, 203.0.113.7", "REMOTE_ADDR": "10.0.0.2"}
        _guess_wrong(client_for(make_user(f"rater{n}")), **forged)
    fresh = client_for(make_user("neu"))
    same: dict[str, Any] = {"HTTP_X_FORWARDED_FOR": "203.0.113.7", "REMOTE_ADDR": "10.0.0.2"}
    response = fresh.post(JOIN, {"code": room.join_code}, **same)
    assert response.status_code == 429 and "Zu viele falsche Codes" in response.content.decode()
    # the same proxy, another client behind it: not affected
    elsewhere: dict[str, Any] = {"HTTP_X_FORWARDED_FOR": "198.51.100.9", "REMOTE_ADDR": "10.0.0.2"}
    assert fresh.post(JOIN, {"code": room.join_code}, **elsewhere).status_code == 302


def test_a_right_code_before_the_limit_joins_and_does_not_count(room: Classroom, student: User) -> None:
    client = client_for(student)
    _guess_wrong(client, 9)
    response = client.post(JOIN, {"code": room.join_code})
    assert response.status_code == 302 and response["Location"] == reverse("quizzes:index")
    assert Membership.objects.filter(student=student, classroom=room).exists()
    _guess_wrong(client, 1)  # the tenth wrong code is still allowed: the join did not count
    assert client.post(JOIN, {"code": WRONG}).status_code == 429


def test_errors_that_are_not_guesses_do_not_count(room: Classroom, teacher: User) -> None:
    client = client_for(teacher)
    for _ in range(15):
        response = client.post(JOIN, {"code": room.join_code})  # the teacher's own class
        assert response.status_code == 400 and "eigene Klasse" in response.content.decode()


def test_wrong_join_links_count(room: Classroom, student: User) -> None:
    client = client_for(student)
    for i in range(10):
        assert client.get(reverse("classrooms:join_code", kwargs={"code": f"ABCDEFG{i + 2}"})).status_code == 404
    assert client.get(reverse("classrooms:join_code", kwargs={"code": room.join_code})).status_code == 429


def test_the_invitation_form_is_limited_too(student: User) -> None:
    TeacherInvitation.objects.create(code="PIKSIEBEN", uses_left=5)
    client = client_for(student)
    _guess_wrong(client, url=INVITE, code="falsch")
    response = client.post(INVITE, {"code": "piksieben"})
    assert response.status_code == 429 and "Zu viele falsche Codes" in response.content.decode()
    assert not student.groups.filter(name=TEACHER_GROUP).exists()
    assert TeacherInvitation.objects.get().uses_left == 5


def test_join_and_invitation_codes_share_the_counter(room: Classroom, student: User) -> None:
    client = client_for(student)
    _guess_wrong(client, 5)
    _guess_wrong(client, 5, url=INVITE, code="falsch")
    assert client.post(JOIN, {"code": room.join_code}).status_code == 429
    assert client.post(INVITE, {"code": "falsch"}).status_code == 429


def test_htmx_gets_the_form_with_the_message(room: Classroom, student: User) -> None:
    client = client_for(student)
    _guess_wrong(client)
    response = client.post(JOIN, {"code": room.join_code}, HTTP_HX_REQUEST="true")
    page = response.content.decode()
    assert response.status_code == 429
    assert 'id="join-error"' in page and "Zu viele falsche Codes" in page  # the form's own error slot
    assert "Retry-After" in response
    invite = client.post(INVITE, {"code": "x"}, HTTP_HX_REQUEST="true")
    assert invite.status_code == 429 and 'id="invite-error"' in invite.content.decode()


def test_tries_in_progress_count(student: User) -> None:
    """Parallel requests: a try holds its slot while its code is checked, so the eleventh of
    eleven simultaneous tries is refused although none has failed yet."""
    request = RequestFactory().post(JOIN, REMOTE_ADDR="192.0.2.1")
    request.user = student
    with ExitStack() as running:
        for _ in range(10):
            running.enter_context(join_limit.attempt(request))
        with pytest.raises(join_limit.TooManyAttempts):
            running.enter_context(join_limit.attempt(request))
    # all ten turned out right: their slots are free again
    with join_limit.attempt(request):
        pass


def test_the_numbers_are_settings(room: Classroom, student: User, settings: Settings) -> None:
    settings.CLASS_JOIN_FAILURE_LIMIT = 3
    settings.CLASS_JOIN_WINDOW_MINUTES = 2
    client = client_for(student)
    _guess_wrong(client, 3)
    response = client.post(JOIN, {"code": room.join_code})
    assert response.status_code == 429 and "warte 2 Minuten" in response.content.decode()

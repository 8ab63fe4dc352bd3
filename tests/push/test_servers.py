"""Push across processes and lost connections, over real HTTP against ``manage.py serve`` (uvicorn).

- With ``REDIS_URL`` two web processes share one Redis: a learner's answer sent to one reaches
  the projector's stream held open by the other.
- A stream that was cut and opened again starts with the state as it is: nothing raised while
  it was away is missed (here: an answer given while the projector was offline).
"""

from __future__ import annotations

import http.cookiejar
import os
import urllib.parse
import urllib.request

import pytest
import redis
from django.test import Client

from skatschule.classrooms import services as classrooms
from skatschule.quizzes.models import Quiz
from skatschule.quizzes.services import authoring, live
from tests.people import make_user
from tests.production.servers import Browser
from tests.push.servers import Stream, served
from tests.quizzes.helpers import right_values

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

REDIS = os.environ.get("PUSH_TEST_REDIS", "redis://127.0.0.1:6379/13")
"""A Redis database of this test's own (the shared server's db 13; the test empties nothing)."""


def _round(students: int) -> tuple[Quiz, dict[str, str], list[dict[str, str]]]:
    """A live round showing its first item; the session cookies of the teacher and the students."""
    teacher = make_user("frau-pik", teacher=True)
    room = classrooms.create_classroom(teacher=teacher, name="Skat-AG")
    names = [make_user(f"kind{i}") for i in range(students)]
    for student in names:
        classrooms.join(student=student, raw_code=room.join_code)
    quiz = authoring.create_quiz(owner=teacher, classroom=room, title="Live", pool=[("augen", 1)], item_count=1)
    session = live.start_live(quiz=quiz, teacher=teacher)
    live.show_item(session=session, teacher=teacher, position=1)

    def cookies(user: object) -> dict[str, str]:
        client = Client()
        client.force_login(user)  # type: ignore[arg-type]
        return {"sessionid": client.cookies["sessionid"].value}

    return quiz, cookies(teacher), [cookies(s) for s in names]


def _answer(base: str, quiz: Quiz, cookies: dict[str, str]) -> None:
    """A student answers the first item through ``base`` (the join page first, for the CSRF cookie)."""
    browser = Browser()
    host = urllib.parse.urlparse(base).hostname or "127.0.0.1"
    for name, value in cookies.items():
        browser.jar.set_cookie(_cookie(name, value, host))
    status, _ = browser.request(f"{base}/quiz/{quiz.pk}/mitmachen/")
    assert status == 200
    values = right_values(quiz, quiz.items.get(position=1), None)
    status, _ = browser.request(
        f"{base}/quiz/{quiz.pk}/mitmachen/antwort/", [("position", "1")] + [("answer", v) for v in values]
    )
    assert status == 302


def _cookie(name: str, value: str, host: str) -> http.cookiejar.Cookie:

    return http.cookiejar.Cookie(
        0, name, value, None, False, host, False, False, "/", True, False, None, False, None, None, {}
    )


def test_an_answer_sent_to_one_web_process_reaches_the_projector_on_another() -> None:
    try:
        redis.Redis.from_url(REDIS).ping()
    except redis.RedisError:
        pytest.skip(f"no Redis at {REDIS}")
    quiz, teacher, (student,) = _round(1)
    with served({"REDIS_URL": REDIS, "CACHE_KEY_PREFIX": "push-test"}, count=2, worker=False) as (one, other):
        stream = Stream(f"{other}/quiz/{quiz.pk}/live/ereignisse/", teacher)
        try:
            assert "0 von 0 haben geantwortet" in stream.next_named("count").data  # the state at once
            _answer(one, quiz, student)
            assert "1 von 1 haben geantwortet" in stream.next_named("count").data  # pushed from the other
        finally:
            stream.close()


def test_a_stream_opened_again_catches_up_with_what_happened_meanwhile() -> None:
    quiz, teacher, students = _round(2)
    with served(worker=False) as (base,):
        url = f"{base}/quiz/{quiz.pk}/live/ereignisse/"
        stream = Stream(url, teacher)
        assert "0 von 0" in stream.next_named("count").data
        _answer(base, quiz, students[0])
        assert "1 von 1 haben geantwortet" in stream.next_named("count").data
        stream.close()  # the connection is cut ...
        _answer(base, quiz, students[1])  # ... while an answer comes in
        again = Stream(url, teacher)  # EventSource reconnects: the first message is the state now
        try:
            assert "2 von 2 haben geantwortet" in again.next_named("count").data
        finally:
            again.close()

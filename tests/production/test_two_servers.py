"""Two app servers, one PostgreSQL: the app keeps no state in its processes.

One user logs in on server A; the same session cookie then answers exercises alternately on
A and B and reads the progress page on both: every answer counts, whichever server took it.
With ``SKATSCHULE_TEST_REDIS`` set (``.ci/run`` does that when Redis answers) it runs again
with cache and sessions in Redis.
"""

from __future__ import annotations

import os
import re

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.contrib.auth.models import User
from django.db import connection

from skatschule.owners import Owner
from skatschule.training.models import Attempt, IssuedExercise
from skatschule.training.registry import get_type
from skatschule.training.selectors import progress
from tests.present import present
from tests.training.helpers import right_answer, wrong_answer

from .servers import Browser, database_url, gunicorn

pytestmark = [pytest.mark.postgres, pytest.mark.slow, pytest.mark.django_db(transaction=True)]
PASSWORD = "zwei-server-ein-spieler"
ANSWER_URL = re.compile(r'hx-post="(/ueben/antwort/[0-9a-f-]{36}/)"')


@pytest.fixture(autouse=True)
def _fast_password_hashing() -> None:
    """Overrides the conftest fixture: the app servers check passwords with the real hashers."""


STORES = ["database"] + (["redis"] if os.environ.get("SKATSCHULE_TEST_REDIS") else [])


def _answered_count(html: str) -> int:
    """The dashboard's number of answers (the first <dd> after "Antworten")."""
    found = re.search(r"Antworten</dt>\s*<dd>(\d+)</dd>", html)
    assert found, "no answer count on the progress page"
    return int(found.group(1))


def _server_user(username: str) -> User:
    """A user the servers can log in: they run the production settings, whose hashers do not
    include the tests' fast MD5 one (tests/conftest.py), so the password is hashed with PBKDF2."""
    user = get_user_model().objects.create_user(username)
    hasher = PBKDF2PasswordHasher()
    user.password = hasher.encode(PASSWORD, hasher.salt())
    user.save(update_fields=["password"])
    return user


@pytest.mark.parametrize("store", STORES)
def test_progress_is_the_same_on_both_servers(store: str) -> None:
    user = _server_user("zweiserver")
    env = {
        "DATABASE_URL": database_url(connection.settings_dict),
        "DEBUG": "1",
        "SECRET_KEY": "two-servers-share-this-secret-key-" + "x" * 30,
        "CONN_MAX_AGE": "0",
        "REDIS_URL": os.environ.get("SKATSCHULE_TEST_REDIS", "") if store == "redis" else "",
        "CACHE_KEY_PREFIX": f"twoservers-{os.getpid()}",
    }
    with gunicorn(env, count=2) as (a, b):
        browser = Browser()
        browser.login(a, "zweiserver", PASSWORD)
        expected_right = 0
        for n in range(6):
            here = (a, b)[n % 2]
            status, html = browser.request(here + "/ueben/aufgabe/augen/")
            assert status == 200
            url = present(ANSWER_URL.search(html)).group(1)
            issued = IssuedExercise.objects.get(public_id=url.split("/")[-2])
            assert issued.user_id == user.pk  # the session was recognised by this server
            correct = n % 3 != 2
            values = right_answer(issued) if correct else wrong_answer(issued)
            there = (b, a)[n % 2]  # answer on the *other* server than the one that issued it
            status, fragment = browser.request(there + url, {"answer": values}, {"HX-Request": "true"})
            assert status == 200, fragment[:500]
            expected_right += correct
            # a double submit on the first server records nothing new
            status, _ = browser.request(here + url, {"answer": values}, {"HX-Request": "true"})
            assert status == 200

        assert Attempt.objects.filter(user=user).count() == 6
        summary = progress(owner=Owner.for_user(user))
        assert (summary.attempts, summary.right) == (6, expected_right)
        for base in (a, b):
            status, html = browser.request(base + "/ueben/fortschritt/")
            assert status == 200 and "zweiserver" in html
            assert _answered_count(html) == 6


def test_quiz_answers_are_the_same_on_both_servers() -> None:
    """A student starts a quiz on A, answers alternately on B and A, submits on B: all counted."""
    from skatschule.classrooms import services as classrooms
    from skatschule.quizzes import questions
    from skatschule.quizzes.models import QuizAnswer, QuizAttempt
    from skatschule.quizzes.services import authoring

    User = get_user_model()
    teacher = User.objects.create_user("lehrerin")
    classrooms.grant_teacher(user=teacher)
    room = classrooms.create_classroom(teacher=teacher, name="Skatgruppe Dienstag")
    student = _server_user("schueler")
    classrooms.join(student=student, raw_code=room.join_code)
    quiz = authoring.create_quiz(
        owner=teacher, classroom=room, title="Zwei Server", pool=[("augen", 1), ("spitzen", 1)], item_count=4
    )
    items = list(quiz.items.order_by("position"))

    env = {
        "DATABASE_URL": database_url(connection.settings_dict),
        "DEBUG": "1",
        "SECRET_KEY": "two-servers-share-this-secret-key-" + "x" * 30,
        "CONN_MAX_AGE": "0",
        "REDIS_URL": "",
    }
    with gunicorn(env, count=2) as (a, b):
        browser = Browser()
        browser.login(b, "schueler", PASSWORD)
        status, _ = browser.request(f"{a}/quiz/{quiz.pk}/start/", {})
        assert status == 302
        attempt = QuizAttempt.objects.get(student=student)
        right = 0
        for n, item in enumerate(items):
            here = (b, a)[n % 2]
            question = questions.question_for(quiz, item, student.pk)
            correct = present(get_type(item.kind)).correct_answer(question)
            values = correct
            if n == 1 and question.widget == "number":
                values = [str(int(correct[0]) + 1)]  # one wrong answer
            status, body = browser.request(
                f"{here}/quiz/versuch/{attempt.public_id}/antwort/{item.position}/",
                {"answer": values},
                {"HX-Request": "true"},
            )
            assert status == 200, body[:300]
            right += questions.grade_for_display(quiz, item, student.pk, values).correct
        status, html = browser.request(f"{a}/quiz/versuch/{attempt.public_id}/")
        assert status == 200
        status, _ = browser.request(f"{b}/quiz/versuch/{attempt.public_id}/abgeben/", {})
        assert status == 302
        status, _ = browser.request(f"{a}/quiz/versuch/{attempt.public_id}/abgeben/", {})  # again: no change
        assert status == 302
        attempt.refresh_from_db()
        assert QuizAnswer.objects.filter(attempt=attempt).count() == len(items)
        assert attempt.submitted_at is not None and attempt.score == right
        status, html = browser.request(f"{b}/quiz/versuch/{attempt.public_id}/ergebnis/")
        assert status == 200

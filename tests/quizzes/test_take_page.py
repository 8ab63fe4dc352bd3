"""The quiz being taken: its items are rendered once per process and kept (quizzes/take_page.py);
what a kept item shows must be what a fresh render shows, with the request's own CSRF token,
the student's latest saved values, the language and the deck of this request."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from skatschule.quizzes import take_page
from skatschule.quizzes.models import Quiz
from skatschule.quizzes.services import attempts
from tests.people import client_for

from .helpers import right_values

pytestmark = pytest.mark.django_db

FORM = re.compile(r'<form class="answer-form".*?</form>', re.S)


def _take(client: Client, public_id: Any) -> str:
    response = client.get(reverse("quizzes:take", kwargs={"public_id": public_id}))
    assert response.status_code == 200
    return str(response.content.decode())


def _items(page: str) -> str:
    """The items of the page, with the CSRF tokens (masked anew for each request) left out."""
    page = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', 'name="csrfmiddlewaretoken"', page)
    return page[page.index('<div class="quiz-items"') : page.index('<form method="post"', page.index("quiz-items"))]


def test_a_kept_item_is_what_a_fresh_render_shows(make_quiz: Callable[..., Quiz], student: User) -> None:
    quiz = make_quiz(count=5, kinds=("augen", "spielwert", "stich", "spitzen"))
    attempt = attempts.start_attempt(quiz=quiz, student=student)
    client = client_for(student)
    take_page.clear_cache()
    fresh = _items(_take(client, attempt.public_id))
    kept = _items(_take(client, attempt.public_id))
    assert len(FORM.findall(kept)) == 5
    assert take_page._TOKEN not in kept
    assert kept == fresh


def test_each_request_gets_its_own_csrf_token_and_the_form_saves_without_javascript(
    make_quiz: Callable[..., Quiz], student: User
) -> None:
    quiz = make_quiz(count=2, kinds=("augen",))
    attempt = attempts.start_attempt(quiz=quiz, student=student)
    first = Client(enforce_csrf_checks=True)
    first.force_login(student)
    second = Client(enforce_csrf_checks=True)
    second.force_login(student)
    tokens = []
    for client in (first, second):
        forms = "".join(FORM.findall(_take(client, attempt.public_id)))
        found = set(re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', forms))
        assert len(found) == 1  # one token in every item's form
        tokens.append(found.pop())
    item = quiz.items.get(position=1)
    url = reverse("quizzes:save", kwargs={"public_id": attempt.public_id, "position": 1})
    values = right_values(quiz, item, student.pk)
    # the other browser's token is no token here: each page carries its own visitor's
    assert first.post(url, {"csrfmiddlewaretoken": tokens[1], "answer": values}).status_code == 403
    saved = first.post(url, {"csrfmiddlewaretoken": tokens[0], "answer": values})
    assert saved.status_code == 302


def test_a_saved_answer_shows_on_the_next_load(make_quiz: Callable[..., Quiz], student: User) -> None:
    quiz = make_quiz(count=3, kinds=("augen",))
    attempt = attempts.start_attempt(quiz=quiz, student=student)
    client = client_for(student)
    before = _take(client, attempt.public_id)
    assert 'class="saved-note"' not in before
    item = quiz.items.get(position=2)
    value = right_values(quiz, item, student.pk)[0]
    attempts.save_answer(attempt=attempt, item=item, values=[str(int(value) + 1)])
    after = FORM.findall(_take(client, attempt.public_id))
    assert f'value="{int(value) + 1}"' in after[1]
    assert 'value="' + str(int(value) + 1) + '"' not in after[0] + after[2]
    attempts.save_answer(attempt=attempt, item=item, values=[value])
    again = _take(client, attempt.public_id)
    assert f'value="{value}"' in FORM.findall(again)[1]
    assert again.count('class="saved-note"') == 1


def test_language_and_deck_are_those_of_the_request(make_quiz: Callable[..., Quiz], student: User) -> None:
    quiz = make_quiz(count=2, kinds=("stich",))
    attempt = attempts.start_attempt(quiz=quiz, student=student)
    client = client_for(student)
    german = _items(_take(client, attempt.public_id))
    assert "Antwort speichern" in german and "card-french" in german
    client.cookies["django_language"] = "en"
    english = _items(_take(client, attempt.public_id))
    assert "Save answer" in english and "Antwort speichern" not in english
    client.cookies["skatschule_deck"] = "german"
    deck = _items(_take(client, attempt.public_id))
    assert "card-german" in deck and "card-french" not in deck


def test_the_take_page_reads_the_same_with_more_items_and_answers(
    make_quiz: Callable[..., Quiz], student: User, django_assert_max_num_queries: Any
) -> None:
    def loaded(count: int) -> tuple[Client, Any]:
        quiz = make_quiz(count=count, kinds=("augen", "spielwert"), title=f"Quiz {count}")
        attempt = attempts.start_attempt(quiz=quiz, student=student)
        for item in list(quiz.items.all())[: count // 2]:
            attempts.save_answer(attempt=attempt, item=item, values=right_values(quiz, item, student.pk))
        client = client_for(student)
        _take(client, attempt.public_id)
        return client, attempt.public_id

    client, small = loaded(2)
    with CaptureQueriesContext(connection) as queries:
        _take(client, small)
    few = len(queries)  # now: the log behind it is emptied by the next requests
    client, large = loaded(20)
    with django_assert_max_num_queries(few):
        _take(client, large)

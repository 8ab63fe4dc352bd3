"""The items of the quiz being taken, as HTML, each item rendered once per process.

The page of an attempt shows every item with its question and form. An item's HTML is fixed by
its inputs: the question (quiz, item, student, attempt number: the seed), the student's own saved
values, the language and the deck; only the CSRF token differs from request to request. Without
JavaScript every saved answer reloads the whole page, and rendering 20 items with their cards
costs about four times the rest of the page. So each item is rendered once with a placeholder for
the token and kept in a small per-process LRU table (:data:`CACHE_SIZE` items, a few kB each); a
later request fills in its own token. Nothing here is shared between people: the key holds the
attempt, and the fragment holds only what the page showed this student anyway (never an answer:
the form shows the question's options and the student's own values).

Not kept: items with feedback (quizzes that show the right answer right after each answer: the
credit can change with a teacher's override) and a teacher's own items (their text can be
edited); they are rendered each time, as before.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from typing import Any

from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.template.loader import get_template
from django.urls import reverse
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

from skatschule.cards.context_processors import current_deck
from skatschule.core.language import current_lang

from . import questions
from .models import QuizAnswer, QuizAttempt, QuizItem
from .presenters import earned, present_item, saved_values

CACHE_SIZE = 1024
"""Rendered items kept per process (one quiz of 20 items is 20; an item is about 3 to 15 kB)."""

# letters and digits only: escaping leaves it as it is, and no question text contains it
_TOKEN = "qzph0csrf0w7m4"

_lock = threading.Lock()
_items: OrderedDict[tuple[Any, ...], str] = OrderedDict()


def clear_cache() -> None:
    with _lock:
        _items.clear()


def _key(item: QuizItem, attempt: QuizAttempt, answer: QuizAnswer | None, lang: str, deck: str) -> Any:
    """Everything the item's HTML depends on, or None for an item that is rendered each time."""
    quiz = attempt.quiz
    if item.kind.startswith("eigen-"):
        return None
    return (
        # the question: what derive_seed and the generator read
        quiz.pk,
        quiz.variants,
        quiz.secret,
        item.pk,
        item.position,
        item.kind,
        item.difficulty,
        item.seed,
        attempt.pk,
        attempt.public_id,
        attempt.student_id,
        attempt.number,
        # the student's own saved values, and whether there is a saved answer at all
        answer is not None,
        tuple(saved_values(answer)),
        lang,
        deck,
    )


def _render(request: HttpRequest, entry: Mapping[str, Any]) -> str:
    context = {**entry, "preview": False, "csrf_token": _TOKEN}
    return str(get_template("quizzes/partials/item.html").render(context, request))


def items_html(
    request: HttpRequest,
    *,
    attempt: QuizAttempt,
    items: Iterable[QuizItem],
    answers: Mapping[int, QuizAnswer],
    immediate: bool,
) -> SafeString:
    """The HTML of the attempt's items in their order, in this request's language and deck, with its CSRF token."""
    quiz = attempt.quiz
    lang = current_lang()
    deck = current_deck(request)
    parts = []
    for item in items:
        answer = answers.get(item.pk)
        feedback = None
        if immediate and answer is not None:
            feedback = questions.grade_for_display(quiz, item, attempt.student_id, answer.values, attempt.number)
        key = None if feedback is not None else _key(item, attempt, answer, lang, deck)
        html = None
        if key is not None:
            with _lock:
                html = _items.get(key)
                if html is not None:
                    _items.move_to_end(key)
        if html is None:
            entry = present_item(
                quiz,
                item,
                attempt.student_id,
                lang,
                saved=saved_values(answer),
                feedback=feedback,
                attempt=attempt.number,
                earned=earned(answer),
            )
            entry["save_url"] = reverse(
                "quizzes:save", kwargs={"public_id": attempt.public_id, "position": item.position}
            )
            entry["answer"] = answer
            html = _render(request, entry)
            if key is not None:
                with _lock:
                    _items[key] = html
                    while len(_items) > CACHE_SIZE:
                        _items.popitem(last=False)
        parts.append(html)
    token = str(conditional_escape(get_token(request)))
    return mark_safe("".join(parts).replace(_TOKEN, token))  # noqa: S308 - rendered by the template, token escaped

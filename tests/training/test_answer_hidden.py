"""The answer is never in the page before the learner submits.

For every exercise type in REGISTRY (and the fakes) and each level, GET the practice page,
re-generate the question from the issued exercise's seed and check the rendered HTML:

- no hidden input except the CSRF token (the uuid is in the form's URL);
- nothing pre-checked or pre-selected;
- no attribute name that smells of an answer (``data-answer``, ``data-correct`` ...);
- whatever attribute carries one option's value carries every option's value equally often,
  so nothing singles out the right options (only the visible options carry the answer);
- every value of the correct answer is one of the visible options;
- for ``number`` widgets the correct number does not appear inside the ``<form>`` at all, and
  for ``case`` widgets (a choice plus a typed-in list entry) the entry does not either;
- the feedback area is empty.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from html.parser import HTMLParser

import pytest
from django.test import Client
from django.urls import reverse

from skatschule.exercises.base import ExerciseType, Question
from skatschule.training.models import IssuedExercise
from skatschule.training.registry import exercise_types
from skatschule.training.services.issuing import question_for

from .fakes import FAKE_TYPES

SEEDS_PER_LEVEL = 3
SUSPICIOUS = re.compile(r"answer|correct|solution|loesung|lösung|richtig|right", re.I)


class FormScan(HTMLParser):
    """Collect the start tags inside the answer form, and its raw text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.depth = 0
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.page_attr_names: set[str] = set()
        self.text: list[str] = []
        self.forms = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        self.page_attr_names.update(name for name, _ in attrs)
        if tag == "form" and "answer-form" in (attributes.get("class") or ""):
            self.depth = 1
            self.forms += 1
            self.tags.append((tag, attributes))
            return
        if self.depth:
            self.tags.append((tag, attributes))
            if tag == "form":
                self.depth += 1

    def handle_endtag(self, tag: str) -> None:
        if self.depth and tag == "form":
            self.depth -= 1

    def handle_data(self, data: str) -> None:
        if self.depth:
            self.text.append(data)


def _tokens(value: str) -> list[str]:
    return [value, *value.split()] if " " in value else [value]


def check_page(html: str, question: Question, correct: list[str], public_id: str) -> None:  # noqa: C901 - a test helper over the budget since issue 27; to be split
    correct = [str(v) for v in correct]
    scan = FormScan()
    scan.feed(html)
    assert scan.forms == 1, "exactly one answer form"

    hidden = [a for t, a in scan.tags if t == "input" and (a.get("type") or "").lower() == "hidden"]
    assert [a.get("name") for a in hidden] == ["csrfmiddlewaretoken"], hidden

    for tag, attrs in scan.tags:
        assert "checked" not in attrs and "selected" not in attrs, (tag, attrs)
        assert "value" not in attrs or tag in ("input", "option", "button"), (tag, attrs)

    bad_names = {name for name in scan.page_attr_names if SUSPICIOUS.search(name) and name not in ("aria-live",)}
    assert not bad_names, bad_names

    options = [choice.value for choice in question.options] or list(question.cards)
    groups = [options]
    if question.widget == "discard":  # two of the hand's cards and a game: each group marked alike
        groups = [options, list(question.cards)]
        options = options + list(question.cards)
    for group in (group for group in groups if group):  # a number to type has no options to compare
        per_option = {}
        for value in group:
            count: Counter[tuple[str, str]] = Counter()
            for tag, attrs in scan.tags:
                for name, attr in attrs.items():
                    if attr is not None and value in _tokens(attr):
                        count[(tag, name)] += 1
            per_option[value] = count
        first = per_option[group[0]]
        for value, count in per_option.items():
            assert count == first, f"option {value!r} is marked differently: {count} vs {first}"

    if question.widget == "case":  # the choice is a visible option; the number must not be in the form
        form_html = html[html.index('class="answer-form"') : html.index("</form>")]
        assert correct[0] in options
        assert not re.search(rf"(?<![\w.\-]){re.escape(correct[1].lstrip('+'))}(?![\w.\-])", form_html)
    elif question.widget == "number":
        assert len(correct) == 1
        number = re.escape(correct[0].lstrip("+"))
        form_html = html[html.index('class="answer-form"') : html.index("</form>")]
        assert not re.search(rf"(?<![\w.\-]){number}(?![\w.\-])", form_html), "the number is in the form"
    else:
        for value in correct:
            assert value in options, f"{value!r} is not a visible option"

    feedback_area = re.search(rf'id="feedback-{public_id}"[^>]*>(.*?)</div>', html, re.S)
    assert feedback_area and not feedback_area.group(1).strip()


def _cases(types: Mapping[str, ExerciseType]) -> list[tuple[str, int]]:
    return [(slug, level) for slug, kind in types.items() for level in range(1, kind.levels + 1)]


REAL_CASES = _cases(exercise_types())


def _run(kind_slug: str, level: int, kind: ExerciseType) -> None:
    client = Client()
    for _ in range(SEEDS_PER_LEVEL):
        response = client.get(reverse("training:exercise", kwargs={"kind": kind_slug}) + f"?stufe={level}")
        assert response.status_code == 200
        issued = IssuedExercise.objects.latest("issued_at", "pk")
        assert (issued.kind, issued.difficulty) == (kind_slug, level)
        question = question_for(issued)
        check_page(response.content.decode(), question, kind.correct_answer(question), str(issued.public_id))


@pytest.mark.django_db
@pytest.mark.usefixtures("quick_gradings")
@pytest.mark.parametrize("kind_slug, level", REAL_CASES or [("(the registry is empty)", 0)])
def test_real_exercise_pages_hide_the_answer(kind_slug: str, level: int) -> None:
    types = exercise_types()
    assert kind_slug in types, "no exercise type is registered: no real page was checked"
    _run(kind_slug, level, types[kind_slug])


@pytest.mark.django_db
@pytest.mark.usefixtures("fake_training")
@pytest.mark.parametrize("kind_slug, level", _cases(FAKE_TYPES))
def test_fake_exercise_pages_hide_the_answer(kind_slug: str, level: int) -> None:
    _run(kind_slug, level, FAKE_TYPES[kind_slug])


def test_the_check_catches_a_leak() -> None:
    """The checker itself fails on pages that leak (so a passing run means something)."""
    from skatschule.engine import Text
    from skatschule.exercises.base import Choice, Question

    number = Question("fake_add", 1, 1, Text("", ""), "number")
    choice = Question(
        "fake_pick", 1, 1, Text("", ""), "choice", options=(Choice("a", Text("A", "A")), Choice("b", Text("B", "B")))
    )
    csrf = '<input type="hidden" name="csrfmiddlewaretoken" value="x">'
    tail = '<div id="feedback-u"></div>'
    leaks = [
        (number, f'<form class="answer-form">{csrf}<input type="hidden" name="key" value="5"></form>{tail}'),
        (number, f'<form class="answer-form">{csrf}<label title="5">?</label></form>{tail}'),
        (number, f'<form class="answer-form">{csrf}<input name="answer" data-correct="1"></form>{tail}'),
        (
            choice,
            f'<form class="answer-form">{csrf}<input name="answer" value="a" checked>'
            f'<input name="answer" value="b"></form>{tail}',
        ),
        (
            choice,
            f'<form class="answer-form">{csrf}<input name="answer" value="a" class="a">'
            f'<input name="answer" value="b"></form>{tail}',
        ),
        (choice, f'<form class="answer-form">{csrf}<input name="answer" value="a"></form>{tail}'),
    ]
    # a case question whose option labels carry the list entry (the multiple choice would
    # give the typed-in number away)
    case = Question(
        "fake_case",
        1,
        1,
        Text("", ""),
        "case",
        options=(Choice("won", Text("Gewonnen", "Won")), Choice("lost", Text("Verloren", "Lost"))),
    )
    leaks.append(
        (
            case,
            f'<form class="answer-form">{csrf}<input name="answer" value="won"> Gewonnen: +36'
            f'<input name="answer" value="lost"> Verloren<input name="answer" type="number"></form>{tail}',
        )
    )
    answers = {"fake_add": ["5"], "fake_pick": ["a"], "fake_case": ["won", "36"]}
    for question, html in leaks:
        with pytest.raises(AssertionError):
            check_page(html, question, answers[question.kind], "u")
    fine = (
        f'<form class="answer-form">{csrf}<input name="answer" value="a"><input name="answer" value="b"></form>{tail}'
    )
    check_page(fine, choice, ["a"], "u")
    fine_case = (
        f'<form class="answer-form">{csrf}<input name="answer" value="won"> Gewonnen'
        f'<input name="answer" value="lost"> Verloren<input name="answer" type="number"></form>{tail}'
    )
    check_page(fine_case, case, ["won", "36"], "u")

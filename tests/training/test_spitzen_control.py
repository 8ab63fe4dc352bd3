"""The Spitzen exercise asks "mit/ohne" and a number instead of 22 radio buttons; it works by
keyboard and without JavaScript (a plain form), and the grader still reads the old values."""

from __future__ import annotations

import itertools
import re
import secrets

import pytest
from django.test import Client
from django.urls import reverse

from skatschule import exercises
from skatschule.training.models import IssuedExercise
from skatschule.training.services.issuing import clean_answer

pytestmark = pytest.mark.django_db


def _issue(client: Client, monkeypatch: pytest.MonkeyPatch, seed: int = 11) -> tuple[str, IssuedExercise]:
    seeds = itertools.count(seed)
    monkeypatch.setattr(secrets, "randbelow", lambda _limit: next(seeds))
    page = client.get(reverse("training:exercise", kwargs={"kind": "spitzen"}) + "?stufe=3").content.decode()
    issued = IssuedExercise.objects.latest("issued_at", "pk")
    return page, issued


def test_the_page_offers_mit_ohne_and_a_number(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    page, issued = _issue(client, monkeypatch)
    start = page.index('<form class="answer-form"')
    form = page[start : page.index("</form>", start)]
    assert form.count('type="radio"') == 2
    assert re.search(r'<input type="radio" id="ans-[^"]*-mit" name="answer" value="\+" required>', form)
    assert re.search(r'<input type="radio" id="ans-[^"]*-ohne" name="answer" value="-" required>', form)
    question = exercises.REGISTRY["spitzen"].generate(issued.difficulty, issued.seed)
    top = max(abs(int(o.value)) for o in question.options)
    assert f'type="number" name="answer" min="1" max="{top}"' in form
    assert re.search(r'<label for="ans-[^"]*-count">', form)  # every field has its label


@pytest.mark.parametrize("right", [True, False])
def test_the_plain_form_is_graded(client: Client, monkeypatch: pytest.MonkeyPatch, right: bool) -> None:
    _, issued = _issue(client, monkeypatch)
    kind = exercises.REGISTRY["spitzen"]
    question = kind.generate(issued.difficulty, issued.seed)
    value = int(kind.correct_answer(question)[0])
    sign, count = ("+" if value > 0 else "-"), abs(value)
    if not right:
        sign = "-" if sign == "+" else "+"
    response = client.post(reverse("training:answer", args=[issued.public_id]), {"answer": [sign, str(count)]})
    assert response.status_code == 200
    html = response.content.decode()
    assert ("Richtig!" in html) is right
    assert ("Leider nicht richtig." in html) is not right


def test_the_old_answers_still_count() -> None:
    kind = exercises.REGISTRY["spitzen"]
    for seed in range(20):
        question = kind.generate(2, seed)
        value = int(kind.correct_answer(question)[0])
        word = "mit" if value > 0 else "ohne"
        for answer in (
            [f"{value:+d}"],
            [f"{word} {abs(value)}"],
            [word, str(abs(value))],
            ["with" if value > 0 else "without", str(abs(value))],
        ):
            assert kind.grade(question, answer).correct, answer
        assert clean_answer(question=question, values=["+" if value > 0 else "-", str(abs(value))]) == [f"{value:+d}"]
        wrong = [("-" if value > 0 else "+"), str(abs(value))]
        assert not kind.grade(question, wrong).correct


@pytest.mark.parametrize("count", ["²", "٣", "３"])
def test_a_count_that_is_not_plain_ascii_digits_is_unreadable(
    client: Client, monkeypatch: pytest.MonkeyPatch, count: str
) -> None:
    """ "²" passes ``str.isdigit`` but not ``int`` (the answer was a 500); "٣" and "３" would be
    read as 3. All three are a 400 that asks for one of the answers, and the exercise stays open."""
    _, issued = _issue(client, monkeypatch)
    url = reverse("training:answer", args=[issued.public_id])
    response = client.post(url, {"answer": ["+", count]})
    assert response.status_code == 400
    assert "genau eine der Antworten" in response.content.decode()
    kind = exercises.REGISTRY["spitzen"]
    value = int(kind.correct_answer(kind.generate(issued.difficulty, issued.seed))[0])
    answered = client.post(url, {"answer": ["+" if value > 0 else "-", str(abs(value))]})
    assert answered.status_code == 200 and "Richtig!" in answered.content.decode()

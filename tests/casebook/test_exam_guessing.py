"""The referee exam cannot be passed by guessing, and no question gives its case away.

Over HTTP, as a learner would: exams are started, every question page is read, and one
fixed strategy answers (always the first radio button, or always the last; a number field
gets 0). Its score must not beat chance (the mean of 1/k over the questions with k options;
0 for a list entry to type in) by more than ten points. The exams are drawn from fixed
seeds, so the test is deterministic.
"""

from __future__ import annotations

import itertools
import json
import re
import secrets
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from skatschule.casebook import cases as casebook
from skatschule.casebook import selectors, services
from skatschule.casebook.exercise_types import fall_variante
from skatschule.casebook.exercise_types.fall import pool
from skatschule.casebook.exercise_types.fall_variante import eligible
from skatschule.casebook.models import Exam
from skatschule.engine.vectors import replay_from_input, ruling_from_input

pytestmark = pytest.mark.django_db

EXAMS = 8
MARGIN = 0.10
RADIO = re.compile(r'<input type="radio" id="ans-\d+-\d+" name="answer" value="([^"]*)"')
NUMBER = re.compile(r'<input id="ans-[^"]*" type="number" name="answer"')
CASE_ID = re.compile(r"\b[A-Z]-\d{2,3}\b")
SELF_REFERENCE = re.compile(
    r"^(Dasselbe|Derselbe|Dieselbe|Wie oben|The same|As above)\b|\b(vorigen|previous) (Fall|case)\b"
)


@pytest.fixture
def fixed_exams(monkeypatch: pytest.MonkeyPatch) -> None:
    counter = itertools.count(1)
    monkeypatch.setattr(secrets, "randbits", lambda bits: next(counter))  # the module services draws from


def _take(client: Client, pick: Callable[[list[str]], str]) -> tuple[int, float, int]:
    """Start an exam, answer every question with ``pick``; (right, chance, questions)."""
    response = client.post(reverse("casebook:exam_start"), {"fragen": 20})
    assert response.status_code == 302
    exam = Exam.objects.latest("started_at", "pk")
    chance = 0.0
    while True:
        page = client.get(reverse("casebook:exam", kwargs={"public_id": exam.public_id}))
        if page.status_code == 302:
            break
        html = page.content.decode()
        item = services.current_question(exam)
        assert item is not None
        options = RADIO.findall(html)
        values = [pick(options)] if options else []
        if NUMBER.search(html):
            values.append("0")
        chance += 1 / len(options) if options else 0.0
        answered = client.post(
            reverse("casebook:exam_answer", args=[exam.public_id, item.position]), {"answer": values}
        )
        assert answered.status_code == 302
    exam.refresh_from_db()
    right, total = selectors.score(exam)
    return right, chance, total


@pytest.mark.parametrize("name,pick", [("first option", lambda o: o[0]), ("last option", lambda o: o[-1])])
def test_a_fixed_pick_does_not_beat_chance(fixed_exams: None, name: str, pick: Callable[[list[str]], str]) -> None:
    client = Client()
    right = total = 0
    chance = 0.0
    for _ in range(EXAMS):
        r, c, t = _take(client, pick)
        right, chance, total = right + r, chance + c, total + t
    assert total == 20 * EXAMS
    assert right / total <= chance / total + MARGIN, f"{name}: {right}/{total} right, chance {chance / total:.0%}"


def test_question_pages_name_no_case(fixed_exams: None) -> None:
    client = Client()
    client.post(reverse("casebook:exam_start"), {"fragen": 20})
    exam = Exam.objects.latest("started_at", "pk")
    items = list(exam.questions.order_by("position"))
    assert {i.kind for i in items} == {"fall_variante", "regelverstoss"}
    every = casebook.load_cases()
    for item in items:
        html = client.get(reverse("casebook:exam", kwargs={"public_id": exam.public_id})).content.decode()
        main = html[html.index("<main") : html.index("</main>")] if "<main" in html else html
        assert not CASE_ID.search(main), f"question {item.position} names a case id"
        for case in every:
            assert case.title_de not in main, f"question {item.position} shows the title of {case.id}"
        question = services.question_of(item)
        right = services.exam_type(kind=item.kind).correct_answer(question)
        client.post(reverse("casebook:exam_answer", args=[exam.public_id, item.position]), {"answer": right})
    exam.refresh_from_db()
    assert selectors.score(exam) == (20, 20)


def test_every_exam_case_stands_alone() -> None:
    for case in pool(3):
        for text in (case.situation_de, case.situation_en, case.question_de, case.question_en):
            assert not SELF_REFERENCE.search(text.strip()), f"{case.id} refers to another case: {text[:60]!r}"
            assert not CASE_ID.search(text), f"{case.id} names another case"


def _engine_numbers(inp: dict[str, Any]) -> tuple[Any, Any, tuple[int, int] | None]:
    """Straight from the engine (apart from the variant code): the verdict, the list entry and the
    Augen (declarer, defenders) taken before the irregularity (None in Null, which counts no Augen)."""
    ruling = ruling_from_input(inp, "isko")
    state = replay_from_input(inp, "isko")
    augen = (
        None
        if state.contract is None or state.contract.game.is_null
        else (state.declarer_augen(), state.defender_augen())
    )
    verdict = (ruling.won, ruling.level, ruling.overbid, ruling.guilty, set(ruling.rule_ids))
    return verdict, ruling.score, augen


def test_every_variant_differs_from_its_case_in_the_answer_and_the_augen() -> None:
    """Issue 34 §5: no exam variant has the public case's numbers. Over every case that is varied,
    the variants of three exam seeds each and the case's fixed pool: the same decision by the same
    rules, another list entry, and other Augen wherever the case has taken any (F-21 asked 63:14 and -288 again)."""
    kind = services.exam_type(kind="fall_variante")
    variable = eligible()
    assert len(variable) >= 15
    for seed in range(3 * len(variable)):
        case = kind.case_for(seed)  # type: ignore[attr-defined]
        verdict, entry, augen = _engine_numbers(casebook.thaw(case.engine_input))
        question = kind.generate(2, seed)
        right = kind.correct_answer(question)
        assert right != [str(entry)], f"{case.id} (seed {seed}) asks the case's own list entry {entry}"
        variants = [json.loads(v) for v in fall_variante.pool(case.id)]
        assert len(variants) >= 8, f"{case.id} has too few variants"
        scenario = kind.scenario(2, seed)  # type: ignore[attr-defined]
        for variant in variants:
            v_verdict, v_entry, v_augen = _engine_numbers(variant)
            assert v_verdict == verdict and v_entry != entry, case.id
            assert augen in (None, (0, 0)) or v_augen != augen, (case.id, augen)
        ruling = scenario.ruling()
        assert (ruling.won, ruling.level, ruling.overbid, ruling.guilty, set(ruling.rule_ids)) == verdict
        assert ruling.score != entry
        state = scenario.state()
        if augen not in (None, (0, 0)):
            assert (state.declarer_augen(), state.defender_augen()) != augen, (case.id, seed)
        assert question.widget == "number" and case.title_de not in question.prompt.de
        assert kind.grade(question, right).correct

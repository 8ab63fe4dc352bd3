"""The casebook in Debian's chromium: filter the cases, then take a 5-question referee exam and see its review."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from skatschule.casebook import services
from skatschule.casebook.models import Exam

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_filter_and_exam_of_five(page: Page, live_server: LiveServer) -> None:
    page.goto(live_server.url + "/faelle/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Fälle")
    page.get_by_label("Kategorie").select_option("bedienen")
    page.get_by_role("button", name="Filtern").click()
    expect(page.locator("#case-list")).to_contain_text("F-24", timeout=15_000)
    expect(page.locator("#case-list")).not_to_contain_text("F-01")

    page.goto(live_server.url + "/faelle/pruefung/?fragen=5")
    page.get_by_role("button", name="Prüfung starten").click()
    expect(page.locator("#exam-status")).to_contain_text("Frage 1 von 5", timeout=15_000)
    exam = Exam.objects.latest("started_at", "pk")
    for item in exam.questions.order_by("position"):
        expect(page.locator("#exam-status")).to_contain_text(f"Frage {item.position} von 5", timeout=15_000)
        question = services.question_of(item)
        right = services.exam_type(kind=item.kind).correct_answer(question)
        form = page.locator("form.answer-form")
        if question.widget in ("choice", "case"):
            form.locator(f'input[type="radio"][value="{right[0]}"]').check()
        if question.widget in ("number", "case"):
            form.locator('input[type="number"]').fill(right[-1])
        if item.position == 2:  # the second question answered wrong on purpose
            if question.widget == "number":
                form.locator('input[type="number"]').fill(str(int(right[0]) + 1))
            else:
                other = next(o.value for o in question.options if o.value != right[0])
                form.locator(f'input[type="radio"][value="{other}"]').check()
        form.get_by_role("button", name="Antworten").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Auswertung der Prüfung", timeout=15_000)
    expect(page.locator("#exam-score")).to_contain_text("4 von 5 richtig")
    expect(page.locator(".review-item")).to_have_count(5)
    expect(page.locator("#frage-2")).to_contain_text("Falsch")
    expect(page.locator("#frage-2 details")).to_have_attribute("open", "")
    expect(page.locator("#frage-1 .review-rules a").first).to_have_attribute("href", re.compile(r"^/regeln/"))

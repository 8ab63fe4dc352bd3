"""Issue 18, referees in Debian's chromium at 375 px: a signed-in referee sets a pass mark,
finishes an exam by keyboard, and finds it in the history with "nicht bestanden"; the
printable result sheet says it is practice, not a DSkV certificate. A second exam, all
right, is "bestanden", and the history shows both with the trend."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from skatschule.casebook import services
from skatschule.casebook.models import Exam
from skatschule.exercises.base import ExerciseType, Question
from tests.browser.answers import fill_answer
from tests.browser.phones import phone
from tests.people import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _type(kind: str) -> ExerciseType:
    return services.exam_type(kind=kind)


def _wrong(question: Question, right: list[str]) -> list[str]:
    if question.widget == "number":
        return [str(int(right[0]) + 1)]
    other = next(o.value for o in question.options if o.value != right[0])
    return [other, *right[1:]]


def _answer_all(page: Page, exam: Exam, wrong_at: int | None) -> None:
    """Answer every question by keyboard, right except at position ``wrong_at``."""
    for item in exam.questions.order_by("position"):
        expect(page.locator("#exam-status")).to_contain_text(f"Frage {item.position} von 5")
        question = services.question_of(item)
        right = _type(item.kind).correct_answer(question)
        values = _wrong(question, right) if item.position == wrong_at else right
        form = page.locator("form.answer-form")
        fill_answer(form, question, values, item.position)
        form.get_by_role("button", name="Antworten").focus()
        page.keyboard.press("Enter")


def test_referee_finishes_an_exam_and_finds_it_in_the_history(browser: Browser, live_server: LiveServer) -> None:
    user = make_user("schiri")
    context = phone(browser, live_server, user)
    try:
        page = context.new_page()
        page.goto(live_server.url + "/faelle/pruefung/?fragen=5")
        page.locator("#exam-pass").fill("90")
        page.locator("#exam-pass").press("Enter")  # the form is sent by keyboard
        expect(page.locator("#exam-status")).to_contain_text("Frage 1 von 5")
        exam = Exam.objects.get(user=user)
        assert exam.pass_percent == 90
        _answer_all(page, exam, wrong_at=3)  # 4 of 5 = 80 % < 90 %
        expect(page.locator("#exam-score")).to_contain_text("4 von 5 richtig")
        expect(page.locator("#exam-verdict")).to_contain_text("nicht bestanden")
        page.get_by_role("link", name="Meine Prüfungen").focus()
        page.keyboard.press("Enter")
        expect(page.get_by_role("heading", level=1)).to_have_text("Meine Prüfungen")
        row = page.locator("#exam-history .history-row")
        expect(row).to_have_count(1)
        expect(row).to_contain_text("4 / 5 (80 %)")
        expect(row).to_contain_text("nicht bestanden")
        expect(row).to_contain_text("ab 90 %")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
        row.get_by_role("link", name="drucken").click()
        expect(page.locator("#not-a-certificate")).to_contain_text("kein Zertifikat")
        expect(page.locator("#sheet-verdict")).to_contain_text("nicht bestanden")

        # a second exam at the default pass mark, all right: passed, and the trend goes up
        page.goto(live_server.url + "/faelle/pruefung/?fragen=5")
        page.get_by_role("button", name="Prüfung starten").focus()
        page.keyboard.press("Enter")
        expect(page.locator("#exam-status")).to_contain_text("Frage 1 von 5")
        second = Exam.objects.filter(user=user).exclude(pk=exam.pk).get()
        assert second.pass_percent == 80
        _answer_all(page, second, wrong_at=None)
        expect(page.locator("#exam-verdict")).to_contain_text("bestanden")
        expect(page.locator("#exam-verdict")).not_to_contain_text("nicht bestanden")
        page.get_by_role("link", name="Meine Prüfungen").click()
        rows = page.locator("#exam-history .history-row")
        expect(rows).to_have_count(2)
        expect(rows.nth(0)).to_contain_text("5 / 5 (100 %)")
        expect(rows.nth(0).locator(".cell-right")).to_have_text(re.compile(r"^bestanden"))
        expect(rows.nth(1)).to_contain_text("nicht bestanden")
        expect(page.locator("#exam-trend")).to_contain_text("20 Prozentpunkte besser")
        bars = page.locator(".exam-trend-chart .bar")
        widths = [bars.nth(n).evaluate("e => e.getBoundingClientRect().width") for n in range(2)]
        assert widths[0] < widths[1]  # 80 % and 100 % differ on a phone too
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    finally:
        context.close()

"""Issue 18, quizzes in Debian's chromium at 375 px, by keyboard: publish a draft and
download the results as XLSX (opened with openpyxl)."""

from __future__ import annotations

import io

import pytest
from openpyxl import load_workbook
from playwright.sync_api import Browser, expect
from pytest_django.live_server_helper import LiveServer

from skatschule.classrooms import services as classrooms
from skatschule.quizzes.services import attempts, authoring
from tests.browser.phones import phone
from tests.people import make_user
from tests.quizzes.helpers import right_values

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_publish_and_download_xlsx_by_keyboard(browser: Browser, live_server: LiveServer) -> None:
    teacher = make_user("frau-kreuz", teacher=True)
    student = make_user("anna")
    room = classrooms.create_classroom(teacher=teacher, name="Skat-AG")
    classrooms.join(student=student, raw_code=room.join_code)
    pool = authoring.build_pool(kinds=("augen",), difficulty=1)
    quiz = authoring.create_quiz(
        owner=teacher, classroom=room, title="Augen zählen", pool=pool, item_count=2, draft=True
    )
    context = phone(browser, live_server, teacher, accept_downloads=True)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/quiz/{quiz.pk}/")
        expect(page.locator("#publication-state")).to_contain_text("Entwurf")
        page.get_by_role("button", name="Jetzt veröffentlichen").focus()
        page.keyboard.press("Enter")
        expect(page.locator("#publication-state")).to_contain_text("Veröffentlicht")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
        # the student answers one item right
        attempt = attempts.start_attempt(quiz=quiz, student=student)
        item = quiz.items.get(position=1)
        attempts.save_answer(attempt=attempt, item=item, values=right_values(quiz, item, student.pk))
        attempts.submit(attempt=attempt)
        link = page.get_by_role("link", name="Ergebnisse als Excel (XLSX)")
        link.focus()
        with page.expect_download() as info:
            page.keyboard.press("Enter")
        download = info.value
        assert download.suggested_filename == "augen-zahlen-ergebnisse.xlsx"
        sheet = load_workbook(io.BytesIO(open(download.path(), "rb").read())).active
        rows = list(sheet.iter_rows(values_only=True))
        assert rows[0][:2] == ("Benutzername", "Versuch")
        assert rows[1][0] == "anna" and rows[1][5] == 1
    finally:
        context.close()

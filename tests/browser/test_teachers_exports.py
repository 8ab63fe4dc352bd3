"""Issue 18 leftovers in Debian's chromium at 375 px, by keyboard, in English: a teacher opens
the export page from the quiz, reads what each format is for and downloads the comma CSV (the
old, stable address); a student who deleted the account reads "deleted student" there and on
the results page."""

from __future__ import annotations

import csv
import io

import pytest
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from skatschule.accounts.deletion import delete_account
from skatschule.classrooms import services as classrooms
from skatschule.core.people import DELETED_PREFIX
from skatschule.quizzes.services import attempts, authoring
from tests.browser.phones import phone
from tests.people import make_user
from tests.quizzes.helpers import right_values

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _tab_to(page: Page, name: str, limit: int = 40) -> None:
    """Press Tab until the link named ``name`` has the focus (as a keyboard user would)."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement && document.activeElement.textContent.trim()") == name:
            return
    raise AssertionError(f"{name!r} not reached by Tab")


def test_export_page_and_comma_csv_by_keyboard_in_english(browser: Browser, live_server: LiveServer) -> None:
    teacher = make_user("frau-kreuz", teacher=True)
    room = classrooms.create_classroom(teacher=teacher, name="Skat-AG")
    quiz = authoring.create_quiz(
        owner=teacher,
        classroom=room,
        title="Augen zählen",
        pool=authoring.build_pool(kinds=("augen",), difficulty=1),
        item_count=2,
    )
    for name in ("anna", "ben"):
        student = make_user(name)
        classrooms.join(student=student, raw_code=room.join_code)
        attempt = attempts.start_attempt(quiz=quiz, student=student)
        item = quiz.items.get(position=1)
        attempts.save_answer(attempt=attempt, item=item, values=right_values(quiz, item, student.pk))
        attempts.submit(attempt=attempt)
    anna = type(teacher).objects.get(username="anna")
    delete_account(user=anna)
    anna.refresh_from_db()
    deleted = "deleted student · " + anna.username.removeprefix(DELETED_PREFIX)

    context = phone(browser, live_server, teacher, lang="en", accept_downloads=True)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/quiz/{quiz.pk}/")
        _tab_to(page, "More formats, Moodle")
        page.keyboard.press("Enter")
        expect(page.locator("h1")).to_contain_text("Download")
        for entry in ("#export-csv-semicolon", "#export-csv-comma", "#export-xlsx", "#export-moodle"):
            expect(page.locator(f"{entry} .helptext")).to_be_visible()
        expect(page.locator("#export-csv-comma .export-default")).to_have_text("(default)")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
        _tab_to(page, "CSV with commas (international)")
        with page.expect_download() as info:
            page.keyboard.press("Enter")
        download = info.value
        assert download.url.endswith(f"/quiz/{quiz.pk}/ergebnisse.csv")  # the old address, still served
        text = open(download.path(), encoding="utf-8-sig").read()
        rows = list(csv.reader(io.StringIO(text)))
        assert rows[0][:2] == ["Username", "Attempt"]
        assert sorted(row[0] for row in rows[1:]) == sorted(["ben", deleted])

        _tab_to(page, "View results")
        page.keyboard.press("Enter")
        expect(page.locator("tr.result-row th")).to_have_text(sorted(["ben", deleted]))
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    finally:
        context.close()

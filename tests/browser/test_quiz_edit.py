"""Editing a quiz in Debian's chromium, on a 390 px wide phone: new title and end, seen on the detail page."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone, translation
from django.utils.formats import date_format
from playwright.sync_api import Browser, expect
from pytest_django.live_server_helper import LiveServer

from skatschule.classrooms.services import create_classroom
from skatschule.quizzes.models import Quiz
from skatschule.quizzes.services import authoring
from tests.people import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_teacher_edits_title_and_end_on_a_phone(browser: Browser, live_server: LiveServer) -> None:
    teacher = make_user("lehrerin", teacher=True)
    room = create_classroom(teacher=teacher, name="Skat-AG")
    quiz = authoring.create_quiz(
        owner=teacher, classroom=room, title="Erste Runde", pool=authoring.build_pool(kinds=["augen"]), item_count=2
    )
    client = Client()
    client.force_login(teacher)
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, locale="de-DE"
    )
    context.set_default_timeout(15_000)
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}])
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/quiz/{quiz.pk}/")
        page.get_by_role("link", name="Bearbeiten").click()
        expect(page.get_by_role("heading", level=1)).to_have_text("Quiz bearbeiten")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), "wider than the phone"

        # any day: every day has an 18:30
        closes = timezone.localtime(timezone.now() + timedelta(days=3)).replace(
            hour=18, minute=30, second=0, microsecond=0
        )
        page.get_by_label("Titel").fill("Zweite Runde")
        page.get_by_label("Ende:", exact=True).fill(closes.strftime("%Y-%m-%dT%H:%M"))
        page.get_by_role("button", name="Änderungen speichern").press("Enter")  # by keyboard

        expect(page.get_by_role("heading", level=1)).to_have_text("Zweite Runde")
        expect(page.get_by_text("Die Änderungen sind gespeichert.")).to_be_visible()
        with translation.override("de"):
            shown = date_format(closes, "DATETIME_FORMAT")
        expect(page.locator(".quiz-rules")).to_contain_text(shown)
        quiz = Quiz.objects.get(pk=quiz.pk)
        assert quiz.title == "Zweite Runde" and quiz.closes_at == closes
    finally:
        context.close()

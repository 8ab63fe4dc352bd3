"""Issue 18, homework in Debian's chromium at 375 px: a teacher assigns a lesson by keyboard,
the student sees it open on the dashboard, masters the lesson, and the teacher sees it done;
late work is marked late (in English, without JavaScript)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from skatschule.classrooms import services as classrooms
from skatschule.classrooms.models import Assignment
from skatschule.owners import Owner
from skatschule.training.lessons import get_lessons
from tests.browser.phones import phone
from tests.people import make_user
from tests.training.helpers import answer

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _fits(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def test_assign_a_lesson_and_see_it_done(browser: Browser, live_server: LiveServer) -> None:
    teacher = make_user("frau-kreuz", teacher=True)
    student = make_user("anna")
    room = classrooms.create_classroom(teacher=teacher, name="Skat-AG")
    classrooms.join(student=student, raw_code=room.join_code)
    lesson = get_lessons()[0]
    t_ctx = phone(browser, live_server, teacher)
    s_ctx = phone(browser, live_server, student)
    try:
        t = t_ctx.new_page()
        t.goto(f"{live_server.url}/klassen/{room.pk}/")
        t.locator("#id_task").focus()
        t.locator("#id_task").select_option(f"lesson:{lesson.slug}")
        # any day: every day has an 18:00 (a time the clock skips, 02:30 on a spring Sunday, is refused)
        due = timezone.localtime(timezone.now() + timedelta(days=3)).replace(hour=18, minute=0)
        t.locator("#id_due_at").fill(due.strftime("%Y-%m-%dT%H:%M"))
        t.locator("#id_due_at").press("Enter")  # submits the form by keyboard
        expect(t.get_by_role("status")).to_contain_text("Hausaufgabe ist gestellt")
        expect(t.locator(".homework-list")).to_contain_text("0 von 1 erledigt")
        _fits(t)

        s = s_ctx.new_page()
        s.goto(f"{live_server.url}/ueben/fortschritt/")
        expect(s.locator("#homework-open")).to_contain_text(lesson.title("de"))
        _fits(s)
        step = lesson.steps[0]
        for _ in range(lesson.mastery_needed):
            answer(step.kind, step.level, Owner.for_user(student), True, lesson=lesson.slug)
        s.reload()
        expect(s.locator("#homework-done")).to_contain_text(lesson.title("de"))
        expect(s.locator("#homework-open")).to_have_count(0)

        t.reload()
        expect(t.locator(".homework-list")).to_contain_text("1 von 1 erledigt")
        t.get_by_role("link", name=lesson.title("de")).first.focus()
        t.keyboard.press("Enter")
        expect(t.locator('#homework-status tr[data-student="anna"]')).to_contain_text("erledigt am")
        expect(t.locator("#homework-status")).not_to_contain_text("verspätet")
        _fits(t)

        # the class progress: mastered, sortable by keyboard, the page itself does not scroll sideways
        t.goto(f"{live_server.url}/klassen/{room.pk}/fortschritt/")
        expect(t.locator('tr[data-student="anna"]')).to_contain_text("1 / ")
        _fits(t)
        t.locator("thead").get_by_role("link", name=lesson.title("de")).focus()
        t.keyboard.press("Enter")
        expect(t.locator("#progress-sort")).to_contain_text("gewählten Lektion")
    finally:
        t_ctx.close()
        s_ctx.close()


def test_late_homework_is_marked_late_in_english_without_javascript(browser: Browser, live_server: LiveServer) -> None:
    """The due time passes before the student masters the lesson: overdue on the student's
    dashboard, then done but late for the teacher, on the class page and the assignment's."""
    teacher = make_user("mr-spade", teacher=True)
    student = make_user("ben")
    room = classrooms.create_classroom(teacher=teacher, name="Skat club")
    classrooms.join(student=student, raw_code=room.join_code)
    lesson = get_lessons()[1]
    assignment = classrooms.assign_homework(
        teacher=teacher, classroom=room, task=f"lesson:{lesson.slug}", due_at=timezone.now() + timedelta(hours=1)
    )
    Assignment.objects.filter(pk=assignment.pk).update(due_at=timezone.now() - timedelta(minutes=5))
    contexts = [phone(browser, live_server, user, lang="en", java_script_enabled=False) for user in (teacher, student)]
    t_ctx, s_ctx = contexts
    try:
        s = s_ctx.new_page()
        s.goto(f"{live_server.url}/ueben/fortschritt/")
        expect(s.locator("#homework-open")).to_contain_text(lesson.title("en"))
        expect(s.locator("#homework-open")).to_contain_text("overdue")
        _fits(s)
        step = lesson.steps[0]
        for _ in range(lesson.mastery_needed):
            answer(step.kind, step.level, Owner.for_user(student), True, lesson=lesson.slug)
        s.reload()
        expect(s.locator("#homework-done")).to_contain_text("late")

        t = t_ctx.new_page()
        t.goto(f"{live_server.url}/klassen/{room.pk}/")
        expect(t.locator(".homework-list")).to_contain_text("1 of 1 done, 1 of them late")
        _fits(t)
        t.get_by_role("link", name=lesson.title("en")).first.focus()
        t.keyboard.press("Enter")
        expect(t.locator('#homework-status tr[data-student="ben"]')).to_contain_text("late")
        _fits(t)
    finally:
        for context in contexts:
            context.close()

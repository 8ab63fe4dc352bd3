"""Learners come back (issue 28 §1) in chromium at 375 px: a streak over three simulated days
with a frozen one, and cards marked right, wrong and missed in the German deck."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from skatschule.cards.context_processors import DECK_COOKIE
from skatschule.training.models import IssuedExercise
from skatschule.training.registry import get_type
from skatschule.training.services.issuing import question_for
from tests.browser.answers import fill_answer
from tests.browser.phones import phone
from tests.present import present

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


class Clock:
    """The site's clock (``django.utils.timezone.now``) set to a fixed day, at noon UTC, and
    moved on by hand: a test never depends on the weekday it happens to run on."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, start: datetime) -> None:
        self.at = start
        monkeypatch.setattr(timezone, "now", lambda: self.at)

    def next_day(self) -> None:
        self.at += timedelta(days=1)


def _answer_one(page: Page, base: str, kind: str = "rangfolge") -> None:
    page.goto(f"{base}/ueben/aufgabe/{kind}/?stufe=1")
    issued = IssuedExercise.objects.latest("issued_at", "pk")
    question = question_for(issued)
    form = page.locator(f'form[action="/ueben/antwort/{issued.public_id}/"]')
    fill_answer(form, question, present(get_type(kind)).correct_answer(question), issued.public_id)
    page.get_by_role("button", name="Antworten").click()
    expect(page.locator(f"#feedback-{issued.public_id} .goal-status")).to_be_visible()


def test_streak_over_three_days_with_a_frozen_one(
    browser: Browser, live_server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # day 1 is a Monday, the missed day 2 a Tuesday of the same week, day 3 a Wednesday
    clock = Clock(monkeypatch, datetime(2026, 11, 30, 12, tzinfo=UTC))
    context = phone(browser, live_server)
    page = context.new_page()
    base = live_server.url
    page.goto(base + "/tagesziel/")
    page.get_by_label("5", exact=True).check()
    page.get_by_role("button", name="Speichern").click()
    expect(page.locator(".goal-status")).to_contain_text("Heute 0 von 5 Antworten")

    # day 1: five answers reach the goal; the feedback says so after each answer
    for _ in range(5):
        _answer_one(page, base)
    status = page.locator(".feedback .goal-status")
    expect(status).to_contain_text("Tagesziel erreicht")
    expect(status).to_contain_text("Tagesserie: 1 Tag mit erreichtem Tagesziel")

    # day 2: nothing; the streak still stands (the day is not over)
    clock.next_day()
    page.goto(base + "/ueben/fortschritt/")
    expect(page.locator(".goal-status")).to_contain_text("Heute 0 von 5 Antworten")
    expect(page.locator(".goal-status")).to_contain_text("Tagesserie: 1 Tag")

    # day 3: day 2 was missed, and this week's free day keeps the streak; five answers extend it
    clock.next_day()
    page.goto(base + "/ueben/fortschritt/")
    expect(page.locator(".goal-status")).to_contain_text("1 freier Tag hat sie gehalten")
    for _ in range(5):
        _answer_one(page, base)
    status = page.locator(".feedback .goal-status")
    expect(status).to_contain_text("Tagesserie: 2 Tage mit erreichtem Tagesziel")
    expect(status).to_contain_text("1 freier Tag hat sie gehalten")
    expect(status).to_contain_text("Der freie Tag dieser Woche ist verbraucht.")
    page.goto(base + "/ueben/fortschritt/")
    expect(page.locator(".goal-status")).to_contain_text("Tagesserie: 2 Tage")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    context.close()


def test_marked_cards_in_the_german_deck_at_375px(browser: Browser, live_server: LiveServer) -> None:
    context = phone(browser, live_server)
    context.add_cookies([{"name": DECK_COOKIE, "value": "german", "url": live_server.url}])
    page = context.new_page()
    for _ in range(40):  # the seed decides between ordering and picking trumps
        page.goto(live_server.url + "/ueben/aufgabe/rangfolge/?stufe=1")
        issued = IssuedExercise.objects.latest("issued_at", "pk")
        question = question_for(issued)
        right = present(get_type("rangfolge")).correct_answer(question)
        if question.widget == "cards" and 2 <= len(right) < len(question.options):
            break
    else:
        pytest.fail("no trump question with right and wrong cards")
    wrong = next(o.value for o in question.options if o.value not in right)
    form = page.locator(f'form[action="/ueben/antwort/{issued.public_id}/"]')
    fill_answer(form, question, [right[0], wrong], issued.public_id)
    page.get_by_role("button", name="Antworten").click()
    marks = page.locator(f"#feedback-{issued.public_id} .marked-cards")
    expect(marks).to_be_visible()
    expect(marks.locator(".card-german")).to_have_count(len(question.options))
    right_card = marks.locator(f'.card-mark-right:has([data-card="{right[0]}"])')
    wrong_card = marks.locator(f'.card-mark-wrong:has([data-card="{wrong}"])')
    missed = marks.locator(".card-mark-missed")
    expect(right_card.locator(".card-mark-symbol")).to_have_text("✓")
    expect(wrong_card.locator(".card-mark-symbol")).to_have_text("✗")
    expect(missed).to_have_count(len(right) - 1)
    expect(missed.first.locator(".card-mark-symbol")).to_have_text("!")
    # the marks are words for screen readers too, and the cards keep the German deck's names
    expect(wrong_card).to_contain_text("(falsch)")
    label = wrong_card.locator("svg").get_attribute("aria-label") or ""
    assert re.search(r"Eichel|Grün|Rot|Schellen", label), label
    for badge in (right_card, wrong_card, missed.first):
        box = badge.locator(".card-mark-symbol").bounding_box()
        assert box and 0 <= box["x"] and box["x"] + box["width"] <= 375
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    context.close()

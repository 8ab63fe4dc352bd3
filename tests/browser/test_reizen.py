"""Reizen, am Spiel gemessen, in Debian's chromium at 375 px in the German deck, by keyboard: a bid
chosen from the list, the grading job queued (not run in the request), its progress shown (without
JavaScript a link to reload, with JavaScript htmx polling), the job run by a worker, then the
feedback with every game's expected score, the win chance and lesson 7's count."""

from __future__ import annotations

import pytest
from django.test import override_settings
from playwright.sync_api import expect

from skatschule.graded_by_play.work import BID_GRADE, BID_TYPE
from skatschule.jobs.models import Job
from skatschule.jobs.running import run
from tests.browser.phones import phone

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

QUEUE_ONLY = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}


@pytest.fixture(autouse=True)
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(BID_TYPE, "deals", 12)


@pytest.mark.parametrize("javascript", [False, True])
def test_a_bid_graded_by_play_on_a_phone(browser, live_server, javascript: bool) -> None:  # type: ignore[no-untyped-def]
    context = phone(browser, live_server, java_script_enabled=javascript)
    context.add_cookies([{"name": "skatschule_deck", "value": "german", "url": live_server.url}])
    page = context.new_page()
    try:
        with override_settings(TASKS=QUEUE_ONLY):
            page.goto(live_server.url + "/ueben/reizen/?stufe=2")
            expect(page.get_by_role("heading", level=1)).to_contain_text("Reizen, am Spiel gemessen")
            assert page.evaluate("document.documentElement.scrollWidth") <= 375
            assert "erwartet" not in page.content()
            bid = page.get_by_label("Dein höchstes Gebot")
            bid.focus()
            bid.select_option("24")
            page.get_by_role("button", name="Antworten").focus()
            page.keyboard.press("Enter")
            progress = page.locator(".job-progress")
            expect(progress).to_be_visible()
            assert "erwartet" not in page.content()  # nothing graded yet
            run(job_id=Job.objects.get(kind=BID_GRADE).pk)  # a worker picks the job up
            if not javascript:
                page.get_by_role("link", name="Stand neu laden").click()
        feedback = page.locator(".feedback-area")
        expect(feedback).to_contain_text("12 zufälligen Verteilungen", timeout=15_000)
        expect(feedback).to_contain_text("Handbewertung aus Lektion 7")
        expect(feedback).to_contain_text("erwartet")
        text = feedback.inner_text()
        assert "⟦" not in text and "gewonnen" in text
        # game names of the German deck, never the French ones
        assert not any(name in text for name in ("Kreuz", "Pik", "Karo", "Bube", "Ass ")), text
        assert page.evaluate("document.documentElement.scrollWidth") <= 375
    finally:
        context.close()

"""The Drücken trainer in Debian's chromium at 375 px without JavaScript, by keyboard, in the
German deck: two cards ticked with the space bar, a game chosen, the answer graded by a real job,
the feedback with the rank among 66 and the best three; then the same with JavaScript (htmx)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from skatschule.graded_by_play.work import TYPE
from tests.browser.phones import phone

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(TYPE, "deals", 12)
    monkeypatch.setattr(TYPE, "screen", 4)


def _no_sideways(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 375


def _answer_by_keyboard(page: Page) -> None:
    boxes = page.locator('input[type="checkbox"][name="answer"]')
    expect(boxes).to_have_count(12)
    for n in (0, 1):
        boxes.nth(n).focus()
        page.keyboard.press("Space")
        expect(boxes.nth(n)).to_be_checked()
    game = page.get_by_label("Dein Spiel")
    game.focus()
    game.select_option("grand")
    page.get_by_role("button", name="Antworten").focus()
    page.keyboard.press("Enter")


@pytest.mark.parametrize("javascript", [False, True])
def test_druecken_by_keyboard_on_a_phone(browser: Browser, live_server: LiveServer, javascript: bool) -> None:
    context = phone(browser, live_server, java_script_enabled=javascript)
    context.add_cookies([{"name": "skatschule_deck", "value": "german", "url": live_server.url}])
    page = context.new_page()
    try:
        page.goto(live_server.url + "/ueben/druecken/?stufe=2")
        expect(page.get_by_role("heading", level=1)).to_contain_text("Drücken")
        _no_sideways(page)
        _answer_by_keyboard(page)
        feedback = page.locator(".feedback-area")
        expect(feedback).to_contain_text("von 66")
        expect(feedback).to_contain_text("12 zufälligen Verteilungen")
        expect(feedback).to_contain_text("Grand")
        text = feedback.inner_text()
        assert "⟦" not in text
        # card names of the German deck, never the French ones
        assert not any(name in text for name in ("Kreuz-", "Pik-", "Karo-", "-Bube", "-Ass")), text
        assert any(name in text for name in ("Eichel", "Grün", "Rot", "Schellen", "Herz", "-Unter", "-Daus")), text
        _no_sideways(page)
    finally:
        context.close()

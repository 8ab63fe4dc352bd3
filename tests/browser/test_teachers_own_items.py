"""Issue 18, own questions in Debian's chromium at 375 px: a teacher builds an item with the
card picker (keyboard and touch), sees the engine refuse an impossible trick, then the
engine's answer, and tries the item."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from skatschule.engine.names import render
from skatschule.quizzes import own_items
from skatschule.quizzes.models import OwnItem
from tests.browser.phones import phone
from tests.people import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _pick(page: Page, group: str, code: str) -> None:
    """Choose a card in a picker by keyboard: focus its (visually hidden) input, press Space."""
    page.locator(f'#{group} input[value="{code}"]').focus()
    page.keyboard.press("Space")
    expect(page.locator(f'#{group} input[value="{code}"]')).to_be_checked()


def test_build_an_own_item_with_the_card_picker(browser: Browser, live_server: LiveServer) -> None:
    context = phone(browser, live_server, make_user("frau-kreuz", teacher=True))
    try:
        page = context.new_page()
        page.goto(live_server.url + "/quiz/eigene/")
        page.get_by_role("link", name="Neu: Was darf ich zugeben?").click()
        expect(page.locator("#own-title")).to_be_visible()  # the new page has loaded
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")  # the picker wraps
        page.locator("#own-title").fill("Bube bedient nicht")
        page.locator("#own-game").select_option("hearts")
        _pick(page, "pick-trick1", "SA")
        for code in ("SA", "SJ", "S9", "HK"):  # SA is on the table already: impossible
            _pick(page, "pick-hand", code)
        page.get_by_role("button", name="Aufgabe speichern").click()
        expect(page.locator("#own-error")).to_contain_text("Karten doppelt gegeben: SA")
        assert not OwnItem.objects.exists()
        # the picks survive the refusal; take SA out of the hand by touch and save
        expect(page.locator('#pick-hand input[value="SJ"]')).to_be_checked()
        page.locator('#pick-hand label.card-choice:has(input[value="SA"])').tap()
        expect(page.locator('#pick-hand input[value="SA"]')).not_to_be_checked()
        page.get_by_role("button", name="Aufgabe speichern").focus()
        page.keyboard.press("Enter")
        expect(page.get_by_role("heading", level=1)).to_have_text("Bube bedient nicht")
        item = OwnItem.objects.get()
        assert item.situation["hand"] == ["SJ", "S9", "HK"] or sorted(item.situation["hand"]) == ["HK", "S9", "SJ"]
        # in Herz the Pik-Bube is a trump: only the Pik-9 follows, as the engine says
        right = own_items.own_question(item)[1]
        assert own_items.grade_own(item, ["S9"]).correct
        expect(page.locator("#own-right")).to_have_text(render(right.answer.de, "de", "french"))
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
        page.locator('form.answer-form label.card-choice:has(input[value="S9"])').tap()
        page.get_by_role("button", name="Ausprobieren").click()
        expect(page.locator("#own-tried")).to_contain_text("Richtig")
    finally:
        context.close()


def test_build_an_irregularity_by_keyboard_at_375px(browser: Browser, live_server: LiveServer) -> None:
    """The fourth type: the cards played so far are chosen in selects, the irregularity by
    radio buttons; the engine's ruling is the item's answer."""
    context = phone(browser, live_server, make_user("herr-pik", teacher=True))
    try:
        page = context.new_page()
        page.goto(live_server.url + "/quiz/eigene/")
        page.get_by_role("link", name="Neu: Regelverstoß").click()
        expect(page.locator("#own-title")).to_be_visible()  # the new page has loaded
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
        page.locator("#own-title").fill("Hinterhand wirft ab")
        page.locator("#own-game").select_option("grand")
        page.locator("#own-bid").select_option("48")
        for code in "CJ SJ HJ DJ CA CT SA ST HA HT".split():
            _pick(page, "pick-hand", code)
        for code in ("D7", "D8"):
            _pick(page, "pick-skat", code)
        for number, code in enumerate(("CA", "C7", "CQ", "SA", "S7"), start=1):
            page.get_by_label(f"{number}. gespielte Karte", exact=True).select_option(code)
        page.locator("#event-revoke").focus()
        page.keyboard.press("Space")
        page.locator("#own-event-seat").select_option("2")
        page.locator("#own-event-card").select_option("DK")
        page.locator("#question-liste").check()
        page.get_by_role("button", name="Aufgabe speichern").focus()
        page.keyboard.press("Enter")
        expect(page.get_by_role("heading", level=1)).to_have_text("Hinterhand wirft ab")
        item = OwnItem.objects.get()
        assert item.kind == "regelverstoss" and item.situation["plays"] == ["CA", "C7", "CQ", "SA", "S7"]
        right = own_items.own_question(item)[1]
        expect(page.locator("#own-right")).to_have_text(render(right.answer.de, "de", "french"))
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    finally:
        context.close()

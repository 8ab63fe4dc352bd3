"""The site shell in Debian's chromium: language and deck switchers, keyboard use, phone width."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_switch_language_by_keyboard_and_deck_by_click(page: Page, live_server: LiveServer) -> None:
    page.goto(live_server.url + "/")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.get_by_role("heading", level=1)).to_have_text("Skat lernen nach der Skatordnung")
    expect(page.get_by_role("img", name="Kreuz-Bube")).to_be_visible()

    # The skip link is the first thing Tab reaches, and it is visible then.
    page.keyboard.press("Tab")
    skip = page.get_by_role("link", name="Zum Inhalt springen")
    expect(skip).to_be_focused()
    expect(skip).to_be_in_viewport()

    # Language by keyboard: focus the English button and press Enter.
    english = page.get_by_role("button", name="English")
    english.focus()
    page.keyboard.press("Enter")
    page.wait_for_url(live_server.url + "/")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_role("heading", level=1)).to_have_text("Learn Skat by the official rules")
    expect(page.get_by_role("button", name="English")).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_role("img", name="jack of clubs")).to_be_visible()

    # Deck by mouse: choose the German deck and click the button.
    page.get_by_label("Deck").select_option("german")
    page.get_by_role("button", name="Show").click()
    page.wait_for_url(live_server.url + "/")
    expect(page.get_by_role("status")).to_contain_text("Deck changed: German deck.")
    expect(page.get_by_role("img", name="Unter of acorns")).to_be_visible()
    expect(page.locator("#deck-select")).to_have_value("german")

    # Back to German: the deck choice stays.
    page.get_by_role("button", name="Deutsch").click()
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.get_by_role("img", name="Eichel-Unter")).to_be_visible()

    # The gallery shows the same deck on another page.
    page.get_by_role("link", name="Karten", exact=True).click()
    expect(page).to_have_url(re.compile(r"/karten/$"))
    expect(page.locator(".gallery-card")).to_have_count(32)
    expect(page.locator("#karte-CJ")).to_contain_text("Eichel-Unter")


def test_deck_switch_by_keyboard_only(page: Page, live_server: LiveServer) -> None:
    page.goto(live_server.url + "/karten/")
    select = page.locator("#deck-select")
    select.focus()
    select.select_option("tournament")  # what arrow keys do in a <select>
    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name="Anzeigen")).to_be_focused()
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/karten/$"))
    expect(select).to_have_value("tournament")
    # Pik is green in the tournament deck.
    assert "#1b7f3a" in page.locator("#karte-SA svg").inner_html()


def test_focus_is_visible(page: Page, live_server: LiveServer) -> None:
    page.goto(live_server.url + "/")
    page.get_by_role("button", name="English").focus()
    # Reach the button by keyboard so that :focus-visible applies.
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name="English")).to_be_focused()
    outline = page.evaluate(
        "() => { const s = getComputedStyle(document.activeElement); return s.outlineStyle + ' ' + s.outlineWidth; }"
    )
    assert outline.startswith("solid") and outline != "solid 0px", outline


@pytest.mark.parametrize("path", ["/", "/karten/"])
def test_phone_width_has_no_horizontal_scroll(phone_page: Page, live_server: LiveServer, path: str) -> None:
    phone_page.goto(live_server.url + path)
    expect(phone_page.get_by_role("heading", level=1)).to_be_visible()
    width = phone_page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, f"{path} is {width}px wide at 375px"
    # The switchers are usable on the phone too, in the compact header's menu.
    expect(phone_page.get_by_role("button", name="English")).to_be_hidden()
    phone_page.locator("summary.menu-toggle").tap()
    phone_page.get_by_role("button", name="English").tap()
    expect(phone_page.locator("html")).to_have_attribute("lang", "en")
    assert phone_page.evaluate("document.documentElement.scrollWidth") <= 375


def test_card_choices_work_with_keyboard_mouse_and_touch(phone_page: Page, page: Page, live_server: LiveServer) -> None:
    from django.utils import translation

    from skatschule.cards.render import choice_html

    with translation.override("de"):
        choices = choice_html("skat", "CJ SJ HA", "german")
    html = (
        f'<html lang="de"><head><link rel="stylesheet" href="{live_server.url}/static/css/site.css"></head>'
        f"<body><form><button type=button>vorher</button>{choices}</form></body></html>"
    )
    page.set_content(html)
    page.get_by_role("button", name="vorher").focus()
    page.keyboard.press("Tab")
    first = page.get_by_role("checkbox", name="Eichel-Unter", exact=True)
    expect(first).to_be_focused()
    page.keyboard.press("Space")
    expect(first).to_be_checked()
    svg = page.locator('svg[data-card="CJ"]')
    assert svg.evaluate("el => getComputedStyle(el).outlineStyle") == "solid"
    page.locator("label.card-choice").nth(2).click()
    expect(page.get_by_role("checkbox", name="Rot-Daus", exact=True)).to_be_checked()
    expect(page.get_by_role("checkbox", name="Grün-Unter", exact=True)).not_to_be_checked()

    phone_page.set_content(html)
    phone_page.locator("label.card-choice").nth(1).tap()
    expect(phone_page.get_by_role("checkbox", name="Grün-Unter", exact=True)).to_be_checked()

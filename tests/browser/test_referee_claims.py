"""The referee's calculator in Debian's chromium on a 375 px phone: a position opened from a link,
a claim that holds, then the same position with a claim that fails and its refuting line; without
JavaScript in German with the German deck, with JavaScript in English."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.browser.phones import phone

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# casebook F-38: middlehand on lead plays open with spades and diamonds forehand cannot beat
POSITION = {
    "spiel": "grand",
    "allein": "0",
    "aus": "1",
    "hand0": "CA CT H8 H7 D7",
    "hand1": "ST SK DA DT DK",
    "hand2": "CK HA HT HK DQ",
    "augen_allein": "14",
    "augen_gegner": "14",
    "stiche_allein": "4",
    "stiche_gegner": "1",
    "wer": "defenders",
    "ziel": "rest",
}

WORDS = {
    "de": ("Prüfen", "Die Forderung gilt", "Die Forderung gilt nicht", "Wer fordert?", "Was wird gefordert?"),
    "en": ("Check", "The claim holds", "The claim does not hold", "Who claims?", "What is claimed?"),
}


def _no_sideways(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 375


@pytest.mark.parametrize(("javascript", "lang"), [(False, "de"), (True, "en")])
def test_a_claim_that_holds_and_one_that_fails(
    browser: Browser, live_server: LiveServer, javascript: bool, lang: str
) -> None:
    check, holds, fails, who, what = WORDS[lang]
    context = phone(browser, live_server, lang=lang, java_script_enabled=javascript)
    if lang == "de":
        context.add_cookies([{"name": "skatschule_deck", "value": "german", "url": live_server.url}])
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    try:
        page.goto(f"{live_server.url}/schiedsrichter/abkuerzung/?{urlencode(POSITION)}")
        _no_sideways(page)
        expect(page.locator("#claim-result")).to_have_count(0)
        page.get_by_role("button", name=check).focus()
        page.keyboard.press("Enter")
        result = page.locator("#claim-result")
        expect(result.get_by_role("heading", level=2)).to_have_text(holds)
        _no_sideways(page)

        # the same position, now the declarer claims one more trick: he never gets one
        page.get_by_label(who).select_option("declarer")
        page.get_by_label(what).select_option("trick")
        page.get_by_role("button", name=check).click()
        expect(result.get_by_role("heading", level=2)).to_have_text(fails)
        line = result.locator(".claim-line li")
        expect(line).to_have_count(5)
        text = result.inner_text()
        if lang == "de":  # named as the German deck names the cards
            assert "Schellen" in text and "Karo" not in text, text
        assert "⟦" not in text
        # what was entered is still there
        expect(page.locator('input[name="hand1"][value="DK"]')).to_be_checked()
        expect(page.get_by_label(who)).to_have_value("declarer")
        _no_sideways(page)
        assert problems == []  # no script error, no refused style or script (CSP)
    finally:
        context.close()

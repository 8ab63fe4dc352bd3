"""The rules pages in Debian's chromium: permalink highlight, language, search, deck."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from skatschule.rules.content import reload

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def first_result_href(page: Page, live_server: LiveServer, query: str) -> str:
    search = page.locator("#site-search")
    search.fill(query)
    search.press("Enter")
    page.wait_for_url(re.compile(r"/regeln/suche/\?q="))
    first = page.locator(".search-results .search-result-link").first
    expect(first).to_be_visible()
    return str(first.get_attribute("href"))


def test_rules_pages_in_the_browser(page: Page, live_server: LiveServer) -> None:
    registry = reload()
    rule = registry.rule("3.2.3")
    assert rule is not None

    page.goto(live_server.url + "/regeln/")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    expect(page.locator(f'a[href="/regeln/{rule.id}"]')).to_be_visible()

    # The permalink lands on the chapter with the rule highlighted and scrolled into view.
    page.goto(live_server.url + "/regeln/3.2.3")
    expect(page).to_have_url(re.compile(r"/regeln/kapitel/3/#r-3\.2\.3$"))
    article = page.locator("#r-3\\.2\\.3")
    assert article.evaluate("el => el.matches(':target')")  # highlighted by CSS .rule:target
    highlight = page.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--highlight')")
    assert article.evaluate("el => getComputedStyle(el).backgroundColor") != "rgba(0, 0, 0, 0)" and highlight
    expect(article).to_be_in_viewport()
    expect(article).to_contain_text(rule.title_de)

    # Switch to English with the header's language form: same rule, English text.
    page.get_by_role("button", name="English").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator("#r-3\\.2\\.3")).to_contain_text(rule.title_en)
    expect(page).to_have_url(re.compile(r"/regeln/kapitel/3/#r-3\.2\.3$"))  # fragment.js kept the rule
    assert page.locator("#r-3\\.2\\.3").evaluate("el => el.matches(':target')")
    page.get_by_role("button", name="Deutsch").click()
    expect(page.locator("html")).to_have_attribute("lang", "de")

    # Search from the header: the first result is the rule one would want.
    assert re.search(r"/regeln/4\.2\.\d+$", first_result_href(page, live_server, "Schneider"))
    assert re.search(r"/regeln/4\.4\.\d+$", first_result_href(page, live_server, "überreizt"))
    expect(page.locator(".search-results mark").first).to_be_visible()
    assert re.search(r"/regeln/(2\.4\.3|4\.4\.\d+)$", first_result_href(page, live_server, "Bube im Skat"))

    # The deck switch redraws the cards of a chapter with [[cards:]].
    page.goto(live_server.url + "/regeln/kapitel/1/")
    cards = page.locator(".rule .directive-cards svg.card-img")
    expect(cards.first).to_have_class(re.compile(r"\bcard-french\b"))
    page.locator("#deck-select").select_option("german")
    page.locator(".deck-form button[type=submit]").click()
    expect(page.locator("#deck-select")).to_have_value("german")
    expect(page.locator(".rule .directive-cards svg.card-img").first).to_have_class(re.compile(r"\bcard-german\b"))


def test_bid_table_and_new_variants_on_a_phone(phone_page: Page, live_server: LiveServer) -> None:
    """Chapter 2's bid table and every chapter fit a 375 px phone; the K.6 variants have permalinks."""
    from skatschule.engine import BID_VALUES

    reload()
    page = phone_page
    page.goto(live_server.url + "/regeln/2.3.1")
    table = page.locator("table.bid-table").first
    expect(table).to_be_visible()
    expect(table.locator("tbody tr")).to_have_count(len(BID_VALUES))
    # no chapter makes the phone scroll sideways: tables scroll in their wrapper, derivations wrap
    for chapter in ("1", "2", "3", "4", "K", "A"):
        page.goto(live_server.url + f"/regeln/kapitel/{chapter}/")
        assert not page.evaluate("document.documentElement.scrollWidth > 375"), chapter
    page.goto(live_server.url + "/regeln/K.6.1")
    expect(page).to_have_url(re.compile(r"/regeln/kapitel/K/#r-K\.6\.1$"))
    expect(page.locator("#r-K\\.6\\.1")).to_be_visible()


def test_permalink_without_javascript_scrolls_to_the_rule(browser: Browser, live_server: LiveServer) -> None:
    """The permalink's fragment scrolls to the rule without any script; the chapter is the cached one."""
    reload()
    context = browser.new_context(viewport={"width": 375, "height": 740}, java_script_enabled=False, locale="de-DE")
    try:
        page = context.new_page()
        page.goto(live_server.url + "/regeln/3.2.3")
        expect(page).to_have_url(re.compile(r"/regeln/kapitel/3/#r-3\.2\.3$"))
        expect(page.locator("#r-3\\.2\\.3")).to_be_in_viewport()
    finally:
        context.close()

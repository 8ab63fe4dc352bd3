"""Phones (375 px) in chromium: no page scrolls sideways (every rules chapter, every exercise
type at every level, the casebook with every case), and the compact header stays at most
120 px tall while its menu (a <details>, no JavaScript needed) is closed."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from skatschule.casebook import cases as casebook
from skatschule.exercises import REGISTRY
from skatschule.rules.content import reload
from tests.present import present

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTH = 375
# The elements that stick out to the right (for the failure message).
WIDE = """(width) => [...document.querySelectorAll("main *, header *")]
  .filter((e) => e.getBoundingClientRect().right > width + 0.5)
  .slice(0, 5).map((e) => e.tagName + "." + e.className + ": " + (e.textContent || "").trim().slice(0, 60))"""


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(
        viewport={"width": WIDTH, "height": 800}, is_mobile=True, has_touch=True, locale="de-DE"
    )
    context.set_default_timeout(15_000)
    try:
        yield context.new_page()
    finally:
        context.close()


def _no_sideways_scroll(page: Page, url: str) -> None:
    response = page.goto(url)
    assert response is not None and response.status == 200, url
    # A number, not window.innerWidth: a mobile viewport widens itself to fit wide content.
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= WIDTH, f"{url}: {width} px wide: {page.evaluate(WIDE, WIDTH)}"


def test_rules_chapters_do_not_scroll_sideways(phone: Page, live_server: LiveServer) -> None:
    registry = reload()
    for chapter in registry.chapters:
        _no_sideways_scroll(phone, f"{live_server.url}/regeln/kapitel/{chapter.id}/")
    for path in ("/regeln/", "/regeln/glossar/", "/regeln/suche/?q=Reizwert", "/regeln/3.1.5/", "/karten/", "/"):
        _no_sideways_scroll(phone, live_server.url + path)


def test_exercises_do_not_scroll_sideways(phone: Page, live_server: LiveServer) -> None:
    for slug, kind in REGISTRY.items():
        for level in range(1, kind.levels + 1):
            _no_sideways_scroll(phone, f"{live_server.url}/ueben/aufgabe/{slug}/?stufe={level}")
    _no_sideways_scroll(phone, f"{live_server.url}/ueben/reizen-am-tisch/")


def test_casebook_does_not_scroll_sideways(phone: Page, live_server: LiveServer) -> None:
    _no_sideways_scroll(phone, f"{live_server.url}/faelle/")
    _no_sideways_scroll(phone, f"{live_server.url}/faelle/?regel=3.2&stufe=2")
    for case in casebook.load_cases():
        _no_sideways_scroll(phone, f"{live_server.url}/faelle/{case.id}/")
    # an answered case (the ruling with the engine's derivation), without JavaScript's help
    case = next(c for c in casebook.load_cases() if c.engine_input is not None)
    _no_sideways_scroll(phone, f"{live_server.url}/faelle/{case.id}/")
    answer = casebook.solve(case)
    phone.locator(f'input[type="radio"][value="{answer.choice}"]').check()
    phone.locator('input[type="number"]').fill(str(answer.score))
    phone.get_by_role("button", name="Entscheiden").click()
    expect(phone.locator("#case-result")).to_contain_text("Richtig!")
    assert phone.evaluate("document.documentElement.scrollWidth") <= WIDTH


@pytest.mark.parametrize("path", ["/", "/regeln/kapitel/3/", "/ueben/aufgabe/stich/?stufe=1", "/faelle/"])
def test_compact_phone_header_with_a_menu_that_needs_no_javascript(
    browser: Browser, live_server: LiveServer, path: str
) -> None:
    context = browser.new_context(
        viewport={"width": WIDTH, "height": 800},
        is_mobile=True,
        has_touch=True,
        locale="de-DE",
        java_script_enabled=False,
    )
    try:
        page = context.new_page()
        page.goto(live_server.url + path)
        header = page.locator("header.site-header")
        box = header.bounding_box()
        assert box is not None and box["height"] <= 120, f"{path}: header {box}"
        nav = page.get_by_role("navigation", name="Hauptnavigation")
        expect(nav).to_be_hidden()
        expect(page.get_by_role("searchbox", name="Suche", exact=True)).to_be_visible()
        # by keyboard: Tab from the search field reaches the menu button, Enter opens it
        page.get_by_role("searchbox", name="Suche", exact=True).focus()
        page.keyboard.press("Tab")
        page.keyboard.press("Tab")
        expect(page.locator("summary.menu-toggle")).to_be_focused()
        page.keyboard.press("Enter")
        expect(nav).to_be_visible()
        expect(nav.get_by_role("link", name="Fälle")).to_be_visible()
        expect(page.get_by_role("button", name="English")).to_be_visible()
        # the open menu lies over the page, the header itself keeps its height
        assert present(header.bounding_box())["height"] <= 120
        nav.get_by_role("link", name="Glossar").click()
        expect(page).to_have_url(live_server.url + "/regeln/glossar/")
    finally:
        context.close()


def test_desktop_shows_the_menu_without_a_toggle(page: Page, live_server: LiveServer) -> None:
    page.goto(live_server.url + "/")
    expect(page.locator("summary.menu-toggle")).to_be_hidden()
    nav = page.get_by_role("navigation", name="Hauptnavigation")
    expect(nav.get_by_role("link", name="Skatordnung")).to_be_visible()
    expect(page.get_by_label("Kartenblatt")).to_be_visible()
    # and by keyboard: Tab from the search reaches the navigation
    page.locator("#site-search").focus()
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('nav') !== null")


def test_lessons_do_not_scroll_sideways(phone: Page, live_server: LiveServer) -> None:
    """Every lesson page (issue 26 §3: regelverstoesse and hausregeln-und-kneipenskat scrolled sideways)."""
    from skatschule.training.lessons import get_lessons

    for lesson in get_lessons():
        _no_sideways_scroll(phone, f"{live_server.url}/ueben/lektion/{lesson.slug}/")

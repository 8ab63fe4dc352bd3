"""The analysis board in Debian's chromium at 375 px: the whole game is on the page once, so
stepping (keys, the navigation, the list of decisions, the graph's points) sends no request with
JavaScript; without it every step is a plain link and a page of its own."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, Page, Request, expect
from pytest_django.live_server_helper import LiveServer

from skatschule.table import services
from skatschule.table.models import TableGame
from tests.browser.phones import phone
from tests.present import present
from tests.table.stored import stored_games

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def quick_analysis(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(services, "ANALYSIS_NODES", 100_000)
    monkeypatch.setattr(services, "INSIGHT_SAMPLES", 2)
    monkeypatch.setattr(services, "INSIGHT_NODES", 5_000)


def _title(step: int, total: int) -> str:
    trick = step // 3 if step and step % 3 == 0 else step // 3 + 1
    return f"Karte {step} von {total} · Stich {trick}"


def _hidden(page: Page, selector: str) -> bool:
    return bool(page.locator(selector).evaluate("element => element.closest('[hidden]') !== null"))


@pytest.mark.parametrize("javascript", [True, False])
def test_the_board_steps_by_keyboard_without_requests(
    browser: Browser, live_server: LiveServer, django_user_model: type[User], javascript: bool
) -> None:
    user = django_user_model.objects.create_user("brett-schritte", password="geheim-12345")
    [(pk, _state)] = stored_games(user, 1)
    row = TableGame.objects.get(pk=present(pk))
    table = services.Table(int(row.seed), int(row.seat), list(row.moves), row.pk, row.took_back)
    plays = services.plays_of(state=services.replay(table=table))
    total = len(plays)
    context = phone(browser, live_server, user, java_script_enabled=javascript)
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/ueben/spiel/{row.pk}/brett/")
        expect(page.get_by_role("heading", name="Alle Entscheidungen")).to_be_visible()  # analysed
        requests: list[str] = []

        def count(request: Request) -> None:
            # pages, htmx and fetches; not the favicon chromium looks up again when the URL changes
            if request.resource_type in ("document", "xhr", "fetch", "script", "stylesheet"):
                requests.append(request.url)

        page.on("request", count)
        position = page.locator("#board-position")
        expect(position).to_have_text(_title(0, total))
        first = '.board-hand [data-played="0"]'
        assert not _hidden(page, first)  # the first card played is still in its hand
        page.keyboard.press("ArrowRight")
        if not javascript:
            # no script, no keys: the links do it, each a page of its own
            expect(position).to_have_text(_title(0, total))
            forward = page.get_by_role("link", name="Karte vor", exact=True)
            forward.focus()
            page.keyboard.press("Enter")
            expect(position).to_have_text(_title(1, total))
            assert _hidden(page, first) and not _hidden(page, '.table-trick [data-played="0"]')
            assert requests and all("schritt=1" in url for url in requests[:1])
            point = page.locator("a.graph-dot").last
            step = int(point.get_attribute("data-step") or "")
            point.click()
            expect(position).to_have_text(_title(step, total))
            assert f"schritt={step}" in page.url
            return
        # with JavaScript: card, trick, the ends, all in the page
        expect(position).to_have_text(_title(1, total))
        live = page.locator("[data-board-live]")
        expect(live).to_have_text(_title(1, total))  # read out by screen readers
        assert _hidden(page, first) and not _hidden(page, '.table-trick [data-played="0"]')
        assert "schritt=1" in page.url  # a reload shows the same card
        page.keyboard.press("ArrowDown")
        expect(position).to_have_text(_title(3, total))
        expect(page.locator("[data-board-table]")).to_contain_text("bekommt ihn")  # the full trick
        assert page.locator(".table-trick figure:not([hidden])").count() == 3
        page.keyboard.press("ArrowDown")
        expect(position).to_have_text(_title(6, total))
        page.keyboard.press("ArrowUp")
        expect(position).to_have_text(_title(3, total))
        page.keyboard.press("ArrowLeft")
        expect(position).to_have_text(_title(2, total))
        page.keyboard.press("End")
        expect(position).to_have_text(_title(total, total))
        assert page.locator(".board-hand .board-card:not([hidden])").count() == 0
        page.keyboard.press("Home")
        expect(position).to_have_text(_title(0, total))
        assert page.locator(".board-hand .board-card:not([hidden])").count() == total
        # the navigation's links follow the step (a middle click or a new tab gets the right page)
        forward = page.get_by_role("link", name="Karte vor", exact=True)
        forward.focus()
        page.keyboard.press("Enter")
        expect(position).to_have_text(_title(1, total))
        expect(forward).to_be_focused()
        assert re.search(r"schritt=2#brett-karte-vor$", forward.get_attribute("href") or "")
        # a decision of the list: its step, the keyboard on the position, the item current
        decision = page.locator("ol.board-decisions > li").last
        link = decision.get_by_role("link")
        step = int(link.get_attribute("data-step") or "")
        link.focus()
        page.keyboard.press("Enter")
        expect(position).to_have_text(_title(step, total))
        expect(position).to_be_focused()
        expect(decision).to_have_attribute("aria-current", "step")
        expect(page.locator(f'section.board-decision[data-decision="{step}"]')).to_be_visible()
        # a point of the graph
        point = page.locator("a.graph-dot").first
        target = int(point.get_attribute("data-step") or "")
        point.click()
        expect(position).to_have_text(_title(target, total))
        assert page.evaluate("document.documentElement.scrollWidth") <= 375
        assert requests == []  # every step without a request
    finally:
        context.close()


def test_the_iss_viewer_steps_by_keys_one_page_a_step(browser: Browser, live_server: LiveServer) -> None:
    """The ISS viewer's steps are exercises (the next step's cards answer them), so it sends one
    step at a time; the keys follow its links and the keyboard stays on the page's steps."""
    from tests.table.records import played_record

    context = phone(browser, live_server)
    page = context.new_page()
    try:
        page.goto(live_server.url + "/ueben/spiel/iss/")
        page.get_by_label("Einen oder mehrere Datensätze").fill(played_record(3))
        page.get_by_role("button", name="Einlesen").click()
        expect(page.get_by_text("Karte 0 von")).to_be_visible()
        expect(page.get_by_text("Mit der Tastatur: ← und →")).to_be_visible()
        page.keyboard.press("ArrowRight")
        expect(page.get_by_text("Karte 1 von")).to_be_visible()
        page.keyboard.press("End")
        expect(page.get_by_text("Karte 0 von")).to_have_count(0)
        assert "schritt=" in page.url and "schritt=1&" not in page.url
        page.keyboard.press("Home")
        expect(page.get_by_text("Karte 0 von")).to_be_visible()
    finally:
        context.close()


@pytest.mark.parametrize("javascript", [True, False])
def test_a_board_is_shared_and_revoked_by_keyboard(
    browser: Browser, live_server: LiveServer, django_user_model: type[User], javascript: bool
) -> None:
    user = django_user_model.objects.create_user("brett-teiler", password="geheim-12345")
    [(pk, _state)] = stored_games(user, 1)
    context = phone(browser, live_server, user, java_script_enabled=javascript)
    visitor = phone(browser, live_server, java_script_enabled=javascript)
    page, outside = context.new_page(), visitor.new_page()
    try:
        page.goto(f"{live_server.url}/ueben/spiel/{pk}/brett/")
        share = page.get_by_role("button", name="Brett teilen")
        share.focus()
        page.keyboard.press("Enter")
        link = page.locator(".board-share a")
        expect(link).to_be_visible()
        href = link.get_attribute("href") or ""
        assert href.startswith("/ueben/spiel/geteilt/")
        assert page.evaluate("document.documentElement.scrollWidth") <= 375
        shown = outside.goto(live_server.url + href)
        assert shown is not None and shown.status == 200
        expect(outside.get_by_role("heading", level=1)).to_have_text("Analysebrett")
        expect(outside.locator('meta[name="robots"]')).to_have_attribute("content", "noindex, nofollow")
        assert user.username not in outside.content()
        revoke = page.get_by_role("button", name="Nicht mehr teilen")
        revoke.focus()
        page.keyboard.press("Enter")
        expect(page.get_by_role("button", name="Brett teilen")).to_be_visible()
        gone = outside.goto(live_server.url + href)
        assert gone is not None and gone.status == 404
    finally:
        context.close()
        visitor.close()

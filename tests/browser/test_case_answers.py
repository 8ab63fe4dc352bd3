"""Answering a case of the casebook in chromium: by keyboard with htmx, without JavaScript,
and signed in (the index then marks the case as solved). Right answers come from the engine."""

from __future__ import annotations

import pytest
from django.test import Client
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from skatschule.casebook import cases as casebook
from skatschule.casebook.models import SolvedCase
from tests.people import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _tab_to(page: Page, predicate: str, limit: int = 60) -> int:
    for presses in range(1, limit + 1):
        page.keyboard.press("Tab")
        if page.evaluate(f"(e => !!({predicate}))(document.activeElement)"):
            return presses
    raise AssertionError(f"Tab never reached {predicate}")


def test_answering_a_case_by_keyboard_with_htmx(page: Page, live_server: LiveServer) -> None:
    case = next(c for c in casebook.load_cases() if c.engine_input is not None and c.score_asked)
    answer = casebook.solve(case)  # the engine's ruling
    page.goto(f"{live_server.url}/faelle/{case.id}/")
    expect(page.locator("#case-result")).not_to_contain_text("Richtige Antwort")
    page.locator(f'input[type="radio"][value="{answer.choice}"]').focus()
    page.keyboard.press("Space")
    _tab_to(page, "e.type === 'number'")
    page.keyboard.type(str(answer.score))
    page.keyboard.press("Enter")
    result = page.locator("#case-result")
    expect(result).to_contain_text("Richtig!", timeout=15_000)
    expect(page.locator("#case-result-title")).to_be_focused()
    expect(result).to_contain_text(answer.steps[-1].de)
    assert page.url.endswith(f"/faelle/{case.id}/"), "htmx swapped the result in place"


def test_answering_a_case_without_javascript(browser: Browser, live_server: LiveServer) -> None:
    case = next(c for c in casebook.load_cases() if not c.score_asked)
    right = casebook.solve(case).choice
    wrong = next(c.value for c in case.choices if c.value != right)
    context = browser.new_context(java_script_enabled=False, locale="de-DE")
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/faelle/{case.id}/")
        page.locator(f'input[type="radio"][value="{wrong}"]').check()
        page.get_by_role("button", name="Entscheiden").click()
        expect(page).to_have_url(f"{live_server.url}/faelle/{case.id}/antwort/")
        expect(page.locator("#case-result")).to_contain_text("Leider nicht richtig.")
        expect(page.locator(f'input[type="radio"][value="{wrong}"]')).to_be_checked()
        page.locator(f'input[type="radio"][value="{right}"]').check()
        page.get_by_role("button", name="Entscheiden").click()
        expect(page.locator("#case-result")).to_contain_text("Richtig!")
    finally:
        context.close()


def test_signed_in_reader_sees_solved_cases_in_the_index(page: Page, live_server: LiveServer) -> None:
    user = make_user("schiedsrichterin")
    client = Client()
    client.force_login(user)
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    case = next(c for c in casebook.load_cases() if not c.score_asked)
    page.goto(f"{live_server.url}/faelle/{case.id}/")
    page.locator(f'input[type="radio"][value="{casebook.solve(case).choice}"]').check()
    page.get_by_role("button", name="Entscheiden").click()
    expect(page.locator("#case-result")).to_contain_text("Diesen Fall hast du gelöst")
    expect(page.locator("h1 .case-solved")).to_have_text("gelöst")  # htmx updated the heading too
    assert SolvedCase.objects.get(user=user, case_id=case.id).solved
    page.goto(f"{live_server.url}/faelle/")
    item = page.locator("li.case-item").filter(has=page.locator(f'a[href="/faelle/{case.id}/"]'))
    expect(item.locator(".case-solved")).to_have_text("gelöst")
    expect(page.locator(".case-solved")).to_have_count(1)
    # the search keeps the mark: find the case by its id
    page.get_by_label("Suche in den Fällen").fill(case.id)
    page.get_by_role("button", name="Filtern").click()
    expect(page.locator("li.case-item")).to_have_count(1)
    expect(page.locator("li.case-item .case-solved")).to_be_visible()

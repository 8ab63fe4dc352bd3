"""The Content-Security-Policy in Debian's chromium: pages and htmx work, nothing is blocked."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from skatschule.training.models import Attempt, IssuedExercise
from skatschule.training.registry import get_type
from skatschule.training.services.issuing import question_for
from tests.present import present

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _watch(page: Page) -> list[str]:
    problems: list[str] = []
    page.on("console", lambda msg: problems.append(msg.text) if msg.type in ("error", "warning") else None)
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    return problems


def test_pages_load_without_csp_violations(live_server: LiveServer, page: Page) -> None:
    problems = _watch(page)
    for path in ("/", "/regeln/kapitel/3/", "/ueben/aufgabe/augen/"):
        response = present(page.goto(live_server.url + path))
        assert response.status == 200
        assert "script-src 'self'" in response.headers["content-security-policy"]
        expect(page.locator("h1").first).to_be_visible(timeout=15_000)
    # htmx runs under the policy: answering swaps the feedback in without a reload
    issued = IssuedExercise.objects.latest("issued_at", "pk")
    right = present(get_type(issued.kind)).correct_answer(question_for(issued))
    form = page.locator(f'form[action="/ueben/antwort/{issued.public_id}/"]')
    form.locator('input[name="answer"]').first.fill(right[0])
    form.locator('button[type="submit"]').click()
    expect(page.locator(f"#feedback-{issued.public_id}")).not_to_be_empty(timeout=15_000)
    assert Attempt.objects.filter(issued=issued).exists()
    # the progress page draws its bars with style attributes (allowed: style-src-attr)
    page.goto(live_server.url + "/ueben/fortschritt/")
    expect(page.locator("h1").first).to_be_visible(timeout=15_000)
    assert not [p for p in problems if "Content Security Policy" in p or "Refused to" in p], problems


def test_an_injected_inline_script_is_blocked(live_server: LiveServer, page: Page) -> None:
    """The policy really bites: an inline script added to the page does not run."""
    problems = _watch(page)
    page.goto(live_server.url + "/")
    page.evaluate(
        "() => { const s = document.createElement('script'); s.textContent = 'window.pwned = 1';"
        " document.body.appendChild(s); }"
    )
    assert page.evaluate("() => window.pwned") is None
    assert any("Content Security Policy" in p for p in problems), problems

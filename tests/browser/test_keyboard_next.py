"""By keyboard only in chromium: answer an exercise, press Enter on "Nächste Aufgabe", and the
new question has the focus; one Tab later the focus is in its answer form (not in the header)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from skatschule.training.models import IssuedExercise

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

IN_ANSWER_FORM = "(e => !!e.closest('form.answer-form'))(document.activeElement)"


def _tab_to(page: Page, predicate: str, limit: int = 60) -> int:
    for presses in range(1, limit + 1):
        page.keyboard.press("Tab")
        if page.evaluate(f"(e => !!({predicate}))(document.activeElement)"):
            return presses
    raise AssertionError(f"Tab never reached {predicate}")


@pytest.mark.parametrize("start", ["/ueben/aufgabe/stich/?stufe=1", "/ueben/lektion/die-karten/"])
def test_next_exercise_by_keyboard_focuses_the_new_question(page: Page, live_server: LiveServer, start: str) -> None:
    page.goto(live_server.url + start)
    first = IssuedExercise.objects.latest("issued_at", "pk")
    _tab_to(page, "e.name === 'answer'")
    if page.evaluate("document.activeElement.type") in ("radio", "checkbox"):
        page.keyboard.press("Space")
    else:
        page.keyboard.type("1")
    _tab_to(page, "e.type === 'submit' && e.closest('form.answer-form')")
    page.keyboard.press("Enter")
    next_link = page.locator("a.next-exercise")
    expect(next_link).to_be_focused(timeout=15_000)
    page.keyboard.press("Enter")
    page.wait_for_url(lambda url: "weiter=1" in url)
    second = IssuedExercise.objects.latest("issued_at", "pk")
    assert second.pk != first.pk
    heading = page.locator(f"#exercise-title-{second.public_id}")
    expect(heading).to_be_focused()
    expect(heading).to_be_in_viewport()
    assert _tab_to(page, "e.closest('form.answer-form')", limit=12) <= 12  # not back through the header
    assert page.evaluate(IN_ANSWER_FORM)

"""Training in Debian's chromium: htmx feedback without reload, progress, accounts, phone width."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from skatschule.training.models import IssuedExercise
from skatschule.training.registry import get_type
from skatschule.training.services.issuing import question_for
from tests.browser.answers import fill_answer
from tests.present import present

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "herz-ass-und-pik-zehn"


def _latest_answer() -> tuple[IssuedExercise, list[str]]:
    issued = IssuedExercise.objects.latest("issued_at", "pk")
    question = question_for(issued)
    return issued, present(get_type(issued.kind)).correct_answer(question)


def _fill(page: Page, issued: IssuedExercise, values: list[str]) -> None:
    """Enter an answer the way a learner would, for any widget."""
    form = page.locator(f'form[action="/ueben/antwort/{issued.public_id}/"]')
    fill_answer(form, question_for(issued), values, issued.public_id)


def _progress(page: Page) -> int:
    return int(present(page.locator("#lesson-progress-bar").get_attribute("value")))


def test_lesson_htmx_feedback_progress_and_accounts(page: Page, live_server: LiveServer) -> None:
    page.goto(live_server.url + "/ueben/lektion/die-karten/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Die Karten")
    assert _progress(page) == 0
    page.evaluate("window.__noReload = true")

    # A wrong answer: the explanation appears in place, without a page load.
    issued, right = _latest_answer()
    wrong = [str(int(right[0]) + 1)] if question_for(issued).widget == "number" else []
    _fill(page, issued, wrong)
    page.get_by_role("button", name="Antworten").click()
    feedback = page.locator(f"#feedback-{issued.public_id} .feedback-wrong")
    expect(feedback).to_be_visible()
    expect(feedback).to_contain_text("Richtige Antwort")
    expect(feedback).to_contain_text(right[0])
    expect(feedback.locator("a.rule-ref").first).to_have_attribute("href", re.compile(r"^/regeln/"))
    expect(page.locator(f"#submit-{issued.public_id}")).to_be_disabled()
    assert page.evaluate("window.__noReload === true"), "the page was reloaded"
    assert _progress(page) == 0

    # Next exercise, answered right: the progress bar moves (out-of-band swap, no reload).
    page.get_by_role("link", name="Nächste Aufgabe").click()
    page.wait_for_load_state()
    page.evaluate("window.__noReload = true")
    issued, right = _latest_answer()
    _fill(page, issued, right)
    page.get_by_role("button", name="Antworten").click()
    expect(page.locator(f"#feedback-{issued.public_id} .feedback-correct")).to_be_visible()
    expect(page.locator("#lesson-progress-bar")).to_have_attribute("value", re.compile(r"^[1-9]\d*$"))
    assert page.evaluate("window.__noReload === true")
    moved = _progress(page)

    # Sign up: the anonymous progress is carried over.
    page.goto(live_server.url + "/konto/registrieren/")
    page.locator("#id_username").fill("lernende")
    page.locator("#id_password1").fill(PASSWORD)
    page.locator("#id_password2").fill(PASSWORD)
    page.get_by_role("button", name="Konto anlegen").click()
    expect(page).to_have_url(re.compile(r"/ueben/fortschritt/$"))
    expect(page.locator("#dash-progress-die-karten-bar")).to_have_attribute("value", str(moved))

    # Log out (a POST button in the header) and back in: the progress is still there.
    page.get_by_role("button", name="Abmelden").click()
    page.goto(live_server.url + "/ueben/fortschritt/")
    expect(page.locator("#dash-progress-die-karten-bar")).to_have_attribute("value", "0")
    page.goto(live_server.url + "/konto/anmelden/")
    page.locator("#id_username").fill("lernende")
    page.locator("#id_password").fill(PASSWORD)
    page.locator("main").get_by_role("button", name="Anmelden").click()
    expect(page).to_have_url(re.compile(r"/ueben/fortschritt/$"))
    expect(page.locator("#dash-progress-die-karten-bar")).to_have_attribute("value", str(moved))
    page.goto(live_server.url + "/ueben/lektion/die-karten/")
    assert _progress(page) == moved


def test_unreadable_answer_is_shown_by_htmx(page: Page, live_server: LiveServer) -> None:
    page.goto(live_server.url + "/ueben/aufgabe/augen/?stufe=1")
    issued, _right = _latest_answer()
    # Bypass the browser's own number check to send junk, as a broken client might.
    page.evaluate(
        "id => { const i = document.getElementById(id); i.type = 'text'; i.value = 'zwölf'; }",
        f"ans-{issued.public_id}",
    )
    page.get_by_role("button", name="Antworten").click()
    expect(page.get_by_role("alert")).to_contain_text("keine ganze Zahl")


def test_cards_can_be_chosen_by_keyboard(page: Page, live_server: LiveServer) -> None:
    page.goto(live_server.url + "/ueben/aufgabe/zugeben/?stufe=1")
    issued, right = _latest_answer()
    first = page.locator(f'form[action="/ueben/antwort/{issued.public_id}/"] input[name="answer"]').first
    first.focus()
    page.keyboard.press("Space")
    expect(first).to_be_checked()


@pytest.mark.parametrize(
    "path", ["/ueben/fortschritt/", "/ueben/lektion/die-karten/", "/ueben/", "/ueben/lektion/spitzen/"]
)
def test_no_horizontal_scroll_on_a_phone(phone_page: Page, live_server: LiveServer, path: str) -> None:
    phone_page.goto(live_server.url + path)
    width = phone_page.evaluate("document.documentElement.scrollWidth")
    viewport = phone_page.evaluate("window.innerWidth")
    assert width <= viewport, f"{path}: {width}px wide in a {viewport}px viewport"


def test_spitzen_control_works_by_keyboard(page: Page, live_server: LiveServer) -> None:
    """mit/ohne and the number are reached and set with the keyboard alone; the answer is graded."""
    page.goto(live_server.url + "/ueben/aufgabe/spitzen/?stufe=2")
    issued, right = _latest_answer()
    value = int(right[0])
    form = page.locator(f'form[action="/ueben/antwort/{issued.public_id}/"]')
    assert form.locator('input[type="radio"]').count() == 2
    mit = form.locator(f"#ans-{issued.public_id}-mit")
    mit.focus()
    if value < 0:
        page.keyboard.press("ArrowRight")  # radio group: the arrow moves to "ohne" and selects it
        expect(form.locator(f"#ans-{issued.public_id}-ohne")).to_be_checked()
    else:
        page.keyboard.press("Space")
        expect(mit).to_be_checked()
    page.keyboard.press("Tab")
    expect(form.locator(f"#ans-{issued.public_id}-count")).to_be_focused()
    page.keyboard.type(str(abs(value)))
    page.keyboard.press("Enter")
    expect(page.locator(".feedback-verdict")).to_have_text("Richtig!")

"""Studies in Debian's chromium on a 375 px phone: a teacher types in a game, sets a stop, shares
it by link; a learner opens the link, steps to the stop by keyboard, answers it and goes on.
Without JavaScript in German with the German deck, with JavaScript in English."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from skatschule.studies.models import Study
from tests.browser.phones import phone
from tests.people import make_user
from tests.studies.games import random_game, stop_with_a_wrong_card, typed_fields

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WORDS = {
    "de": ("Studie anlegen", "Speichern", "Teilen speichern", "Weiter", "Was spielst du?", "Richtig ist"),
    "en": ("Create study", "Save", "Save sharing", "Next", "What do you play?", "Right is"),
}


def _no_sideways(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 375


@pytest.mark.parametrize(("javascript", "lang"), [(False, "de"), (True, "en")])
def test_a_teacher_makes_a_study_with_a_stop_and_a_learner_answers_it(
    browser: Browser, live_server: LiveServer, javascript: bool, lang: str
) -> None:
    create, save, share, next_word, ask, right = WORDS[lang]
    spot = random_game(11)
    moment = stop_with_a_wrong_card(spot)
    teacher = make_user("lehrerin", teacher=True)
    context = phone(browser, live_server, teacher, lang=lang, java_script_enabled=javascript)
    page = context.new_page()
    page.goto(f"{live_server.url}/studien/neu/")
    _no_sideways(page)
    fields = typed_fields(spot)
    typed = page.locator("form", has=page.locator('input[value="eingabe"]'))
    typed.locator('input[name="titel"]').fill("Grand-Studie")
    for name in ("hand0", "hand1", "hand2", "skat"):
        typed.locator(f'input[name="{name}"]').fill(fields[name])
    typed.locator('select[name="spiel"]').select_option(fields["spiel"])
    typed.locator('textarea[name="karten"]').fill(fields["karten"])
    typed.get_by_role("button", name=create).click()
    expect(page.locator("h1")).to_have_text("Grand-Studie")
    page.locator(f"#notiz{moment}").fill("Denk an die Augen.")
    page.locator(f'input[name="halt{moment}"]').check()
    page.get_by_role("button", name=save, exact=True).click()
    page.locator('input[name="link"]').check()
    page.get_by_role("button", name=share).click()
    _no_sideways(page)
    link = page.locator(".study-link").inner_text()
    study = Study.objects.get()
    assert study.link_shared and study.stops.get().status == "bewertet"

    learner = phone(browser, live_server, lang=lang, java_script_enabled=javascript)
    if lang == "de":
        learner.add_cookies([{"name": "skatschule_deck", "value": "german", "url": live_server.url}])
    board = learner.new_page()
    board.goto(link)
    to_stop = board.locator(".study-step-links a").last
    to_stop.focus()
    board.keyboard.press("Enter")
    expect(board.get_by_role("heading", name=ask)).to_be_visible()
    expect(board.locator(".study-note")).to_contain_text("Denk an die Augen.")
    expect(board.locator(f'a[href="?schritt={moment + 1}"]')).to_have_count(0)
    _no_sideways(board)
    first_card = board.locator("#antwort .card-button").first
    first_card.focus()
    board.keyboard.press("Enter")
    expect(board.locator("#antwort")).to_contain_text(right)
    text = board.locator("#antwort").inner_text()
    if lang == "de":
        assert "Karo" not in text and "Kreuz" not in text, text  # the German deck's names
    board.locator("#antwort").get_by_role("link", name=next_word).click()
    expect(board.locator(f'[data-played="{moment + 1}"]')).to_have_count(1)
    _no_sideways(board)
    assert study.stops.get().answers.count() == 1
    context.close()
    learner.close()

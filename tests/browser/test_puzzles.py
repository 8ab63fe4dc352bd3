"""Puzzles in Debian's chromium at 375 px without JavaScript, by keyboard, in the German deck:
the daily puzzle, an answer with its explanation, the streak, a theme page, the rating chart,
English, and Aus meinen Fehlern through a real job."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from skatschule.puzzles import content, selectors
from skatschule.puzzles.models import Puzzle
from tests.browser.phones import phone
from tests.present import present

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _answer_of(page: Page) -> tuple[str, str]:
    action = page.locator("ul.puzzle-cards form").first.get_attribute("action")
    row = Puzzle.objects.get(pk=present(action).strip("/").split("/")[-1])
    puzzle = selectors.engine_puzzle(row)
    right = puzzle.answer[0].code
    wrong = next(c.code for c in puzzle.values if c not in puzzle.answer)
    return right, wrong


def _no_sideways(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 375


def _press_card(page: Page, code: str) -> None:
    button = page.locator(f'ul.puzzle-cards form:has(input[name="karte"][value="{code}"]) button')
    button.focus()
    page.keyboard.press("Enter")
    page.wait_for_load_state()


def test_puzzles_by_keyboard_on_a_phone_without_javascript(browser: Browser, live_server: LiveServer) -> None:
    content.load_shipped()
    context = phone(browser, live_server, java_script_enabled=False)
    context.add_cookies([{"name": "skatschule_deck", "value": "german", "url": live_server.url}])
    page = context.new_page()
    try:
        page.goto(live_server.url + "/ueben/aufgaben/")
        _no_sideways(page)
        page.get_by_role("link", name="Aufgabe des Tages").click()
        expect(page.get_by_role("heading", level=1)).to_have_text("Aufgabe des Tages")
        _no_sideways(page)
        right, _ = _answer_of(page)
        _press_card(page, right)
        result = page.locator("section.feedback-correct")
        expect(result).to_contain_text("Richtig")
        expect(result.locator("ol.steps li").first).to_be_visible()
        expect(result.locator("svg.card-german").first).to_be_visible()
        _no_sideways(page)
        # back on the daily puzzle: it says it is solved, with the result, and offers no card
        page.goto(live_server.url + "/ueben/aufgaben/taeglich/")
        expect(page.locator("section.feedback-correct h2")).to_contain_text("Heute gelöst: richtig")
        expect(page.locator("ul.puzzle-cards")).to_have_count(0)

        # the streak: one right, then a wrong card ends it
        page.goto(live_server.url + "/ueben/aufgaben/serie/")
        right, _ = _answer_of(page)
        _press_card(page, right)
        expect(page.locator("section.feedback")).to_contain_text("Serie: 1")
        page.get_by_role("link", name="Weiter").click()
        _, wrong = _answer_of(page)
        _press_card(page, wrong)
        expect(page.locator("section.feedback-wrong")).to_contain_text("Serie beendet nach 1")

        page.goto(live_server.url + "/ueben/aufgaben/themen/")
        _no_sideways(page)
        page.get_by_role("link", name="Als Gegenspieler").click()
        expect(page.get_by_role("heading", level=1)).to_have_text("Als Gegenspieler")

        page.goto(live_server.url + "/ueben/aufgaben/verlauf/")
        expect(page.locator("svg.puzzle-chart polyline")).to_have_count(1)
        _no_sideways(page)
    finally:
        context.close()


def test_a_card_the_rules_forbid_cannot_be_sent(browser: Browser, live_server: LiveServer) -> None:
    """Issue 34 §4: a forbidden card is a disabled button (as at the table): a click sends nothing,
    so no 400 and no console error; the legal cards still answer."""
    content.load_shipped()
    row, forbidden = next(
        (r, [c for c in hand if c not in legal])
        for r in Puzzle.objects.order_by("pk")
        for state in [selectors.engine_puzzle(r).spot.state()]
        for hand, legal in [(list(state.hand(state.to_move or 0)), state.legal_cards())]
        if any(c not in legal for c in hand)
    )
    context = phone(browser, live_server)
    page = context.new_page()
    failures: list[str] = []
    page.on("console", lambda m: failures.append(m.text) if m.type == "error" else None)
    page.on("response", lambda r: failures.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    try:
        page.goto(f"{live_server.url}/ueben/aufgaben/{row.pk}/")
        for card in forbidden:
            button = page.locator(f'ul.puzzle-cards form:has(input[name="karte"][value="{card.code}"]) button')
            expect(button).to_be_disabled()
            button.click(force=True)
        expect(page.locator("section.feedback")).to_have_count(0)
        assert failures == []
        right, _ = _answer_of(page)
        _press_card(page, right)
        expect(page.locator("section.feedback-correct")).to_be_visible()
    finally:
        context.close()


def test_puzzles_in_english(browser: Browser, live_server: LiveServer) -> None:
    content.load_shipped()
    context = phone(browser, live_server, lang="en")
    page = context.new_page()
    try:
        page.goto(live_server.url + "/ueben/aufgaben/naechste/")
        expect(page.get_by_role("heading", name="Your cards", exact=False)).to_be_visible()
        _, wrong = _answer_of(page)
        _press_card(page, wrong)
        expect(page.locator("section.feedback-wrong")).to_contain_text("Not quite")
        expect(page.locator("section.feedback-wrong")).to_contain_text("How the answer comes about")
    finally:
        context.close()


def test_aus_meinen_fehlern_through_a_real_worker(browser: Browser, live_server: LiveServer) -> None:
    from django.test import override_settings

    from skatschule.table.models import TableGame
    from tests.jobs.test_worker import DB_TASKS, worker
    from tests.people import make_user
    from tests.puzzles.test_jobs import _game_with_a_mistake

    record, seat = _game_with_a_mistake()
    user = make_user("jana")
    TableGame.objects.create(user=user, seed=3, seat=seat, moves=[], iss_record=record)
    context = phone(browser, live_server, user, java_script_enabled=False)
    page = context.new_page()
    try:
        with override_settings(TASKS=DB_TASKS), worker():
            page.goto(live_server.url + "/ueben/aufgaben/meine-fehler/")
            page.get_by_role("button", name="Fehler suchen").first.focus()
            page.keyboard.press("Enter")
            page.wait_for_load_state()
            for _ in range(120):
                if page.get_by_role("heading", name="Deine Aufgaben nach Spiel").count():
                    break
                page.wait_for_timeout(1000)
                page.goto(page.url)  # the plain reload link's job, without JavaScript
            expect(page.get_by_role("heading", name="Deine Aufgaben nach Spiel")).to_be_visible()
        _no_sideways(page)
        page.locator("section a[href^='/ueben/aufgaben/']").first.click()
        expect(page.locator("ul.puzzle-cards form").first).to_be_visible()
        assert Puzzle.objects.filter(owner_user=user).exists()
    finally:
        context.close()


def test_own_reizen_and_druecken_questions_by_keyboard_on_a_phone(
    browser: Browser, live_server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An own Reizen and an own Drücken question (rows as the search stores them): listed, answered
    by keyboard without JavaScript at 375 px, graded by the trainers (few deals here)."""
    from skatschule.engine import CARDS, GameType
    from skatschule.engine.discard import grade_hand
    from skatschule.graded_by_play.work import BID_TYPE, TYPE
    from skatschule.puzzles.models import OwnQuestion
    from tests.people import make_user

    monkeypatch.setattr(BID_TYPE, "deals", 20)
    monkeypatch.setattr(TYPE, "deals", 20)
    monkeypatch.setattr(TYPE, "screen", 5)
    user = make_user("nele")
    ten, twelve = CARDS[:10], CARDS[10:22]
    OwnQuestion.objects.create(
        owner_user=user, kind="reizen", cards=" ".join(c.code for c in ten), position=2, did="0 18"
    )
    worst = grade_hand(twelve, GameType.GRAND, deals=20, screen=5).chosen.grades[-1].cards
    OwnQuestion.objects.create(
        owner_user=user,
        kind="druecken",
        cards=" ".join(c.code for c in twelve),
        game="grand",
        did=" ".join(c.code for c in worst),
    )
    context = phone(browser, live_server, user, java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(live_server.url + "/ueben/aufgaben/meine-fehler/")
        _no_sideways(page)
        page.get_by_role("link", name="Reizen-Frage").first.click()
        expect(page.get_by_role("heading", level=1)).to_have_text("Reizen")
        _no_sideways(page)
        page.locator("select[name='answer']").select_option("18")
        page.get_by_role("button", name="Antworten").focus()
        page.keyboard.press("Enter")
        page.wait_for_load_state()
        verdict = page.locator("section.feedback")
        expect(verdict).to_contain_text("20 zufälligen Verteilungen")
        expect(verdict).to_contain_text("Damals im Spiel hast du bei 18 gepasst.")
        _no_sideways(page)
        page.goto(live_server.url + "/ueben/aufgaben/meine-fehler/")
        page.get_by_role("link", name="Drücken-Frage").first.click()
        for card in worst:
            page.locator(f"input[name='answer'][value='{card.code}']").focus()
            page.keyboard.press("Space")
        page.locator("select[name='answer']").select_option("grand")
        page.get_by_role("button", name="Antworten").focus()
        page.keyboard.press("Enter")
        page.wait_for_load_state()
        verdict = page.locator("section.feedback-wrong")
        expect(verdict).to_contain_text("von 66")
        expect(verdict).to_contain_text("Damals im Spiel hast du")
        _no_sideways(page)
    finally:
        context.close()

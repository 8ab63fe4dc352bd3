"""Hints before the first card and the review's new parts in Debian's chromium at 375 px, in
both languages, with and without JavaScript (issue 37 §2, §3 and §1): "Was würde der Computer
tun und warum?" in the auction, at the skat and at the discard; on the board "Was weiß ich?"
and "Ab hier weiterspielen", which seats the learner at the table where he was."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, BrowserContext, Page, expect
from pytest_django.live_server_helper import LiveServer

from skatschule.engine import Phase
from skatschule.table import services
from skatschule.table.models import TableGame
from tests.browser.phones import phone
from tests.present import present
from tests.table.stored import stored_games

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WORDS = {
    "de": {
        "bid": "Was würde der Computer reizen und warum?",
        "do": "Was würde der Computer tun und warum?",
        "discard": "Was würde der Computer drücken und warum?",
        "pickup": "Skat aufnehmen",
        "worth": r"Das Blatt ist bis \d+ wert|Passen: Kein Spiel",
        "skat": r"Den Skat aufnehmen|Ohne den Skat spielen",
        "put": r"Drücken: .+ und .+, dann .+ ansagen",
        "known": "Was weiß ich?",
        "on": "Ab hier weiterspielen",
    },
    "en": {
        "bid": "What would the computer bid, and why?",
        "do": "What would the computer do, and why?",
        "discard": "What would the computer put away, and why?",
        "pickup": "Take up the skat",
        "worth": r"The hand is worth up to \d+|Pass: no game",
        "skat": r"Pick up the skat;|Play without the skat",
        "put": r"Put away .+ and .+, then declare",
        "known": "What do I know?",
        "on": "Play on from here",
    },
}


@pytest.fixture(autouse=True)
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(services, "BOT_TIME_CAP", 0.02)
    monkeypatch.setattr(services, "ADVICE_DEALS", 20)
    monkeypatch.setattr(services, "ANALYSIS_NODES", 100_000)
    monkeypatch.setattr(services, "INSIGHT_SAMPLES", 3)
    monkeypatch.setattr(services, "INSIGHT_NODES", 5_000)


def _seated(context: BrowserContext, live_server: LiveServer, table: services.Table) -> None:
    """Put ``table`` into a fresh session of ``context`` (signed out)."""
    from django.contrib.sessions.backends.db import SessionStore

    store = SessionStore()
    store[services.SESSION_KEY] = table.as_session()
    store.create()
    context.add_cookies([{"name": "sessionid", "value": str(store.session_key), "url": live_server.url}])


def _learner_declares() -> services.Table:
    """Mittelhand and Hinterhand pass, the learner in Vorhand bids 18: his turn at the skat."""
    table = services.Table(2026, 0, [["a", 1, "p"], ["a", 2, "p"], ["a", 0, 18]])
    assert services.replay(table=table).phase is Phase.SKAT
    return table


def _ask(page: Page, name: str, javascript: bool) -> None:
    button = page.get_by_role("button", name=name)
    expect(button).to_be_visible()
    button.focus()
    page.keyboard.press("Enter")
    if not javascript:
        page.wait_for_load_state("load")


@pytest.mark.parametrize(("lang", "javascript"), [("de", True), ("en", False)])
def test_hints_in_the_auction_at_the_skat_and_at_the_discard(
    browser: Browser, live_server: LiveServer, lang: str, javascript: bool
) -> None:
    words = WORDS[lang]
    context = phone(browser, live_server, lang=lang, java_script_enabled=javascript)
    page = context.new_page()
    try:
        # the auction: a fresh game at the table, the learner speaks after the bots
        for _ in range(20):
            page.goto(live_server.url + "/ueben/spiel/")
            if page.get_by_role("button", name=words["bid"]).count():
                break
            page.get_by_role("button", name="Neues Spiel" if lang == "de" else "New game").first.click()
        _ask(page, words["bid"], javascript)
        expect(page.locator("p.feedback[role=status]")).to_have_text(_regex(words["worth"]))
        # the skat: a session where the learner has won the auction
        context.clear_cookies()
        if lang == "en":
            context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
        _seated(context, live_server, _learner_declares())
        page.goto(live_server.url + "/ueben/spiel/")
        _ask(page, words["do"], javascript)
        expect(page.locator("p.feedback[role=status]")).to_have_text(_regex(words["skat"]))
        _ask(page, words["pickup"], javascript)
        _ask(page, words["discard"], javascript)
        expect(page.locator("p.feedback[role=status]")).to_have_text(_regex(words["put"]))
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 375
    finally:
        context.close()


def _regex(pattern: str) -> Any:
    import re

    return re.compile(pattern)


def test_the_board_shows_what_i_could_know_and_plays_on_from_a_decision(
    browser: Browser, live_server: LiveServer, django_user_model: type[User]
) -> None:
    user = django_user_model.objects.create_user("weiss-ich", password="geheim-12345")
    [(pk, _state)] = stored_games(user, 1)
    row = TableGame.objects.get(pk=present(pk))
    context = phone(browser, live_server, user)
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/ueben/spiel/{row.pk}/brett/")
        expect(page.get_by_role("heading", name="Alle Entscheidungen")).to_be_visible()  # analysed
        decision = page.locator("a[data-step]").first
        step = int(decision.get_attribute("data-step") or "0")
        decision.click()
        shown = page.locator(f'section[data-decision="{step}"]')
        summary = shown.locator("summary", has_text=WORDS["de"]["known"])
        expect(summary).to_be_visible()
        summary.click()
        expect(shown.locator("table.known-cards tbody tr").first).to_be_visible()
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 375
        shown.get_by_role("button", name=WORDS["de"]["on"]).click()
        expect(page).to_have_url(f"{live_server.url}/ueben/spiel/")
        expect(page.get_by_role("button", name="Was würde der Computer spielen und warum?")).to_be_visible()
        expect(page.locator("ul.table-hand button.legal").first).to_be_visible()  # his turn, where he was
    finally:
        context.close()

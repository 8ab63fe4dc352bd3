"""The table in Debian's chromium: a whole hand by keyboard at phone width, then the analysis."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from skatschule.table import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def quick_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(services, "BOT_TIME_CAP", 0.02)
    monkeypatch.setattr(services, "ANALYSIS_NODES", 20_000)


def _press(locator) -> None:
    locator.focus()
    locator.page.keyboard.press("Enter")


def _settle(page) -> None:
    """Wait until no page load and no htmx swap is under way (the CSP forbids wait_for_function)."""
    from playwright.sync_api import Error

    for _ in range(200):
        try:
            page.wait_for_load_state("networkidle")
            if not page.evaluate("() => !!document.querySelector('.htmx-request, .htmx-settling, .htmx-swapping')"):
                return
        except Error:
            pass  # a navigation replaced the page meanwhile
        page.wait_for_timeout(50)


def test_a_whole_hand_by_keyboard_on_a_phone(phone_page, live_server) -> None:
    page = phone_page
    page.goto(live_server.url + "/ueben/spiel/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Ein ganzes Spiel")
    for _ in range(60):
        _settle(page)
        if page.get_by_role("link", name="Hätte ich gewinnen können?").count():
            break
        passe = page.get_by_role("button", name="Passe")
        legal = page.locator("ul.table-hand button.legal")
        if passe.count():
            _press(passe)  # the learner passes: a bot declares (or nobody plays)
        elif legal.count():
            # every card is either highlighted as legal or disabled (counted in one go)
            _settle(page)
            assert page.evaluate("""() => {
                const all = document.querySelectorAll('ul.table-hand button');
                const ok = document.querySelectorAll(
                    'ul.table-hand button.legal:not(:disabled), ul.table-hand button:disabled:not(.legal)');
                return all.length === ok.length;
            }""")
            _press(legal.first)
        elif page.get_by_text("Eingepasst").count():
            _press(page.get_by_role("button", name="Neues Spiel"))
        else:
            page.wait_for_timeout(100)
    # nothing wider than the phone
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    link = page.get_by_role("link", name="Hätte ich gewinnen können?")
    expect(link).to_be_visible()
    _press(link)
    expect(page.get_by_role("heading", level=1)).to_have_text("Hätte ich gewinnen können?")
    expect(page.get_by_text("allen Karten offen")).to_be_visible()


def _public_iss_record() -> str:
    """The first record of the public ISS vectors (a Grand), or a skip without ../shared."""
    import json
    from pathlib import Path

    from django.conf import settings

    path = Path(settings.BASE_DIR).parent / "shared" / "vectors" / "public_iss.json"
    if not path.exists():
        pytest.skip("shared/vectors/public_iss.json is not beside the project")
    cases = json.loads(path.read_text(encoding="utf-8"))
    cases = cases["cases"] if isinstance(cases, dict) else cases
    return next(c["input"]["record"] for c in cases if c["id"].endswith("grand"))


def test_an_iss_record_is_read_stepped_through_and_a_moment_becomes_an_exercise(phone_page, live_server) -> None:
    from skatschule.engine.iss import parse_records

    record = _public_iss_record()
    page = phone_page
    page.goto(live_server.url + "/ueben/spiel/iss/")
    page.get_by_label("Einen oder mehrere Datensätze").fill(record)
    _press(page.get_by_role("button", name="Einlesen"))
    expect(page.get_by_role("heading", name="Spiel 1 von 1")).to_be_visible()
    steps = 4  # one trick and one card of the next
    for _ in range(steps):
        _press(page.get_by_role("link", name="Weiter"))
    expect(page.get_by_text(f"Karte {steps} von")).to_be_visible()

    # the engine's answer for that moment: the seat to move and the cards it may play
    probe = parse_records(record)[0].position(steps)
    allowed = {c.code for c in probe.legal_cards()}
    assert 0 < len(allowed)
    form = page.locator("form.feedback")
    expect(form.locator("legend")).to_contain_text("Welche Karten darf")
    for box in form.locator('input[name="cards"]').all():
        if box.get_attribute("value") in allowed:
            box.check()
    _press(form.get_by_role("button", name="Antworten"))
    expect(page.get_by_role("status")).to_contain_text("Richtig.")
    assert not page.evaluate("document.documentElement.scrollWidth > 375")

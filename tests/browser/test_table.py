"""The table in Debian's chromium: a whole hand by keyboard at phone width, then the analysis."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, Locator, Page, expect
from pytest_django.live_server_helper import LiveServer

from skatschule.table import services
from skatschule.table.models import TableGame
from skatschule.table.services import Table
from tests.present import present
from tests.table.stored import stored_games

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def quick_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(services, "BOT_TIME_CAP", 0.02)
    monkeypatch.setattr(services, "ANALYSIS_NODES", 20_000)
    monkeypatch.setattr(services, "INSIGHT_SAMPLES", 2)
    monkeypatch.setattr(services, "INSIGHT_NODES", 5_000)


def _press(locator: Locator) -> None:
    locator.focus()
    locator.page.keyboard.press("Enter")


def _settle(page: Page) -> None:
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


def _play_to_the_end(page: Page) -> None:
    """A whole hand by keyboard: the learner passes (a bot declares), then plays legal cards."""
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
            _settle(page)
            if page.locator("ul.table-hand button.legal").count():  # focus stays on the hand
                assert page.evaluate("() => !!document.activeElement.closest('ul.table-hand')")
        elif page.get_by_text("Eingepasst").count():
            _press(page.get_by_role("button", name="Neues Spiel"))
        else:
            page.wait_for_timeout(100)


def test_a_whole_hand_by_keyboard_on_a_phone(phone_page: Page, live_server: LiveServer) -> None:
    page = phone_page
    page.goto(live_server.url + "/ueben/spiel/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Ein ganzes Spiel")
    _play_to_the_end(page)
    # the hand is gone: the keyboard goes on from the result, not from the top of the page
    expect(page.get_by_role("heading", name="Ergebnis")).to_be_focused()
    # nothing wider than the phone
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    link = page.get_by_role("link", name="Hätte ich gewinnen können?")
    expect(link).to_be_visible()
    _press(link)
    expect(page.get_by_role("heading", level=1)).to_have_text("Hätte ich gewinnen können?")
    expect(page.get_by_text("allen Karten offen")).to_be_visible()
    _check_analysis(page, lang="de", deck="french")

    # the German deck and then English, by keyboard through the phone's menu; the header's
    # forms come back to the analysis
    _open_menu(page)
    deck = page.locator("#deck-select")
    deck.focus()
    deck.select_option("german")  # what the arrow keys do in a <select>
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    expect(page.locator("#deck-select")).to_have_value("german")
    _open_menu(page)
    _press(page.get_by_role("button", name="English"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Could I have won?")
    _check_analysis(page, lang="en", deck="german")

    # by keyboard: the skip link, then the way back to the table
    page.keyboard.press("Tab")
    expect(page.get_by_role("link", name="Skip to content")).to_be_focused()
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    back = page.get_by_role("link", name="Back to the table")
    expect(back).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.get_by_role("link", name="Could I have won?")).to_be_visible()


def _open_menu(page: Page) -> None:
    """The phone header's menu, opened by keyboard (a <details>; open already after a reload?)."""
    if not page.locator("details.site-menu").evaluate("d => d.open"):
        _press(page.locator("summary.menu-toggle"))


def _table_of(page: Page) -> Table:
    """The game behind the browser's session, read from the session store."""
    from django.contrib.sessions.backends.db import SessionStore

    key = next(c["value"] for c in page.context.cookies() if c["name"] == "sessionid")
    table = services.Table.from_session(SessionStore(session_key=key).load()[services.SESSION_KEY])
    assert table is not None
    return table


def _check_analysis(page: Page, *, lang: str, deck: str) -> None:
    """The analysis page against the engine: the side, every card's Augen and their words."""
    from skatschule.engine.names import card_name
    from skatschule.engine.solver import solve_state

    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    table = _table_of(page)
    state = services.replay(table=table)
    found = services.analyse(table=table)
    assert found is not None
    declares = state.declarer == table.seat
    side = {
        "de": ("Du warst Alleinspieler", "Du warst Gegenspieler"),
        "en": ("You were the declarer", "You were a defender"),
    }
    expect(page.locator("#side")).to_contain_text(side[lang][0 if declares else 1])
    unit = {"de": ("Auge", "Augen"), "en": ("card point", "card points")}[lang]
    gave_away = {"de": "verschenkt", "en": "thrown away"}[lang]
    items = page.locator("ol.analysis-steps > li")
    expect(items).to_have_count(len(found.steps))
    # the engine once more, on its own: the position before each of the learner's cards
    before_card = []
    for i, move in enumerate(table.moves):
        position = services.replay(table=services.Table(table.seed, table.seat, table.moves[:i]))
        if move[0] == "c" and position.to_move == table.seat:
            before_card.append(position)
    assert len(before_card) == len(found.steps)
    if len(state.tricks) == 10:
        # the last tricks at least are worked out exactly (a game the rules end early, e.g. a
        # bot's announced Schwarz lost in the first trick, may hold only big positions)
        assert any(step.exact for step in found.steps)
    for n, step in enumerate(found.steps):
        text = items.nth(n).inner_text()
        assert card_name(step.card, lang, deck) in text
        assert (gave_away in text) == step.gave_away, text
        if step.exact:
            total = present(solve_state(before_card[n], card_values=False).declarer_points)
            assert step.before == (total if declares else 120 - total)
            for number in (step.before, step.after):
                assert f"{number} {unit[0] if number == 1 else unit[1]}" in text
            if step.cost:
                assert f"{step.cost} {unit[0] if step.cost == 1 else unit[1]}" in text
            for best in step.best:
                assert card_name(best, lang, deck) in text


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
    record: str = next(c["input"]["record"] for c in cases if c["id"].endswith("grand"))
    return record


def test_an_iss_record_is_read_stepped_through_and_a_moment_becomes_an_exercise(
    phone_page: Page, live_server: LiveServer
) -> None:
    from skatschule.engine.iss import parse_records

    record = _public_iss_record()
    page = phone_page
    page.goto(live_server.url + "/ueben/spiel/iss/")
    page.get_by_label("Einen oder mehrere Datensätze").fill(record)
    _press(page.get_by_role("button", name="Einlesen"))
    expect(page.get_by_role("heading", name="Spiel 1 von 1")).to_be_visible()
    # after one trick: "Wer bekommt den Stich?", the seats in their fixed order, by keyboard
    game = parse_records(record)[0]
    for _ in range(3):
        _press(page.get_by_role("link", name="Weiter"))
        # the keyboard stays on "Weiter": the next Enter steps on (table/board.js)
        expect(page.get_by_role("link", name="Weiter")).to_be_focused()
    expect(page.get_by_text("Karte 3 von")).to_be_visible()
    stich = page.locator("form#uebung-stich")
    expect(stich.locator("legend")).to_have_text("Übung: Wer bekommt den Stich?")
    expect(page.locator("form#uebung-legal")).to_have_count(0)  # its seat would tell
    radios = stich.locator('input[name="antwort"]')
    assert [radios.nth(i).get_attribute("value") for i in range(3)] == ["0", "1", "2"]
    winner = game.state.tricks[0].winner
    radios.nth(winner).focus()
    page.keyboard.press("Space")
    _press(stich.get_by_role("button", name="Antworten"))
    feedback = page.get_by_role("status")
    expect(feedback).to_contain_text("Richtig.")
    expect(feedback).to_contain_text("bekommt den Stich")
    assert not page.evaluate("document.documentElement.scrollWidth > 375")

    steps = 4  # one trick and one card of the next
    _press(page.get_by_role("link", name="Weiter"))
    expect(page.get_by_text(f"Karte {steps} von")).to_be_visible()

    # the engine's answer for that moment: the seat to move and the cards it may play
    probe = game.position(steps)
    allowed = {c.code for c in probe.legal_cards()}
    assert 0 < len(allowed)
    form = page.locator("form#uebung-legal")
    expect(form.locator("legend")).to_contain_text("Welche Karten darf")
    for box in form.locator('input[name="cards"]').all():
        if box.get_attribute("value") in allowed:
            box.check()
    _press(form.get_by_role("button", name="Antworten"))
    expect(page.get_by_role("status")).to_contain_text("Richtig.")
    assert not page.evaluate("document.documentElement.scrollWidth > 375")

    # in English, at the end of the record: the Augen and the list entry, typed and sent by keyboard
    _open_menu(page)
    _press(page.get_by_role("button", name="English"))
    expect(page.get_by_role("heading", level=1)).to_have_text("View ISS games")
    _press(page.get_by_role("link", name="End"))
    expected = game.answer()
    expect(page.locator("#ergebnis")).to_have_count(0)
    augen = page.get_by_label("Exercise: how many card points does the declarer have?")
    augen.focus()
    page.keyboard.type(str(expected["declarer_points"]))
    page.keyboard.press("Enter")
    expect(page.get_by_role("status")).to_contain_text("Right.")
    entry = page.get_by_label("Exercise: what is written on the score sheet for the declarer?", exact=False)
    entry.focus()
    page.keyboard.type(f"{int(str(expected['score'])):+d}")
    page.keyboard.press("Enter")
    result = page.locator("#ergebnis")
    expect(result).to_be_visible()
    expect(result.get_by_role("status")).to_contain_text("Right.")
    expect(result).to_contain_text(f"{int(str(expected['score'])):+d}")
    assert not page.evaluate("document.documentElement.scrollWidth > 375")


def test_a_game_to_the_end_then_its_board_by_keyboard_in_the_german_deck_through_the_worker(
    phone_page: Page, live_server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The analysis is computed by a real worker (``manage.py run_jobs``): the board shows its
    progress, then (htmx polling) the marks; stepped through by keyboard at 375 px."""
    from django.test import override_settings

    from skatschule.engine.names import card_name, game_ref, render
    from skatschule.jobs.models import Job, JobStatus
    from tests.jobs.test_worker import DB_TASKS, worker

    page = phone_page
    page.context.add_cookies([{"name": "skatschule_deck", "value": "german", "url": live_server.url}])
    page.goto(live_server.url + "/ueben/spiel/")
    _play_to_the_end(page)
    table = _table_of(page)
    state = services.replay(table=table)
    plays = services.plays_of(state=state)
    for name, value in (("ANALYSIS_NODES", "20000"), ("INSIGHT_SAMPLES", "2"), ("INSIGHT_NODES", "5000")):
        monkeypatch.setenv(f"TABLE_{name}", value)
    with override_settings(TASKS=DB_TASKS), worker():
        link = page.get_by_role("link", name="Analysebrett")
        _press(link)
        expect(page.get_by_role("heading", level=1)).to_have_text("Analysebrett")
        job = Job.objects.get(kind="table-analysis")
        # the worker finishes it; the page follows by itself
        expect(page.get_by_role("heading", name="Alle Entscheidungen")).to_be_visible(timeout=60_000)
        job.refresh_from_db()
        assert job.status == JobStatus.DONE and job.attempts == 1
    assert state.contract is not None
    expect(page.locator("#board-game")).to_contain_text(render(game_ref(state.contract.game), "de", "german"))
    total = len(plays)
    position = page.locator("#board-position")
    page.keyboard.press("End")
    expect(position).to_have_text(f"Karte {total} von {total} · Stich 10")
    page.keyboard.press("Home")
    expect(position).to_have_text(f"Karte 0 von {total} · Stich 1")
    page.keyboard.press("ArrowRight")
    expect(position).to_have_text(f"Karte 1 von {total} · Stich 1")
    # the card just played lies on the table, named in the German deck
    expect(page.locator(".table-trick")).to_contain_text(card_name(plays[0].code, "de", "german"))
    page.keyboard.press("ArrowLeft")
    expect(position).to_have_text(f"Karte 0 von {total} · Stich 1")
    # at each of the learner's decisions: the legal cards marked, won or lost by symbol too
    decisions = page.locator("ol.board-decisions > li")
    assert decisions.count() >= 1
    _press(decisions.last.get_by_role("link"))  # the last ones are small enough for the budget
    marks = page.locator("section.board-decision:not([hidden]) ul.board-marks > li")  # the game is on the page once
    expect(marks.first).to_be_visible()
    for i in range(marks.count()):
        text = marks.nth(i).inner_text()
        classes = marks.nth(i).get_attribute("class") or ""
        assert ("✓" in text) == ("mark-win" in classes) and ("✗" in text) == ("mark-loss" in classes)
    expect(page.locator("section.board-decision:not([hidden]) ul.board-marks > li.mark-played")).to_have_count(1)
    expect(page.get_by_role("heading", name="Hätte ich es wissen können?")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 375


@pytest.mark.parametrize("javascript", [True, False])
def test_the_board_keeps_the_keyboard_on_the_link_just_used(
    browser: Browser, live_server: LiveServer, django_user_model: type[User], javascript: bool
) -> None:
    """Enter on "Karte vor" loads the next position and the keyboard stays on "Karte vor" (with
    JavaScript; without it the browser scrolls there and one Tab goes on from it, not from the
    page's top); a decision of the list puts it on the position."""
    from tests.browser.phones import phone

    user = django_user_model.objects.create_user("brett-tasten", password="geheim-12345")
    [(pk, _)] = stored_games(user, 1)
    context = phone(browser, live_server, user, java_script_enabled=javascript)
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/ueben/spiel/{pk}/brett/")
        position = page.locator("#board-position")
        # the arrow keys are offered only where they work
        keys = page.get_by_text("Mit der Tastatur: ← und →")
        if javascript:
            expect(keys).to_be_visible()
        else:
            expect(keys).to_be_hidden()
        forward = page.get_by_role("link", name="Karte vor", exact=True)
        _press(forward)
        expect(position).to_contain_text("Karte 1 von")
        if javascript:
            expect(forward).to_be_focused()
            page.keyboard.press("Enter")
            expect(position).to_contain_text("Karte 2 von")
            expect(forward).to_be_focused()
        else:
            page.keyboard.press("Tab")
            expect(page.get_by_role("link", name="Stich vor", exact=True)).to_be_focused()
        if javascript:
            _press(page.locator("ol.board-decisions > li a").last)
            expect(position).to_be_focused()
    finally:
        context.close()


def test_meine_spiele_on_a_phone_without_javascript(
    browser: Browser, live_server: LiveServer, django_user_model: type[User]
) -> None:
    """ "Meine Spiele" at 375 px without JavaScript: the list, a filter sent by keyboard, a board."""
    from tests.browser.phones import phone

    user = django_user_model.objects.create_user("handy-spieler", password="geheim-12345")
    stored = stored_games(user, 3)
    context = phone(browser, live_server, user, java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(live_server.url + "/ueben/spiel/meine/")
        expect(page.get_by_role("heading", level=1)).to_have_text("Meine Spiele")
        expect(page.locator("table.games-table tbody tr")).to_have_count(3)
        assert page.evaluate("document.documentElement.scrollWidth") <= 375
        lost = sum(1 for pk, s in stored if s.side_won(TableGame.objects.get(pk=present(pk)).seat) is False)
        select = page.locator("#f-ergebnis")
        select.focus()
        select.select_option("verloren")
        _press(page.get_by_role("button", name="Filtern"))
        if lost:
            expect(page.locator("table.games-table tbody tr")).to_have_count(lost)
        else:
            expect(page.get_by_text("Kein Spiel passt zu diesem Filter.")).to_be_visible()
        page.goto(live_server.url + "/ueben/spiel/meine/")
        _press(page.locator("table.games-table tbody tr").first.get_by_role("link"))
        expect(page.get_by_role("heading", level=1)).to_have_text("Analysebrett")
        assert page.evaluate("document.documentElement.scrollWidth") <= 375
    finally:
        context.close()

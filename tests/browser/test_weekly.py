"""Das Blatt der Woche in Debian's chromium: a deal played at the table on a phone, by keyboard and
without JavaScript, then its comparison with another player and with the solver's par."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client, override_settings
from playwright.sync_api import Browser, Locator, Page, expect
from pytest_django.live_server_helper import LiveServer

from skatschule.weekly import services, work
from skatschule.weekly.deals import DEALS_PER_SET
from skatschule.weekly.models import Entry
from tests.browser.phones import phone
from tests.weekly.play import learner_move, play_to_the_end

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def small_par(monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setattr(work, "PAR_NODES", 400_000)
    with override_settings(WEEKLY_SECRET="blatt-browser-secret"):
        yield


def _press(locator: Locator) -> None:
    locator.focus()
    locator.page.keyboard.press("Enter")


def _wide(page: Page) -> int:
    return int(page.evaluate("document.documentElement.scrollWidth"))


def test_a_deal_of_the_week_played_on_a_phone_without_javascript_then_compared(
    browser: Browser, live_server: LiveServer, clock: Any
) -> None:
    # another player has played every deal already; the browser's learner takes one with a game
    other = User.objects.create_user("vorspieler", password="geheim-12345")
    client = Client()
    client.force_login(other)
    key = services.week_set().key
    for n in range(1, DEALS_PER_SET + 1):
        play_to_the_end(client, key=key, number=n)
    number = next(e.number for e in Entry.objects.filter(user=other).order_by("number") if e.contract is not None)

    learner = User.objects.create_user("blattspieler", password="geheim-12345")
    context = phone(browser, live_server, learner, java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(live_server.url + "/")
        _press(page.get_by_role("link", name="Das Blatt der Woche"))
        expect(page.get_by_role("heading", level=1)).to_have_text("Das Blatt der Woche")
        assert _wide(page) <= 375
        _press(page.locator(f"#deal-{number}").get_by_role("button", name="Spielen"))
        expect(page.locator("#contest-note")).to_be_visible()
        expect(page.get_by_role("button", name="Zug zurücknehmen")).to_have_count(0)
        for _ in range(40):
            if page.get_by_role("link", name="Blatt der Woche: mit allen vergleichen").count():
                break
            expect(page.get_by_role("button", name="Was würde der Computer spielen und warum?")).to_have_count(0)
            # the same learner as the other player's: pass, then the first legal card in the engine's
            # order (the moves are kept with every move, so the entry says where the game stands)
            move = learner_move(services.table_for(entry=Entry.objects.get(user=learner, number=number)))
            if move["action"] == "pass":
                target = page.get_by_role("button", name="Passe")
            else:
                target = page.locator(f'ul.table-hand button.legal[value="{move["value"]}"]')
            with page.expect_navigation():  # without JavaScript every move is a page of its own
                _press(target)
        assert _wide(page) <= 375
        _press(page.get_by_role("link", name="Blatt der Woche: mit allen vergleichen"))
        expect(page.get_by_role("heading", level=1)).to_have_text(f"Blatt {number}: Vergleich")
        assert _wide(page) <= 375

        mine = Entry.objects.get(user=learner, number=number)
        theirs = Entry.objects.get(user=other, number=number)
        assert mine.moves == theirs.moves  # the same learner moves met the same bots
        expect(page.locator("#my-result")).to_contain_text("Platz 1 von 2 auf diesem Blatt.")
        expect(page.locator("#my-result")).to_contain_text(f"{mine.points} Punkt")
        expect(page.locator("#all-results tbody tr")).to_have_count(2)
        # the par: the job has run (the immediate backend, or the link reloads until it has)
        par = work.run_par(work.par_payload(seed=mine.seed, seat=mine.seat, moves=mine.moves))
        for _ in range(20):
            if page.locator("#par-value").count():
                break
            with page.expect_navigation():
                _press(page.locator("#par").get_by_role("link"))
        if par["augen"] is not None:
            expect(page.locator("#par-value")).to_contain_text(f"bei bestem Spiel {par['augen']} Augen")
        elif par["wins"] is None:
            expect(page.locator("#par-value")).to_contain_text("Zu groß")
        else:
            word = "gewinnt" if par["wins"] else "verliert"
            expect(page.locator("#par-value")).to_contain_text(f"Der Alleinspieler {word} bei bestem Spiel.")

        # one try: the week's page offers the comparison, not the table, for this deal
        page.goto(live_server.url + "/blatt-der-woche/")
        row = page.locator(f"#deal-{number}")
        expect(row.get_by_role("button")).to_have_count(0)
        expect(row.get_by_role("link", name="Vergleich")).to_be_visible()
        _press(page.get_by_role("link", name="Rangliste"))
        expect(page.locator("#standings tbody tr")).to_have_count(2)
        expect(page.locator("#standings")).to_contain_text("blattspieler")
        expect(page.locator("#standings")).not_to_contain_text("vorspieler")
    finally:
        context.close()


@pytest.mark.xfail(
    reason="known: on 8 Dec the Enter in the tournament's name field left the page unsent in one of two runs; "
    "to be found and fixed (closing note of stop 41)",
    strict=False,
)
def test_a_teacher_sets_a_class_tournament_by_keyboard_in_english_with_javascript(
    browser: Browser, live_server: LiveServer, clock: Any
) -> None:
    from skatschule.classrooms import services as classrooms

    teacher = User.objects.create_user("turnierleiterin", password="geheim-12345")
    classrooms.grant_teacher(user=teacher)
    room = classrooms.create_classroom(teacher=teacher, name="9c")
    context = phone(browser, live_server, teacher, lang="en")
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    try:
        page.goto(live_server.url + f"/klassen/{room.pk}/")
        _press(page.get_by_role("link", name="Set a class tournament"))
        expect(page.get_by_role("heading", level=1)).to_have_text("Deal of the week")
        unlabelled = page.evaluate(
            """() => [...document.querySelectorAll("main input:not([type=hidden]), main select")]
                 .filter(e => !(e.labels && e.labels.length)).map(e => e.outerHTML)"""
        )
        assert unlabelled == []
        page.get_by_label("Name of the tournament").focus()
        page.keyboard.type("Winter cup")
        page.keyboard.press("Enter")
        expect(page.get_by_role("heading", level=1)).to_have_text("Class tournament: Winter cup")
        expect(page.locator("#deal-1").get_by_role("button", name="Play")).to_be_visible()
        assert _wide(page) <= 375
        _press(page.get_by_role("link", name="Ranking"))
        expect(page.get_by_text("Nobody has finished a deal yet.")).to_be_visible()
        assert _wide(page) <= 375
        assert problems == []
    finally:
        context.close()

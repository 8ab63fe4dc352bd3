"""A club evening on a phone (375 px, JavaScript off): six games with Kontra/Re, a Bock round
and a Ramsch, the totals in all three systems and the money settlement, all from the engine."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from skatschule.scoresheet.sheet import new_sheet, replay

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = ["Anna", "Bernd", "Carla"]
GAMES: list[dict[str, Any]] = [
    # (declarer, game, matadors, points, tricks, kontra, re)
    {
        "kind": "game",
        "declarer": 1,
        "game": "clubs",
        "matadors": 1,
        "points": 70,
        "tricks": 6,
        "kontra": True,
        "re": True,
    },
    {"kind": "game", "declarer": 2, "game": "grand", "matadors": 1, "points": 75, "tricks": 6},
    {"kind": "ramsch", "augen": [52, 41, 27], "tricks": [4, 3, 3], "schieben": 0},
    {"kind": "game", "declarer": 0, "game": "hearts", "matadors": -2, "points": 50, "tricks": 4},
    {"kind": "ramsch", "augen": [30, 60, 30], "tricks": [3, 4, 3], "schieben": 2},
    {"kind": "ramsch", "augen": [70, 0, 50], "tricks": [6, 0, 4], "schieben": 1},
]


def _enter_game(page: Page, g: dict[str, Any]) -> None:
    form = page.locator("#game-form")
    form.locator("#id_declarer").select_option(str(g["declarer"]))
    form.locator("#id_game").select_option(g["game"])
    form.locator("#id_matadors").fill(str(g["matadors"]))
    form.locator("#id_points").fill(str(g["points"]))
    form.locator("#id_tricks").fill(str(g["tricks"]))
    if g.get("kontra"):
        form.locator("#id_kontra").check()
    if g.get("re"):
        form.locator("#id_re").check()
    form.get_by_role("button", name="Spiel eintragen").click()


def _enter_ramsch(page: Page, g: dict[str, Any]) -> None:
    form = page.locator("#ramsch-form")
    for i in range(3):
        form.locator(f"#id_augen{i + 1}").fill(str(g["augen"][i]))
        form.locator(f"#id_tricks{i + 1}").fill(str(g["tricks"][i]))
    form.locator("#id_schieben").fill(str(g["schieben"]))
    form.get_by_role("button", name="Ramsch eintragen").click()


def test_club_evening_on_a_phone_without_javascript(browser: Browser, live_server: LiveServer) -> None:
    context = browser.new_context(
        viewport={"width": 375, "height": 740},
        is_mobile=True,
        has_touch=True,
        locale="de-DE",
        java_script_enabled=False,
    )
    context.set_default_timeout(10_000)
    page = context.new_page()
    wide = "document.documentElement.scrollWidth > 375"
    try:
        page.goto(live_server.url + "/liste/")
        for i, name in enumerate(PLAYERS, start=1):
            page.locator(f"#id_player{i}").fill(name)
        page.locator("#id_pub").check()
        page.locator("#id_cents").fill("10")
        page.get_by_role("button", name="Liste anlegen").click()
        expect(page).to_have_url(re.compile(r"/liste/sitzung/$"))
        expect(page.locator("#sheet-status")).to_contain_text("Es gibt: Anna")

        kinds = []
        for g in GAMES:
            kinds.append(page.locator("#queue").inner_text())
            if g["kind"] == "game":
                _enter_game(page, g)
            else:
                _enter_ramsch(page, g)
            expect(page.locator("tr.sheet-row")).to_have_count(len(kinds))
        # the Kontra/Re game started the Bock round; the fifth deal is a compulsory Ramsch
        assert "Bock" in kinds[1] and "Bock" in kinds[3] and "Pflichtramsch" in kinds[4]
        expect(page.locator("tr.deal-bock")).to_have_count(3)
        expect(page.locator("tr.deal-ramsch")).to_have_count(2)
        assert not page.evaluate(wide), "sheet"

        # every number is the engine's: replay the same evening
        data = new_sheet(players=PLAYERS, pub=True, cents=10)
        data["entries"] = [dict(g, bid=18) for g in GAMES]
        state = replay(data).state
        for name, total in zip(PLAYERS, state.totals):
            expect(page.locator(f'#totals-isko td[data-total="{name}"]')).to_have_text(str(total))
        page.get_by_role("link", name="Seeger-Fabian").click()
        for name, total in zip(PLAYERS, state.seeger_totals()):
            expect(page.locator(f'#totals-seeger td[data-total="{name}"]')).to_have_text(str(total))
        page.get_by_role("link", name="Bierlachs").click()
        for name, total in zip(PLAYERS, state.bierlachs()[-1].minus):
            expect(page.locator(f'#totals-bierlachs td[data-total="{name}"]')).to_have_text(str(total))
        assert not page.evaluate(wide), "totals"

        settlement = page.locator("#settlement li")
        transfers = state.settlement(10)
        expect(settlement).to_have_count(len(transfers))
        for t in transfers:
            expect(page.locator("#settlement")).to_contain_text(
                f"{PLAYERS[t.payer]} zahlt {PLAYERS[t.payee]} {int(t.cents) // 100},{int(t.cents) % 100:02d} €"
            )

        # a derivation opens without JavaScript (details/summary) and cites the rules
        page.locator("#spiel-1 summary").click()
        expect(page.locator("#spiel-1 .derivation")).to_contain_text("Re verdoppelt")
    finally:
        context.close()


def test_house_rules_page_on_a_phone_without_javascript(browser: Browser, live_server: LiveServer) -> None:
    context = browser.new_context(
        viewport={"width": 375, "height": 740}, is_mobile=True, locale="de-DE", java_script_enabled=False
    )
    context.set_default_timeout(10_000)
    page = context.new_page()
    try:
        page.goto(live_server.url + "/liste/")
        assert not page.evaluate("document.documentElement.scrollWidth > 375"), "index"
        page.goto(live_server.url + "/liste/hausregeln/")
        assert not page.evaluate("document.documentElement.scrollWidth > 375"), "house rules"
        form = page.locator("#house-form")
        form.locator("#id_spitze").check()
        form.locator("#id_matadors").fill("2")
        form.locator("#id_spitzen").fill("2")
        form.get_by_role("button", name="Vergleichen").click()
        # the engine's values: ISkO "mit 2, Spiel 3" x 12, house rules with two Spitzen 5 x 12
        from skatschule.engine import GameType
        from skatschule.engine.houserules import HouseGame, score_house
        from skatschule.engine.rules import RuleSet

        game = HouseGame(GameType.CLUBS, matadors=2, declarer_points=70, declarer_tricks=6)
        isko = score_house(game).score
        house = score_house(
            HouseGame(GameType.CLUBS, matadors=2, spitze=2, declarer_points=70, declarer_tricks=6),
            RuleSet(spitze=True),
        ).score
        expect(page.locator("#entry-isko")).to_have_text(str(isko))
        expect(page.locator("#entry-house")).to_have_text(str(house))
        expect(page.locator(".compare")).to_contain_text("2 Spitzen 5")
        assert not page.evaluate("document.documentElement.scrollWidth > 375"), "comparison"
    finally:
        context.close()


def test_four_players_and_the_print_page_fit_a_phone(browser: Browser, live_server: LiveServer) -> None:
    """At 375 px the fourth player's column is on screen (no scrolling box hides it) and the print
    page does not scroll sideways (issue 26 §3)."""
    context = browser.new_context(
        viewport={"width": 375, "height": 740}, is_mobile=True, locale="de-DE", java_script_enabled=False
    )
    context.set_default_timeout(10_000)
    page = context.new_page()
    try:
        page.goto(live_server.url + "/liste/")
        for i, name in enumerate(["Annemarie", "Bernhard", "Carlotta", "Dorothea"], start=1):
            page.locator(f"#id_player{i}").fill(name)
        page.locator("#id_pub").check()
        page.get_by_role("button", name="Liste anlegen").click()
        expect(page).to_have_url(re.compile(r"/liste/sitzung/$"))
        games = [
            {"declarer": 1, "game": "grand", "matadors": -4, "points": 31, "tricks": 3, "kontra": True, "re": True},
            {"declarer": 3, "game": "clubs", "matadors": 2, "points": 95, "tricks": 9},
            {"declarer": 0, "game": "hearts", "matadors": 1, "points": 70, "tricks": 6},
        ]
        for g in games:
            _enter_game(page, g)
        expect(page.locator("tr.sheet-row")).to_have_count(len(games))
        fits = """() => {
            const wrap = document.querySelector('.sheet-table').closest('.table-wrap');
            const last = document.querySelector('.sheet-table thead th:last-child').getBoundingClientRect();
            return {scroll: wrap.scrollWidth - wrap.clientWidth, right: last.right,
                    page: document.documentElement.scrollWidth};
        }"""
        box = page.evaluate(fits)
        assert box["scroll"] <= 1 and box["right"] <= 375 and box["page"] <= 375, box
        expect(page.locator(".sheet-table thead th").last).to_have_text("Dorothea")
        expect(page.locator(".sheet-table thead th").last).to_be_in_viewport()

        page.goto(live_server.url + "/liste/sitzung/druck/")
        expect(page.locator(".print-table tbody tr")).to_have_count(len(games))
        assert page.evaluate("document.documentElement.scrollWidth") <= 375, "print page"
        expect(page.locator(".print-table thead th").last).to_be_in_viewport()
    finally:
        context.close()

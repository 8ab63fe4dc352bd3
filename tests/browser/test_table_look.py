"""The table looked at as a person would, in Debian's chromium: the seats round it, the last
trick on show after the bots completed it and led again, the hand in one row, nothing off-screen
or overlapping at 1280 and 375 px in both decks (screenshots kept as artifacts under pytest's
temporary directory, ``table-look*``), the hand as a toolbar and "Neues Spiel" asking in a dialog."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect
from pytest_django.live_server_helper import LiveServer

from skatschule.cards.context_processors import DECK_COOKIE
from skatschule.engine import sort_hand
from skatschule.table import services
from skatschule.table.services import Table
from tests.table.stored import after_a_bots_trick

if TYPE_CHECKING:
    from playwright._impl._api_structures import FloatRect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

URL = "/ueben/spiel/"
BOXES = (".seat-left", ".seat-right", ".table-middle", ".last-trick", ".seat-bottom", "ul.table-hand")


@cache
def _after_a_bots_trick() -> Table:
    return after_a_bots_trick()


def _seated(browser: Browser, live_server: LiveServer, *, width: int, deck: str, **options: Any) -> BrowserContext:
    """A browser at ``width`` whose session holds :func:`_after_a_bots_trick`."""
    from django.contrib.sessions.backends.db import SessionStore

    phone = width < 500
    context = browser.new_context(
        viewport={"width": width, "height": 740 if phone else 900},
        is_mobile=phone,
        has_touch=phone,
        locale="de-DE",
        **options,
    )
    context.set_default_timeout(10_000)
    store = SessionStore()
    store[services.SESSION_KEY] = _after_a_bots_trick().as_session()
    store.create()
    context.add_cookies(
        [
            {"name": "sessionid", "value": str(store.session_key), "url": live_server.url},
            {"name": DECK_COOKIE, "value": deck, "url": live_server.url},
        ]
    )
    return context


def _box(page: Page, selector: str) -> FloatRect:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, f"{selector} is not shown"
    return box


def _overlap(a: FloatRect, b: FloatRect) -> bool:
    return (
        a["x"] < b["x"] + b["width"] - 0.5
        and b["x"] < a["x"] + a["width"] - 0.5
        and a["y"] < b["y"] + b["height"] - 0.5
        and b["y"] < a["y"] + a["height"] - 0.5
    )


@pytest.mark.parametrize("width", [1280, 375])
def test_the_table_has_seats_the_last_trick_and_nothing_overlaps_or_leaves_the_screen(
    browser: Browser, live_server: LiveServer, tmp_path_factory: pytest.TempPathFactory, width: int
) -> None:
    shots = tmp_path_factory.mktemp("table-look")
    table = _after_a_bots_trick()
    state = services.replay(table=table)
    last = state.tricks[-1]
    for deck in ("french", "german"):
        context = _seated(browser, live_server, width=width, deck=deck, reduced_motion="reduce")
        page = context.new_page()
        page.goto(live_server.url + URL)
        # the seats: the next to play on the left, the one after on the right, the learner below
        left, right = (table.seat + 1) % 3, (table.seat + 2) % 3
        names = ("Vorhand", "Mittelhand", "Hinterhand")
        expect(page.locator(".seat-left .seat-name")).to_contain_text(names[left])
        expect(page.locator(".seat-right .seat-name")).to_contain_text(names[right])
        expect(page.locator(".seat-bottom .seat-name")).to_contain_text(f"Du {names[table.seat]}")
        assert state.declarer is not None
        place = {left: ".seat-left", right: ".seat-right", table.seat: ".seat-bottom"}
        expect(page.locator(f"{place[state.declarer]} .seat-role")).to_contain_text("Alleinspieler")
        expect(page.locator(".seat-bottom .seat-role")).to_contain_text("Gegenspieler")
        expect(page.locator(f"{place[2]} .seat-role")).to_contain_text("gibt")  # Hinterhand deals
        # the trick the bots completed is still there, with its taker, beside the new one
        shown = page.locator(".last-trick [data-card]")
        assert shown.evaluate_all("cs => cs.map(c => c.dataset.card)") == [c.code for c in last.cards]
        expect(page.locator(".last-trick")).to_contain_text(
            f"{names[last.winner]} nimmt den Stich ({last.points} Augen)"
        )
        expect(page.locator(".last-trick")).to_be_in_viewport()
        # asked for less motion: nothing moves
        for moving in (".table-trick figure", ".last-cards"):
            assert page.locator(moving).first.evaluate("e => getComputedStyle(e).animationName") == "none"
        on_table = page.locator(".table-trick [data-card]")
        assert on_table.evaluate_all("cs => cs.map(c => c.dataset.card)") == [c.code for c in state.trick]
        # nothing off-screen sideways, no box over another, the trick's cards inside the middle
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        boxes = {s: _box(page, s) for s in BOXES}
        for i, a in enumerate(BOXES):
            assert boxes[a]["x"] >= 0 and boxes[a]["x"] + boxes[a]["width"] <= width, a
            for b in BOXES[i + 1 :]:
                assert not _overlap(boxes[a], boxes[b]), (a, b, boxes[a], boxes[b])
        middle = boxes[".table-middle"]
        for n in range(on_table.count()):
            card = on_table.nth(n).bounding_box()
            assert card is not None
            assert middle["x"] <= card["x"] and card["x"] + card["width"] <= middle["x"] + middle["width"]
            for seat in (".seat-left", ".seat-right"):
                assert not _overlap(card, boxes[seat]), seat
        # the hand: one row, every card inside the screen and large enough to read (the skat's size)
        cards = page.locator("ul.table-hand button")
        expect(cards).to_have_count(len(state.hand(table.seat)))
        rows = cards.evaluate_all(
            "bs => bs.map(b => [b.parentNode.getBoundingClientRect().top, b.getBoundingClientRect().left,"
            " b.getBoundingClientRect().right])"
        )  # the row of the list items: the focused card stands a little higher
        assert len({round(top) for top, _, _ in rows}) == 1
        assert all(left >= 0 and right <= width for _, left, right in rows)
        assert page.locator("ul.table-hand svg").first.evaluate("s => s.getBoundingClientRect().width") >= 54
        if width < 500:  # the header folds on a phone (its menu opens on demand) and leaves room for the table
            assert _box(page, ".site-header")["height"] <= 110
        page.screenshot(path=str(shots / f"table-{width}-{deck}.png"), full_page=True)
        context.close()


def test_the_hand_is_a_toolbar_and_new_game_asks_in_a_dialog(browser: Browser, live_server: LiveServer) -> None:
    table = _after_a_bots_trick()
    state = services.replay(table=table)
    context = _seated(browser, live_server, width=375, deck="french")
    page = context.new_page()
    page.goto(live_server.url + URL)
    bar = page.get_by_role("toolbar")
    expect(bar).to_have_attribute("aria-label", "Deine Karten: mit ← und → wählen, mit Enter spielen")
    hand = sort_hand(state.hand(table.seat), state.contract.game if state.contract else None)
    legal = [c.code for c in hand if c in state.legal_cards()]
    focused = "() => document.activeElement.value"
    assert page.evaluate(focused) == legal[0]
    # one tab stop in the hand, the arrows go round the playable cards
    assert bar.locator("button[tabindex='0']").count() == 1
    page.keyboard.press("ArrowLeft")
    assert page.evaluate(focused) == legal[-1]
    page.keyboard.press("ArrowRight")
    assert page.evaluate(focused) == legal[0]
    page.keyboard.press("End")
    assert page.evaluate(focused) == legal[-1]
    # the animation: the cards come from their seats (none with reduced motion, above)
    assert (
        page.locator(".table-trick figure").first.evaluate("f => getComputedStyle(f).animationName").startswith("from-")
    )

    # "Neues Spiel" while the game runs: a dialog takes the focus, Escape cancels, nothing changes
    page.get_by_role("button", name="Neues Spiel").click()
    dialog = page.locator("#new-game-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_role("button", name="Nein, weiterspielen")).to_be_focused()
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    assert page.evaluate(focused) == "new"  # back on "Neues Spiel", not on a card
    assert services.replay(table=_table_in(context, live_server)).trick == state.trick
    page.get_by_role("button", name="Neues Spiel").click()
    dialog.get_by_role("button", name="Ja, neues Spiel").click()
    expect(dialog).to_have_count(0)  # a new deal: no running game to ask about yet
    assert _table_in(context, live_server).seed != table.seed
    context.close()

    # without JavaScript the server asks, at the top, with the focus on the question
    context = _seated(browser, live_server, width=375, deck="french", java_script_enabled=False)
    page = context.new_page()
    page.goto(live_server.url + URL)
    page.get_by_role("button", name="Neues Spiel").click()
    yes = page.get_by_role("button", name="Ja, neues Spiel")
    expect(yes).to_be_focused()
    expect(yes).to_be_in_viewport()
    context.close()


def _table_in(context: BrowserContext, live_server: LiveServer) -> Table:
    from django.contrib.sessions.backends.db import SessionStore

    key = next(c["value"] for c in context.cookies() if c["name"] == "sessionid")
    table = Table.from_session(SessionStore(session_key=key).load()[services.SESSION_KEY])
    assert table is not None
    return table

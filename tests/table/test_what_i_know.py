""" "Was weiß ich?" and honest numbers for "Hätte ich es wissen können?" (issue 37 §2): where
each card the learner could not see lay in the drawn deals, checked against a direct count over
the same deals; the 95 % interval of a share; the warning below 30 solved deals; the table on
the board in both languages."""

from __future__ import annotations

import html
import random
import re

import pytest
from django.test import Client

from skatschule.engine import Contract, GameState, GameType
from skatschule.engine.bots import SeatView, bid_reachable
from skatschule.engine.cards import CARDS, deal_cards
from skatschule.engine.games import augen_needed
from skatschule.engine.names import card_name
from skatschule.table import analysis, services
from skatschule.table.analysis import FEW_SAMPLES, Insight, insight_at, wilson

from .test_board import URL, _play_to_the_end, _shown_decision, quick_bots  # noqa: F401 - the fixture

GAMES = [Contract(GameType.HEARTS), Contract(GameType.GRAND), Contract(GameType.NULL)]


def _positions(count: int) -> list[tuple[GameState, int]]:
    """Seeded games after 0 to 14 random cards, with the seat to move (declarer or defender)."""
    found: list[tuple[GameState, int]] = []
    for k in range(count):
        rng = random.Random(100 + k)
        deal = deal_cards(rng=rng)
        state = GameState.start(deal, declarer=k % 3, bid=18, contract=GAMES[k % 3], discard=deal.skat)
        for _ in range(rng.randrange(15)):
            if state.is_over():
                break
            state.play(rng.choice(sorted(state.legal_cards())))
        if not state.is_over() and state.to_move is not None:
            found.append((state, state.to_move))
    return found


def _direct_count(state: GameState, seat: int, samples: int, seed: int) -> dict[str, list[int]]:
    """Draw the insight's deals again with the same seed and count, card by card, where each
    card the seat could not see lies: with the lower other seat, the higher one, or in the skat."""
    view = SeatView.of(state, seat)
    rng = random.Random(seed)
    low, high = [s for s in range(3) if s != seat]
    counts: dict[str, list[int]] = {}
    for _ in range(samples):
        drawn = analysis._draw(view, rng, reach_bid=bid_reachable(view))
        if drawn is None:
            break
        hands, skat = drawn
        for card in CARDS:
            if card.bit & (hands[seat] | view.played_by[0] | view.played_by[1] | view.played_by[2]):
                continue
            if (view.open_hand | (view.known_skat or 0)) & card.bit:
                continue
            place = 0 if hands[low] & card.bit else 1 if hands[high] & card.bit else 2 if skat & card.bit else None
            if place is None:
                continue  # in the trick on the table or otherwise seen
            counts.setdefault(card.code, [0, 0, 0])[place] += 1
    return counts


def test_the_shares_are_a_direct_count_over_the_drawn_deals() -> None:
    checked = 0
    for state, seat in _positions(12):
        need = augen_needed(state.contract) if state.contract else None
        found = insight_at(state, seat, need, samples=6, max_nodes=5_000, seed=3)
        assert found is not None
        direct = _direct_count(state, seat, 6, 3)
        assert {code: [a, b, c] for code, a, b, c in found.places if a + b + c} == direct
        assert found.others == tuple(s for s in range(3) if s != seat)
        view = SeatView.of(state, seat)
        for code, *where in found.places:
            assert sum(where) == found.tried  # each drawn deal puts the card somewhere
            card = next(c for c in CARDS if c.code == code)
            assert not card.bit & view.hand  # never one of the learner's own cards
            for column, other in enumerate(found.others):
                if view.voids[other] & card.bit:  # a seat that did not follow holds none of it
                    assert where[column] == 0
            if view.known_skat is not None:
                assert where[2] == 0  # the skat he put away himself is no secret
        checked += 1
    assert checked >= 8


def test_the_interval_holds_the_share_and_narrows_with_more_deals() -> None:
    for n in (1, 5, 29, 30, 100, 400):
        for hits in {0, n // 3, n // 2, n}:
            interval = wilson(hits, n)
            assert interval is not None
            low, high = interval
            assert 0 <= low <= round(100 * hits / n) <= high <= 100
            assert wilson(n - hits, n) == (100 - high, 100 - low)  # symmetric
    assert wilson(0, 0) is None
    wide, narrow = wilson(12, 24), wilson(50, 100)
    assert wide is not None and narrow is not None
    assert narrow[1] - narrow[0] < wide[1] - wide[0]


def test_few_deals_are_flagged() -> None:
    few = Insight(FEW_SAMPLES - 1, 100, (("CJ", 3),))
    enough = Insight(FEW_SAMPLES, 100, (("CJ", 3),))
    assert few.few and not enough.few
    assert few.interval("CJ") == wilson(3, FEW_SAMPLES - 1)


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_board_shows_where_the_cards_lay(client: Client, lang: str) -> None:
    table, state = _play_to_the_end(client)
    if lang == "en":
        client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    found = services.analyse(table=table, state=state, insights=True)
    assert found is not None
    shown = 0
    for step in found.steps:
        insight = step.insight
        if insight is None or not insight.tried:
            continue
        page = _shown_decision(client.get(URL + "brett/", {"schritt": step.index}).content.decode())
        title = "Was weiß ich?" if lang == "de" else "What do I know?"
        assert title in page
        rows = re.findall(r'<tr><th scope="row">([^<]+)</th>((?:<td>\d+ %</td>)+)</tr>', page)
        assert len(rows) == len(insight.places)
        skat = any(c for *_, c in insight.places)
        expected = {
            card_name(code, lang=lang): [round(100 * n / insight.tried) for n in ((a, b, c) if skat else (a, b))]
            for code, a, b, c in insight.places
        }
        found_rows = {html.unescape(name): [int(x) for x in re.findall(r"(\d+) %", cells)] for name, cells in rows}
        assert found_rows == expected
        if insight.samples:
            warned = ("Vorsicht: Nur" if lang == "de" else "Careful: only") in page
            assert warned == insight.few
            interval = insight.interval(step.card)
            assert interval is not None and f"{interval[0]} " in page
        shown += 1
    assert shown

"""Accuracy (each decision classed by what it cost) and the graph over the game, from hand-made
analyses: the classes at their borders, the figure, and the SVG's axes, marks and point links."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.utils import translation

from skatschule.table import presenter, reviews, services, work
from skatschule.table.analysis import GOOD_AUGEN, INACCURATE_AUGEN, Analysis, Step
from skatschule.table.models import TableGame
from tests.present import present
from tests.table.stored import stored_games

URL = "/ueben/spiel/"
GAMES = URL + "meine/"


def _step(index: int, before: int, after: int, *, need: int = 61, card: str = "CA") -> Step:
    """An exact step of a declaring learner: his Augen before and after the card he played."""
    best = (card,) if after == before else ("SA",)
    return Step(index // 3 + 1, card, before, after, best, before >= need, after >= need, index, ((card, after),))


def _declarer(*steps: Step) -> Analysis:
    return Analysis(learner_declares=True, null=False, need=61, steps=steps)


@pytest.mark.parametrize(
    ("before", "after", "expected"),
    [
        (70, 70, "best"),
        (70, 70 - GOOD_AUGEN, "good"),
        (75, 75 - GOOD_AUGEN - 1, "inaccuracy"),
        (75, 75 - INACCURATE_AUGEN, "inaccuracy"),
        (85, 85 - INACCURATE_AUGEN - 1, "mistake"),
        (91, 89, "mistake"),  # 2 Augen, but Schneider no longer sure: a level lost
        (62, 60, "blunder"),  # the win given away
        (45, 35, "inaccuracy"),  # lost anyway: 10 Augen, still out of Schneider
        (40, 30, "mistake"),  # lost anyway, and now Schneider: a level lost
    ],
)
def test_each_decision_is_classed_by_what_it_cost(before: int, after: int, expected: str) -> None:
    found = _declarer(_step(0, before, after))
    assert found.quality(found.steps[0]) == expected


def test_a_defender_loses_a_level_when_the_declarer_gets_out_of_schneider() -> None:
    # the defenders' Augen: 92 -> 88 lets the declarer reach 31 (out of Schneider)
    step = Step(1, "HA", 92, 88, ("HT",), True, True, 1, (("HA", 88), ("HT", 92)))
    found = Analysis(learner_declares=False, null=False, need=60, steps=(step,))
    assert found.mark(step) == "level" and found.quality(step) == "mistake"


def test_without_exact_augen_only_keeping_the_win_counts() -> None:
    kept = Step(1, "C7", None, None, ("C7", "C8"), True, True, 0, (("C7", True), ("C8", True), ("CA", False)))
    gave = Step(2, "CA", None, None, ("C8",), True, False, 3, (("C8", True), ("CA", False)))
    lost = Step(3, "S7", None, None, (), False, False, 6, (("S7", False),))
    found = Analysis(learner_declares=True, null=True, need=None, steps=(kept, gave, lost))
    assert [found.quality(s) for s in found.steps] == ["best", "blunder", None]
    assert found.qualities() == {"best": 1, "good": 0, "inaccuracy": 0, "mistake": 0, "blunder": 1}
    assert found.accuracy == 50  # the unvalued card does not count
    assert found.mistakes == 1


def test_the_accuracy_is_the_share_of_best_and_good_decisions() -> None:
    found = _declarer(_step(0, 80, 80), _step(3, 80, 78), _step(6, 78, 71), _step(9, 71, 60, card="SK"))
    assert [found.quality(s) for s in found.steps] == ["best", "good", "inaccuracy", "blunder"]
    assert found.accuracy == 50
    assert found.mistakes == 1
    assert _declarer().accuracy is None


def _graph_svg(found: Analysis, total: int = 12, step: int = 4) -> tuple[dict[str, object], str]:
    shown = presenter.graph(found, total, link="?", step=step)
    assert shown is not None
    with translation.override("de"):  # German formats 84.5 as "84,5": never in an SVG's numbers
        svg = render_to_string("table/partials/graph.html", {"graph": shown})
    assert not re.search(r' (?:x|y|cx|cy|x1|x2|y1|y2|r)="[^"]*,', svg)
    return shown, svg


def test_the_graph_draws_axes_lines_and_a_link_per_point() -> None:
    found = _declarer(_step(0, 80, 80), _step(3, 80, 78), _step(6, 78, 66), _step(9, 66, 60, card="SK"))
    shown, svg = _graph_svg(found)
    # y axis labelled 0, 30, 61, 90, 120; the lines at 30, 61 and 90 drawn across
    labels = re.findall(r'<text class="graph-y"[^>]*>(\d+)</text>', svg)
    assert labels == ["0", "30", "61", "90", "120"]
    assert len(re.findall(r'<line class="graph-line', svg)) == 3
    assert 'class="graph-line graph-win"' in svg
    # the card numbers along the bottom, one tick per trick
    assert re.findall(r'<text class="graph-x"[^>]*>(\d+)</text>', svg) == ["0", "3", "6", "9", "12"]
    assert "Karte</text>" in svg and "Augen</text>" in svg
    # a point before and after each valued card of the learner, each a link to its step
    links = re.findall(r'<a href="\?schritt=(\d+)#board-position" data-step="(\d+)" class="graph-dot([^"]*)">', svg)
    assert [int(a) for a, _b, _c in links] == [0, 1, 3, 4, 6, 7, 9, 10]
    assert all(a == b for a, b, _c in links)
    # the costly cards marked: 12 Augen a mistake (after card 7), the given-away win a blunder (after card 10)
    assert {int(a): c.strip() for a, _b, c in links if c} == {7: "quality-mistake", 10: "quality-blunder"}
    assert "Nach Karte 10: Alleinspieler 60 Augen · grober Fehler" in svg
    # higher Augen are drawn higher: y of 80 above y of 60
    dots = {d["step"]: d for d in shown["dots"]}  # type: ignore[attr-defined]
    assert dots[0]["y"] < dots[10]["y"]


def test_a_defenders_graph_shows_the_declarers_augen() -> None:
    step = Step(1, "HA", 70, 65, ("HT",), True, True, 1, (("HA", 65), ("HT", 70)))
    found = Analysis(learner_declares=False, null=False, need=60, steps=(step,))
    _shown, svg = _graph_svg(found, total=3, step=0)
    assert "Nach Karte 1: Alleinspieler 50 Augen" in svg
    assert "Nach Karte 2: Alleinspieler 55 Augen" in svg


def test_a_null_game_has_no_graph() -> None:
    step = Step(1, "C7", None, None, ("C7",), True, True, 0, (("C7", True),))
    assert presenter.graph(Analysis(True, True, None, (step,)), 30, link="?", step=0) is None


@pytest.mark.django_db
def test_meine_spiele_lists_accuracy_and_mistakes_stored_by_the_analysis_and_filters(
    client: Client, player: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(services, "ANALYSIS_NODES", 300_000)
    monkeypatch.setattr(services, "INSIGHT_SAMPLES", 2)
    monkeypatch.setattr(services, "INSIGHT_NODES", 10_000)
    (first, _s1), (second, _s2) = stored_games(player, 2)
    one = TableGame.objects.get(pk=present(first))
    other = TableGame.objects.get(pk=present(second))
    listing = client.get(GAMES).content.decode()
    assert listing.count('<td class="games-accuracy">–</td>') == 2  # not analysed yet
    # the analysis job stores what it found on the row (the list computes nothing)
    table = services.Table(int(one.seed), int(one.seat), list(one.moves), one.pk, one.took_back)
    data = work.run_analysis(work.table_payload(table))
    found = Analysis.from_json(data["analysis"])
    one.refresh_from_db()
    assert (one.accuracy, one.mistakes) == (found.accuracy, found.mistakes)
    # a hand-made review on the other game: 50 %, one mistake
    made = _declarer(_step(0, 80, 80), _step(3, 80, 78), _step(6, 78, 71), _step(9, 71, 60, card="SK"))
    assert reviews.record_review(seed=other.seed, seat=other.seat, moves=other.moves, analysis=made) == 1
    listing = client.get(GAMES).content.decode()
    assert '<td class="games-accuracy">50 %, 1 Fehler</td>' in listing
    with_mistakes = client.get(GAMES, {"fehler": "mit"}).content.decode()
    assert f"{URL}{other.pk}/brett/" in with_mistakes
    assert (f"{URL}{one.pk}/brett/" in with_mistakes) == bool(found.mistakes)
    without = client.get(GAMES, {"fehler": "ohne"}).content.decode()
    assert f"{URL}{other.pk}/brett/" not in without
    assert (f"{URL}{one.pk}/brett/" in without) == (not found.mistakes)
    assert '<option value="ohne" selected>' in without
    # an unknown value is ignored (a filter is a view): every game listed
    assert client.get(GAMES, {"fehler": "<x>"}).content.decode().count('class="games-accuracy"') == 2

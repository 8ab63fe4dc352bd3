"""The marks of the learner's cards, defined once (:meth:`Analysis.mark`): result given away,
level given away, Augen given away; each shown on the board with its definition."""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string
from django.test import RequestFactory

from skatschule.engine.iss import parse_record
from skatschule.table import presenter
from skatschule.table.analysis import Analysis, Step

from .records import played_record


def _step(before: int, after: int, need: int, *, index: int = 0, card: str = "CA") -> Step:
    """An exact step: his side could make sure of ``before`` Augen, the card left ``after``."""
    return Step(1, card, before, after, ("XX",), before >= need, after >= need, index, ((card, after), ("XX", before)))


@pytest.mark.parametrize(
    ("need", "before", "after", "mark"),
    [
        (61, 70, 55, "result"),  # declarer: a won game lost
        (60, 62, 59, "result"),  # defenders need 60
        (61, 95, 80, "level"),  # declarer: Schneider no longer sure
        (60, 33, 28, "level"),  # defenders: no longer sure to escape Schneider
        (61, 40, 25, "level"),  # a lost game gets Schneider against him
        (61, 80, 70, "augen"),  # won, no Schneider either way
        (61, 50, 45, "augen"),  # lost either way, out of Schneider either way
        (61, 70, 70, None),  # a best card
        (90, 95, 85, "result"),  # Schneider announced: 90 is the result, not a level
        (31, 35, 29, "result"),  # defenders against an announced Schneider
    ],
)
def test_each_mark_is_the_gravest_that_fits(need: int, before: int, after: int, mark: str | None) -> None:
    analysis = Analysis(True, False, need, (_step(before, after, need),))
    assert analysis.mark(analysis.steps[0]) == mark


def test_a_step_valued_only_win_or_lose_is_marked_by_its_result() -> None:
    given = Step(1, "CA", None, None, ("XX",), True, False, 0, (("CA", False), ("XX", True)))
    kept = Step(1, "CA", None, None, ("CA",), True, True, 0, (("CA", True),))
    analysis = Analysis(True, False, 61, (given, kept))
    assert analysis.mark(given) == "result" and analysis.mark(kept) is None


def test_every_winning_card_is_listed_not_only_the_best() -> None:
    step = Step(1, "CA", 80, 50, ("SA",), True, False, 0, (("CA", 50), ("SA", 80), ("ST", 65), ("HA", 61)))
    assert Analysis(True, False, 61, (step,)).winners(step) == ("SA", "ST", "HA")


def _board(before: int, after: int) -> str:
    """The board at the declarer's first decision of a recorded game, with that decision valued
    ``before`` and ``after`` for the card played."""
    for seed in range(1, 40):
        game = parse_record(played_record(seed))
        state = game.state
        if state.declarer is None or not game.plays:
            continue
        mine = [i for i in range(len(game.plays)) if game.position(i).to_move == state.declarer]
        if not mine:
            continue
        index = mine[0]
        card = game.plays[index].code
        step = Step(1, card, before, after, ("XX",), before >= 61, after >= 61, index, ((card, after), ("XX", before)))
        analysis = Analysis(True, False, 61, (step,))
        board = presenter.BoardGame(state, game.plays, state.declarer)
        context = presenter.board_page(board, index, analysis, presenter.Speech("de", "french"), link="?").context()
        context.update(back="table:iss", job=None)
        return render_to_string("table/analysis_board.html", context, request=RequestFactory().get("/"))
    raise AssertionError("no recorded game with a declarer")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("before", "after", "said"),
    [
        (70, 55, "Ergebnis verschenkt, der erste solche Fehler:"),
        (95, 80, "Stufe verschenkt: Die Karte kostet 15 Augen und damit eine Stufe."),
        (80, 70, "10 Augen verschenkt: Ergebnis und Stufe bleiben."),
    ],
)
def test_the_board_shows_the_mark_and_its_definition(before: int, after: int, said: str) -> None:
    page = _board(before, after)
    assert said in page
    assert 'id="board-legend"' in page
    for term in ("Ergebnis verschenkt", "Stufe verschenkt", "Augen verschenkt"):
        assert f"<dt>{term}</dt>" in page
    assert "Der erste Fehler, der das Ergebnis änderte" not in page


@pytest.mark.django_db
def test_gewonnen_haetten_lists_every_winning_card() -> None:
    """Where a card gave the game away, "Gewonnen hätten:" names every card the board marks ✓,
    the best and the others that also win."""
    step = Step(2, "CA", 80, 50, ("SA",), True, False, 3, (("CA", 50), ("SA", 80), ("ST", 65), ("HA", 61)))
    analysis = Analysis(True, False, 61, (step,))
    context = {
        "analysis": analysis,
        "given_winners": analysis.winners(step),
        "not_over": False,
        "contract": "Grand",
        "declarer": "Vorhand",
        "stored": None,
        "job": None,
    }
    page = render_to_string("table/analysis.html", context, request=RequestFactory().get("/"))
    said = page[page.index('id="given-winners"') :].split("</span>")[0]
    for name in ("Pik-Ass", "Pik-Zehn", "Herz-Ass"):
        assert name in said
    assert "Kreuz-Ass" not in said and "Gewonnen hätten:" in said

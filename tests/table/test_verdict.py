"""The verdict is the learner's: a defender whose declarer won has lost, everywhere a game's
result shows (the table, "Meine Spiele" and its filter, the board, the ISS viewer); the
declarer's result is named apart. Graded by the engine's own outcome."""

from __future__ import annotations

import importlib
import re
from typing import Any

import pytest
from django.apps import apps as django_apps
from django.test import Client

from skatschule.engine import GameState
from skatschule.engine.iss import parse_record
from skatschule.engine.scoring import side_won
from skatschule.table import presenter, selectors
from skatschule.table.models import TableGame
from tests.present import present
from tests.table.records import played_record
from tests.table.stored import stored_games

pytestmark = pytest.mark.django_db
URL = "/ueben/spiel/"
GAMES = URL + "meine/"


def test_side_won_is_the_declarers_result_for_him_and_its_opposite_for_the_defenders() -> None:
    assert side_won(True, declares=True) and not side_won(False, declares=True)
    assert not side_won(True, declares=False) and side_won(False, declares=False)


def _row_cell(page: str, pk: int) -> str:
    """The "Ergebnis" cell of the row that links game ``pk``."""
    for row in re.findall(r"<tr>(.*?)</tr>", page, flags=re.S):
        if f"/ueben/spiel/{pk}/" in row:
            return str(re.findall(r"<td>(.*?)</td>", row, flags=re.S)[2])
    raise AssertionError(f"game {pk} not listed")


def _defences(user: Any) -> list[tuple[TableGame, GameState]]:
    """Stored games in which the learner defended (he passes; a bot declares), one the declarer
    won and, among the first twelve, one he lost where the deals give one."""
    games = stored_games(user, 6)
    rows = [(TableGame.objects.get(pk=present(pk)), state) for pk, state in games]
    assert all(state.declarer != row.seat for row, state in rows)
    assert any(present(state.outcome()).won for _row, state in rows), "no deal the declarer won"
    return rows


def test_a_defence_shows_the_defenders_result_in_the_list_its_filter_and_the_games_pages(
    client: Client, player: Any
) -> None:
    rows = _defences(player)
    listing = client.get(GAMES).content.decode()
    won_list = client.get(GAMES, {"ergebnis": "gewonnen"}).content.decode()
    lost_list = client.get(GAMES, {"ergebnis": "verloren"}).content.decode()
    for row, state in rows:
        outcome = present(state.outcome())
        learner_won = not outcome.won  # a defender wins when the declarer loses
        assert row.learner_won is learner_won and row.won is outcome.won
        cell = _row_cell(listing, row.pk)
        assert cell.startswith("gewonnen" if learner_won else "verloren"), cell
        assert "als Gegenspieler" in cell
        link = f"/ueben/spiel/{row.pk}/brett/"
        assert (link in won_list) is learner_won and (link in lost_list) is not learner_won
        said = (
            "Der Alleinspieler verliert; ihr habt gewonnen."
            if learner_won
            else ("Der Alleinspieler gewinnt; ihr habt verloren.")
        )
        for page in (URL + f"{row.pk}/", link):
            text = client.get(page).content.decode()
            assert said in text, page
            assert "Gewonnen</strong>" not in text and "Verloren</strong>" not in text
            assert "Du hast" not in text


def test_the_filter_is_a_query_on_the_learners_side(client: Client, player: Any) -> None:
    """A stored defence the declarer won is not among the won games, though ``won`` (the
    declarer's) is True: the list asks the database for ``learner_won``."""
    TableGame.objects.create(user=player, seed=7, seat=1, moves=[], won=True, learner_won=False, score=24, game="grand")
    row = TableGame.objects.get(user=player, seed=7)
    assert list(selectors.games_of(user=player, won=True)) == []
    assert list(selectors.games_of(user=player, won=False)) == [row]
    assert "learner_won" in str(selectors.games_of(user=player, won=False).query)
    cell = _row_cell(client.get(GAMES).content.decode(), row.pk)
    assert cell.startswith("verloren") and "Alleinspieler +24" in cell


def test_the_migration_fills_the_learners_side_from_the_record(player: Any) -> None:
    """Games stored before ``learner_won`` get it from their ISS record's declarer."""
    rows = _defences(player)[:2]
    TableGame.objects.update(learner_won=None)
    migration = importlib.import_module("skatschule.table.migrations.0005_learner_won")
    migration.fill(django_apps, None)
    for row, state in rows:
        row.refresh_from_db()
        assert row.learner_won is state.side_won(row.seat) is (not present(state.outcome()).won)


def _record_state(seed: int) -> GameState:
    return parse_record(played_record(seed)).state


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_each_seat_reads_its_own_sides_result(seed: int) -> None:
    """The presenter's verdict of one finished game for each seat: the declarer's own, the
    defenders' the opposite, the declarer's result named apart for them."""
    finished = _record_state(seed)
    outcome = finished.outcome()
    if outcome is None:
        pytest.skip("passed in")
    declarer = present(finished.declarer)
    for seat in range(3):
        said = present(presenter.verdict(finished, seat))
        assert said["won"] is finished.side_won(seat) is (outcome.won == (seat == declarer))
        if seat == declarer:
            assert said["text"] == ("Du hast gewonnen." if outcome.won else "Du hast verloren.")
            assert said["entry"].startswith("Dein Eintrag")
        else:
            assert said["text"] == (
                "Der Alleinspieler gewinnt; ihr habt verloren."
                if outcome.won
                else "Der Alleinspieler verliert; ihr habt gewonnen."
            )
            assert said["entry"].startswith("Eintrag des Alleinspielers")


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_the_iss_viewer_names_the_declarers_result(client: Client, seed: int) -> None:
    record = played_record(seed)
    outcome = parse_record(record).state.outcome()
    if outcome is None:
        pytest.skip("passed in")
    client.post(URL + "iss/", {"records": record})
    page = client.get(URL + "iss/", {"ergebnis": "1"}).content.decode()
    said = "Der Alleinspieler gewinnt." if outcome.won else "Der Alleinspieler verliert."
    assert said in page
    assert "Gewonnen</strong>" not in page and "Verloren</strong>" not in page


def test_the_analysis_page_states_the_defenders_result(client: Client, player: Any) -> None:
    row, state = _defences(player)[0]
    outcome = present(state.outcome())
    said = (
        "Der Alleinspieler gewinnt; ihr habt verloren."
        if outcome.won
        else "Der Alleinspieler verliert; ihr habt gewonnen."
    )
    page = client.get(URL + f"{row.pk}/analyse/").content.decode()
    assert said in page


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_the_iss_board_states_the_marked_seats_result_in_the_third_person(client: Client, seed: int) -> None:
    record = played_record(seed)
    finished = parse_record(record).state
    outcome = finished.outcome()
    if outcome is None:
        pytest.skip("passed in")
    declarer = present(finished.declarer)
    defender = (declarer + 1) % 3
    client.post(URL + "iss/", {"records": record})
    page = client.get(URL + "iss/brett/", {"spiel": 0, "platz": defender, "schritt": 0}).content.decode()
    seat = ("Vorhand", "Mittelhand", "Hinterhand")[defender]
    if outcome.won:
        assert f"Der Alleinspieler gewinnt; {seat} verliert als Gegenspieler." in page
    else:
        assert f"Der Alleinspieler verliert; {seat} gewinnt als Gegenspieler." in page
    assert "ihr habt" not in page and "Du hast" not in page

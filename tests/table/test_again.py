""" "Dasselbe Blatt noch einmal" and "Ab hier weiterspielen" (issue 37 §1): from a finished
game's board, the same deal again from the auction, or the same game up to one of its cards with
the learner playing on; the new game does not count for the lesson, a running game is only given
up after asking, and nobody replays another's stored game."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from skatschule.table import services
from tests.present import present
from tests.table.stored import session_game, stored_games

from .test_board import _play_to_the_end

pytestmark = pytest.mark.django_db
URL = "/ueben/spiel/"


@pytest.fixture(autouse=True)
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(services, "BOT_TIME_CAP", 0.02)
    monkeypatch.setattr(services, "ANALYSIS_NODES", 100_000)
    monkeypatch.setattr(services, "INSIGHT_SAMPLES", 2)
    monkeypatch.setattr(services, "INSIGHT_NODES", 5_000)


def _cards(table: services.Table) -> list[str]:
    return [c.code for c in services.plays_of(state=services.replay(table=table))]


def _running_game() -> services.Table:
    """A game in which the learner has spoken (passed) and that is not over."""
    for seed in range(50):
        table = services.new_table(seed=seed)
        state = services.play(table=table, action="pass", state=services.replay(table=table))
        if not state.is_over():
            assert table.running
            return table
    raise AssertionError("every deal was over after the learner passed")


def test_the_same_deal_again_starts_at_the_auction(client: Client) -> None:
    before, state = _play_to_the_end(client)
    board = client.get(URL + "brett/").content.decode()
    assert "Dasselbe Blatt noch einmal" in board and "Ab hier weiterspielen" in board
    answer = client.post(URL + "brett/nochmal/")
    assert answer.status_code == 302 and answer["Location"] == URL
    client.get(URL)  # the bots speak until it is the learner's turn
    after, again = session_game(client)
    assert (after.seed, after.seat, after.level) == (before.seed, before.seat, before.level)
    assert again.deal == state.deal and not again.is_over()
    assert not services.plays_of(state=again)  # from the auction on: no card played yet
    assert after.took_back  # he knows the cards: it does not count for the lesson


def test_play_on_from_a_decision_keeps_the_cards_before_it(client: Client) -> None:
    before, _state = _play_to_the_end(client)
    analysis = services.analyse(table=before, state=services.replay(table=before))
    assert analysis is not None and analysis.steps
    step = analysis.steps[len(analysis.steps) // 2].index  # one of the learner's decisions
    answer = client.post(URL + "brett/nochmal/", {"schritt": step})
    assert answer.status_code == 302
    after, again = session_game(client)
    assert _cards(after) == _cards(before)[:step]
    assert again.to_move == after.seat and after.took_back


def test_a_bad_step_is_a_clear_400_and_keeps_the_game(client: Client) -> None:
    before, _state = _play_to_the_end(client)
    for data in ({"schritt": "x"}, {"schritt": "-1"}, {"schritt": "33"}):
        answer = client.post(URL + "brett/nochmal/", data)
        assert answer.status_code == 400
        assert "Diese Anfrage verstehen wir nicht." in answer.content.decode()
    answer = client.post(URL + "brett/nochmal/", {"schritt": 31})  # past the last card
    assert answer.status_code == 400 and "So viele Karten hat das Spiel nicht" in answer.content.decode()
    assert session_game(client)[0] == before
    assert client.get(URL + "brett/nochmal/").status_code == 405


def test_a_game_still_running_cannot_be_played_again(client: Client) -> None:
    client.post(URL, {"action": "new", "confirm": "1"})
    running, _state = session_game(client)
    answer = client.post(URL + "brett/nochmal/")
    assert answer.status_code == 400 and "Das Spiel ist noch nicht beendet" in answer.content.decode()
    assert session_game(client)[0] == running


def test_a_stored_game_again_asks_before_giving_up_a_running_one(client: Client, player: Any) -> None:
    [(pk, state)] = stored_games(player, 1)
    client.force_login(player)
    running_table = _running_game()
    session = client.session
    services.keep(session=session, table=running_table)
    session.save()
    asked = client.post(f"{URL}{present(pk)}/nochmal/")
    assert asked.status_code == 200 and "Ja, neu beginnen" in asked.content.decode()
    assert session_game(client)[0] == running_table  # nothing given up yet
    answer = client.post(f"{URL}{present(pk)}/nochmal/", {"confirm": "1"})
    assert answer.status_code == 302
    after, again = session_game(client)
    assert again.deal == state.deal and after.took_back


def test_nobody_replays_another_ones_stored_game(client: Client, player: Any, django_user_model: Any) -> None:
    [(pk, _state)] = stored_games(player, 1)
    assert client.post(f"{URL}{present(pk)}/nochmal/").status_code == 302  # to the login
    other = django_user_model.objects.create_user("someone-else", password="x-long-password-1")
    client.force_login(other)
    assert client.post(f"{URL}{present(pk)}/nochmal/").status_code == 404

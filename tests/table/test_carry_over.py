"""A game a visitor finished at the table is kept when they sign up or log in (the promise of the
signup page): "Meine Spiele" lists it at once, once, and only for the account signed in then.
Plain form posts throughout: none of this needs JavaScript."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from skatschule.engine import GameState, Phase
from skatschule.table import services
from skatschule.table.models import TableGame
from skatschule.training.models import Attempt
from tests.table.stored import session_game

pytestmark = pytest.mark.django_db
URL = "/ueben/spiel/"
GAMES = "/ueben/spiel/meine/"
PASSWORD = "kreuz-bube-und-herz-zehn"


def _move(state: GameState) -> dict[str, Any]:
    """The learner passes in the auction (a bot declares) and then plays the lowest legal card."""
    if state.phase is Phase.AUCTION:
        return {"action": "pass"}
    return {"action": "card", "value": sorted(state.legal_cards())[0].code}


def _play_on(client: Client, *, moves: int = 60) -> tuple[services.Table, GameState]:
    """At most ``moves`` plain POSTs of the learner in the game at the table."""
    table, state = session_game(client)
    for _ in range(moves):
        if state.is_over():
            break
        assert client.post(URL, _move(state)).status_code == 302
        table, state = session_game(client)
    return table, state


def _finish_a_game(client: Client) -> tuple[services.Table, GameState]:
    """Deal until a bot declares, then play the hand to its end (a game played, not passed in)."""
    for _ in range(30):
        client.post(URL, {"action": "new"})
        table, state = _play_on(client)
        if state.is_over() and not state.passed_in:
            return table, state
    raise AssertionError("every deal was passed in")


def _listed(client: Client, row: TableGame) -> bool:
    page = client.get(GAMES)
    assert page.status_code == 200
    return f"{URL}{row.pk}/" in page.content.decode()


def _user(name: str) -> Any:
    return get_user_model().objects.create_user(name, password=PASSWORD)


def test_signup_keeps_the_game_finished_before() -> None:
    client = Client()
    table, _ = _finish_a_game(client)
    assert not TableGame.objects.exists()  # a visitor's game lives in the session only
    response = client.post(
        reverse("accounts:signup"), {"username": "anna", "password1": PASSWORD, "password2": PASSWORD}
    )
    assert response.status_code == 302
    user = get_user_model().objects.get(username="anna")
    row = TableGame.objects.get(user=user)  # the signup stored it: no visit of the table needed
    assert (row.seed, row.seat, row.moves) == (table.seed, table.seat, table.moves)
    assert _listed(client, row)
    # it counts for the lesson, once, like a game finished signed in
    assert Attempt.objects.filter(user=user, kind="spiel", correct=True).count() == 1
    # visiting the table afterwards stores nothing twice
    assert client.get(URL).status_code == 200
    assert TableGame.objects.count() == 1
    assert Attempt.objects.filter(kind="spiel").count() == 1


def test_login_keeps_it_and_a_second_user_on_the_same_browser_does_not_get_it() -> None:
    ben, cleo = _user("ben"), _user("cleo")
    client = Client()
    _finish_a_game(client)
    assert client.post(reverse("accounts:login"), {"username": "ben", "password": PASSWORD}).status_code == 302
    row = TableGame.objects.get(user=ben)
    assert _listed(client, row)
    # ben logs out, cleo logs in on the same browser: the game stays ben's
    assert client.post(reverse("accounts:logout")).status_code == 302
    assert client.post(reverse("accounts:login"), {"username": "cleo", "password": PASSWORD}).status_code == 302
    assert not TableGame.objects.filter(user=cleo).exists()
    assert not _listed(client, row)
    assert client.get(f"{URL}{row.pk}/").status_code == 404
    # ben again: still one row, his
    client.post(reverse("accounts:logout"))
    client.post(reverse("accounts:login"), {"username": "ben", "password": PASSWORD})
    assert list(TableGame.objects.values_list("user", flat=True)) == [ben.pk]


def test_switching_user_without_logging_out_claims_nothing() -> None:
    ben, cleo = _user("ben"), _user("cleo")
    client = Client()
    _finish_a_game(client)
    client.post(reverse("accounts:login"), {"username": "ben", "password": PASSWORD})
    client.force_login(cleo)  # django.contrib.auth.login for another user on the same session
    assert TableGame.objects.get().user_id == ben.pk
    assert not TableGame.objects.filter(user=cleo).exists()


def test_the_claim_is_idempotent_and_only_for_a_finished_unsaved_game() -> None:
    ben = _user("ben")
    client = Client()
    table, state = _finish_a_game(client)
    session: dict[str, Any] = {services.SESSION_KEY: client.session[services.SESSION_KEY]}
    first = services.adopt_session_game(session=session, user=ben)
    assert first is not None and session[services.SESSION_KEY]["saved"] == first
    assert services.adopt_session_game(session=session, user=ben) is None  # already stored: nothing to claim
    # an unsaved copy of the same game (a request running at the same time): the same row
    copy = {services.SESSION_KEY: services.Table(table.seed, table.seat, list(table.moves)).as_session()}
    assert services.adopt_session_game(session=copy, user=ben) == first
    assert TableGame.objects.count() == 1 and Attempt.objects.filter(kind="spiel").count() == 1
    # a stored game is nobody else's to claim
    assert services.adopt_session_game(session=session, user=_user("cleo")) is None
    # no game, a broken one, a running one: nothing
    assert services.adopt_session_game(session={}, user=ben) is None
    assert services.adopt_session_game(session={services.SESSION_KEY: {"seed": "x"}}, user=ben) is None
    running = services.new_table(seed=1)
    assert services.adopt_session_game(session={services.SESSION_KEY: running.as_session()}, user=ben) is None
    assert TableGame.objects.count() == 1


def test_a_game_running_at_login_is_stored_for_the_user_when_it_ends() -> None:
    ben = _user("ben")
    client = Client()
    for _ in range(30):  # a deal a bot declares, left after the learner's first move
        client.post(URL, {"action": "new"})
        _, state = _play_on(client, moves=1)
        if not state.is_over():
            break
    assert not state.is_over()
    client.post(reverse("accounts:login"), {"username": "ben", "password": PASSWORD})
    assert not TableGame.objects.exists()  # not finished: nothing stored yet
    table, state = _play_on(client)
    assert state.is_over()
    row = TableGame.objects.get(user=ben)
    assert row.pk == table.saved and _listed(client, row)

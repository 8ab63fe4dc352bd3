"""The bots' level at the table (issue 23 §4): chosen with "Neues Spiel", kept with the running
and the stored game, and passed to every bot decision (inline and in the bots' job)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from skatschule.engine import GameState, Phase
from skatschule.engine.bots import BotLevel, bot_move, choose_card
from skatschule.table import services, work
from skatschule.table.models import TableGame

from .stored import after_a_bots_trick, session_game
from .test_table import _next_post, _service_move, quick_bots  # noqa: F401  (quick_bots: autouse)

URL = "/ueben/spiel/"


def _bots_decisions(table: services.Table) -> list[tuple[GameState, Any]]:
    """Every position where a bot was to move in ``table``'s game, with the move it made."""
    state = GameState(seed=table.seed)
    found = []
    for move in table.moves:
        seat = state.to_move
        before = len(state.moves)
        copy = GameState(seed=table.seed)
        for earlier in state.moves:
            copy.push(earlier)
        services._apply(state, move)
        if seat is not None and seat != table.seat:
            found.append((copy, state.moves[before]))
    return found


@pytest.mark.django_db
def test_the_new_game_form_offers_the_three_levels(client: Client) -> None:
    page = client.get(URL).content.decode()
    for value, name in (("beginner", "Anfänger"), ("club", "Vereinsspieler"), ("strong", "Stark")):
        assert f'<option value="{value}"' in page
        assert f">{name}</option>" in page
    assert '<option value="club" selected>' in page  # the default


@pytest.mark.django_db
@pytest.mark.parametrize("level", list(BotLevel))
def test_a_game_at_each_level_plays_to_the_end_and_is_stored_with_it(
    client: Client, player: Any, level: BotLevel
) -> None:
    assert client.post(URL, {"action": "new", "confirm": "1", "level": level.value}).status_code == 302
    for _ in range(80):
        table, state = session_game(client)
        assert table.level is level
        if state.is_over():
            break
        assert client.post(URL, _next_post(table, state)).status_code == 302
    table, state = session_game(client)
    assert state.is_over()
    # every bot decision is the engine's at this level (the cards of the non-beginners sample)
    for before, move in _bots_decisions(table):
        if before.phase is not Phase.PLAY:
            assert move == bot_move(before, level=level)
        elif level is BotLevel.BEGINNER:
            assert move.card == choose_card(before, level=level).card
    row = TableGame.objects.get(user=player)
    assert row.level == level.value
    mine = client.get(URL + "meine/").content.decode()
    name = {"beginner": "Anfänger", "club": "Vereinsspieler", "strong": "Stark"}[level.value]
    assert f"<td>{name}</td>" in mine


def test_a_beginner_table_plays_the_engines_beginner_cards() -> None:
    for seed in range(3):
        table = services.new_table(seed=seed, level=BotLevel.BEGINNER)
        state = services.replay(table=table)
        while not state.is_over():
            state = services.play(table=table, **_service_move(table, state))
        cards = [(before, move) for before, move in _bots_decisions(table) if before.phase is Phase.PLAY]
        assert cards
        for before, move in cards:
            assert move.card == choose_card(before, level=BotLevel.BEGINNER).card


@pytest.mark.parametrize("level", list(BotLevel))
def test_every_bot_decision_is_asked_at_the_tables_level(monkeypatch: pytest.MonkeyPatch, level: BotLevel) -> None:
    """The beginner's and the club player's cards often agree, so the levels the engine was
    asked for are recorded (the engine still decides)."""
    asked: list[tuple[str, BotLevel]] = []

    def spy(name: str, real: Any) -> Any:
        def call(state: GameState, **kwargs: Any) -> Any:
            asked.append((name, kwargs["level"]))
            return real(state, **kwargs)

        return call

    monkeypatch.setattr(services, "choose_card", spy("card", choose_card))
    monkeypatch.setattr(services, "bot_move", spy("move", bot_move))
    table = services.new_table(seed=9, level=level)
    state = services.replay(table=table)
    while not state.is_over():
        if services.bots_to_move(table=table, state=state):
            state = services.add_bot_moves(
                table=table, state=state, moves=work.run_bots(work.table_payload(table))["moves"]
            )
        else:
            state = services.play(table=table, think=False, **_service_move(table, state))
    assert {name for name, _ in asked} == {"card", "move"}
    assert {found for _, found in asked} == {level}


def test_the_bots_job_plays_at_the_tables_level_and_its_key_names_the_level() -> None:
    for seed in range(40):
        table = services.new_table(seed=seed, level=BotLevel.BEGINNER)
        state = services.replay(table=table)
        while not state.is_over() and not (state.phase is Phase.PLAY and state.to_move != table.seat):
            if state.to_move == table.seat:
                state = services.play(table=table, think=False, **_service_move(table, state))
            else:
                break
        if state.phase is Phase.PLAY and services.bots_to_move(table=table, state=state):
            break
    else:
        pytest.fail("no deal came to a bot's card")
    payload = work.table_payload(table)
    assert payload["level"] == "beginner"
    moves = work.run_bots(payload)["moves"]
    assert moves[0] == ["c", choose_card(state, level=BotLevel.BEGINNER).card.code]
    keys = set()
    for level in BotLevel:
        table.level = level
        keys.add(work.key_of(work.BOTS, json.dumps(work.table_payload(table))))
    assert len(keys) == 3


@pytest.mark.django_db
@pytest.mark.parametrize("junk", ["grossmeister", "CLUB", "club ", "x" * 500])
def test_a_junk_level_gets_a_400_and_keeps_the_game(client: Client, junk: str) -> None:
    client.get(URL)
    before = client.session[services.SESSION_KEY]
    response = client.post(URL, {"action": "new", "confirm": "1", "level": junk})
    assert response.status_code == 400
    assert client.session[services.SESSION_KEY] == before


@pytest.mark.django_db
def test_the_question_before_discarding_a_game_keeps_the_chosen_level(client: Client) -> None:
    table = after_a_bots_trick()  # a fixed deal the learner has played into: the game runs
    assert not services.replay(table=table).is_over()
    session = client.session
    session[services.SESSION_KEY] = table.as_session()
    session.save()
    page = client.post(URL, {"action": "new", "level": "strong"}).content.decode()
    assert '<input type="hidden" name="level" value="strong">' in page
    client.post(URL, {"action": "new", "confirm": "1", "level": "strong"})
    assert session_game(client)[0].level is BotLevel.STRONG

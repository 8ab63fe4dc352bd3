"""Aus meinen Fehlern goes through every card of the learner, from the first trick on, and
through all his stored games at once; his puzzles are listed by theme and by the game they came
from (issue 37 §4). The mistakes are the engine's: a position whose puzzle the engine builds, a
card outside its answer played there."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from skatschule.engine import Contract, GameState, GameType
from skatschule.engine.cards import deal_cards
from skatschule.engine.iss import parse_record, write_record
from skatschule.engine.puzzles import examine, mistakes, spots_from_state
from skatschule.puzzles.models import Puzzle
from skatschule.table.models import TableGame
from tests.people import client_for, make_user

pytestmark = pytest.mark.django_db


def _early_mistake(first_seed: int) -> tuple[str, int, int]:
    """An ISS record of a game in which the player to move made a mistake within the first three
    tricks (before the last seven), with his seat and the number of cards before it."""
    for k in range(first_seed, first_seed + 40):
        rng = random.Random(k)
        deal = deal_cards(rng=rng)
        game = (GameType.HEARTS, GameType.GRAND, GameType.CLUBS)[k % 3]
        start = GameState.start(deal, declarer=k % 3, bid=18, contract=Contract(game, hand=True))
        played = GameState.start(deal, declarer=k % 3, bid=18, contract=Contract(game, hand=True))
        while not played.is_over():
            played.play(rng.choice(sorted(played.legal_cards())))
        for spot in spots_from_state(played, last_tricks=10):
            if len(spot.plays) >= 9:
                break
            verdict = examine(spot, samples=20, sample_seed=len(spot.plays), source="own")
            if verdict.puzzle is None:
                continue
            state = spot.state()
            seat = state.to_move
            assert seat is not None
            wrong = next(c for c in verdict.puzzle.values if c not in verdict.puzzle.answer)
            state.play(wrong)
            while not state.is_over():
                state.play(sorted(state.legal_cards())[0])
            assert state.deal == start.deal
            return write_record(state, players=("A", "B", "C"), game_id=str(k)), seat, len(spot.plays)
    raise AssertionError("no early mistake in 40 seeded games")


def test_a_mistake_in_the_first_tricks_is_found() -> None:
    record, seat, before = _early_mistake(0)
    state = parse_record(record).state
    found = mistakes(state, seat, last_tricks=10)
    assert any(len(m.puzzle.spot.plays) == before for m in found)
    # the old search (the last seven tricks) would not have seen it
    assert not any(len(m.puzzle.spot.plays) == before for m in mistakes(state, seat, last_tricks=7))


def test_all_games_at_once_listed_by_theme_and_by_game() -> None:
    user = make_user("lena")
    games = []
    for k, first_seed in enumerate((0, 40)):
        record, seat, _before = _early_mistake(first_seed)
        games.append(TableGame.objects.create(user=user, seed=k, seat=seat, moves=[], iss_record=record))
    client = client_for(user)
    done = client.post(reverse("puzzles:own"), {"spiel": "alle"})
    assert done.status_code == 302 and "auftrag=" in done["Location"]
    page = client.get(done["Location"]).content.decode()
    mine = list(Puzzle.objects.filter(owner_user=user))
    assert mine and {p.own_game_id for p in mine} == {g.pk for g in games}
    assert "Deine Aufgaben nach Thema" in page and "Deine Aufgaben nach Spiel" in page
    for game in games:
        assert reverse("table:stored_board", args=[game.pk]) in page
    for row in mine:
        assert page.count(f">Aufgabe {row.pk}<") >= 2  # under a theme and under its game
    assert TableGame.objects.filter(user=user, mistakes_searched=True).count() == 2
    # searched once: a second search has nothing left to go through
    again = client.post(reverse("puzzles:own"), {"spiel": "alle"})
    assert again.status_code == 302 and again["Location"].endswith("?alle=durchsucht")
    assert "schon durchsucht" in client.get(again["Location"]).content.decode()


def test_another_learners_game_is_not_searched_for_me() -> None:
    owner, other = make_user("jan"), make_user("pia")
    record, seat, _before = _early_mistake(0)
    TableGame.objects.create(user=owner, seed=1, seat=seat, moves=[], iss_record=record)
    client = client_for(other)
    answer = client.post(reverse("puzzles:own"), {"spiel": "alle"})
    assert answer["Location"].endswith("?alle=durchsucht")  # pia has no game of her own
    assert not Puzzle.objects.filter(owner_user=other).exists()

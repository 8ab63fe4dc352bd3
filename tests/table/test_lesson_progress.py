"""A game finished at the table counts for lesson 16 ("Ein ganzes Spiel"), once, as an attempt
of the lesson's ``spiel`` step: the same derivation as every other answer."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from skatschule.engine import Phase
from skatschule.owners import Owner
from skatschule.table import services
from skatschule.table.models import TableGame
from skatschule.training.lessons import get_activity, get_lesson, validate_lessons
from skatschule.training.models import Attempt
from skatschule.training.selectors import derived_progress, lesson_progress_for, progress
from tests.present import present
from tests.table.stored import session_game

URL = "/ueben/spiel/"
LESSON = "ein-ganzes-spiel"


def _move(state: Any, table: services.Table, *, passes_only: bool = False) -> dict[str, Any]:
    """A legal move chosen from what the engine allows (the learner passes, a bot declares)."""
    if state.phase is Phase.AUCTION:
        return {"action": "pass"}
    assert not passes_only
    return {"action": "card", "value": sorted(state.legal_cards())[0].code}


def _play_to_the_end(client: Client) -> tuple[services.Table, Any]:
    """Deal until a bot declares, then play the hand to its end with plain POSTs."""
    for _ in range(30):
        client.post(URL, {"action": "new"})
        table, state = session_game(client)
        for _ in range(40):
            if state.is_over():
                break
            assert client.post(URL, _move(state, table)).status_code == 302
            table, state = session_game(client)
        if not state.passed_in:
            return table, state
    raise AssertionError("every deal was passed in")


def _spiel_step(owner: Owner) -> Any:
    lesson = get_lesson(LESSON)
    assert lesson is not None
    found = lesson_progress_for(owner=owner, lesson=lesson)
    return next(s for s in found.steps if s.kind == "spiel"), found


def test_lesson_16_lists_the_table_game_as_a_step() -> None:
    lesson = get_lesson(LESSON)
    assert lesson is not None
    assert "spiel" in lesson.kinds
    assert get_activity("spiel") is services.ACTIVITY
    assert validate_lessons() == []


@pytest.mark.django_db
def test_a_finished_game_counts_once_and_a_repost_counts_nothing(client: Client, player: Any) -> None:
    owner = Owner.for_user(player)
    step, before = _spiel_step(owner)
    assert step.attempts == 0 and before.attempts == 0
    table, state = _play_to_the_end(client)
    assert state.is_over() and not state.passed_in
    step, after = _spiel_step(owner)
    assert step.attempts == 1 and step.recent_right == 1
    assert after.attempts == 1 and after.right == 1
    row = TableGame.objects.get(user=player, pk=present(table.saved))
    attempt = Attempt.objects.get(user=player, kind="spiel")
    assert attempt.correct and attempt.lesson == LESSON and attempt.seed == row.pk
    # posting again to the finished game: refused by the engine, nothing new counted
    assert client.post(URL, {"action": "card", "value": "CA"}).status_code == 400
    assert client.post(URL, {"action": "hint"}).status_code == 400
    # the same game saved again (a second request with an unsaved copy): still one game, one attempt
    copy = services.Table(table.seed, table.seat, list(table.moves))
    assert services.save_finished(table=copy, user=player) == row.pk
    assert TableGame.objects.filter(user=player, seed=table.seed, seat=table.seat).count() == 1
    assert Attempt.objects.filter(user=player, kind="spiel").count() == 1
    # the running summary and the derivation from the whole history agree
    summary = next(lp for lp in progress(owner=owner).lessons if lp.lesson.slug == LESSON)
    derived = next(lp for lp in derived_progress(owner=owner).lessons if lp.lesson.slug == LESSON)
    assert (summary.attempts, summary.right, summary.recent) == (derived.attempts, derived.right, derived.recent)
    assert [s.attempts for s in summary.steps] == [s.attempts for s in derived.steps]
    # a second finished game is a second attempt
    _play_to_the_end(client)
    assert Attempt.objects.filter(user=player, kind="spiel").count() == 2


@pytest.mark.django_db
def test_unfinished_passed_in_and_visitors_games_count_nothing(client: Client, django_user_model: Any) -> None:
    # a visitor plays a whole game: nothing stored, nothing counted
    _play_to_the_end(client)
    assert not Attempt.objects.filter(kind="spiel").exists()
    # dealt again before signing in: a finished game would be stored for the account (test_carry_over)
    client.post(URL, {"action": "new"})
    user = django_user_model.objects.create_user("halbspieler", password="geheim-12345")
    client.force_login(user)
    # a game left unfinished
    client.post(URL, {"action": "new"})
    table, state = session_game(client)
    while state.phase is Phase.AUCTION and not state.is_over():
        client.post(URL, _move(state, table, passes_only=True))
        table, state = session_game(client)
    if not state.is_over():
        assert not Attempt.objects.filter(user=user).exists()
    # a deal passed in is over, but no game was played
    for seed in range(200):
        passed = services.new_table(seed=seed)
        state = services.replay(table=passed)
        while state.phase is Phase.AUCTION and not state.is_over():
            state = services.play(table=passed, action="pass")
        if state.passed_in:
            services.save_finished(table=passed, user=user)
            break
    else:
        pytest.fail("no seed was passed in")
    assert not Attempt.objects.filter(user=user, kind="spiel").exists()


@pytest.mark.django_db
@pytest.mark.parametrize(("lang", "words"), [("de", "Zum Spieltisch"), ("en", "To the table")])
def test_the_lesson_step_links_the_table_instead_of_an_exercise(client: Client, lang: str, words: str) -> None:
    lesson = get_lesson(LESSON)
    assert lesson is not None
    number = next(i for i, s in enumerate(lesson.steps, 1) if s.kind == "spiel")
    client.cookies["django_language"] = lang
    response = client.get(f"/ueben/lektion/{LESSON}/?stufe={number}")
    assert response.status_code == 200
    page = response.content.decode()
    assert words in page and 'href="/ueben/spiel/"' in page
    assert 'name="answer"' not in page


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("lang", "said", "bar"),
    [
        ("de", "gewonnen oder verloren", "richtigen Antworten oder zu Ende gespielten Spielen"),
        ("en", "won or lost", "right answers or games played to the end"),
    ],
)
def test_the_lesson_says_it_counts_games_won_or_lost(client: Client, lang: str, said: str, bar: str) -> None:
    """A lost game counts for lesson 16 too: the page says what it counts, not "richtige Antworten"."""
    lesson = get_lesson(LESSON)
    assert lesson is not None and lesson.has_activity
    number = next(i for i, s in enumerate(lesson.steps, 1) if s.kind == "spiel")
    client.cookies["django_language"] = lang
    page = client.get(f"/ueben/lektion/{LESSON}/?stufe={number}").content.decode()
    assert said in page and bar in page
    assert "zählt als eine richtige Antwort" not in page and "counts as a right answer" not in page
    other = get_lesson("spielwert")
    assert other is not None and not other.has_activity
    assert bar not in client.get(other.url).content.decode()


@pytest.mark.django_db
def test_table_games_stay_out_of_the_progress_export(client: Client, player: Any) -> None:
    _play_to_the_end(client)
    assert Attempt.objects.filter(user=player, kind="spiel").count() == 1
    response = client.get("/konto/export/")
    assert response.status_code == 200
    data = json.loads(response.getvalue())
    assert all(entry["kind"] != "spiel" for entry in data["attempts"])

"""Aus meinen Fehlern, Reizen and Drücken: a stored table game with an overbid and a poor discard
becomes two own questions, listed on the page, answered again and graded by the trainers' jobs.

The trainers play fewer deals here (their ``deals`` attribute, the same for the search and for
the answer); every verdict expected is derived from the engine's grading, none written down.
The tests' task backend is the immediate one: ``jobs.submit`` runs the handler at once.
"""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from skatschule.engine.bidding import Bid, Pass
from skatschule.engine.bidplay import LADDER, grade_bid, step_of
from skatschule.engine.cards import Card, parse_cards
from skatschule.engine.discard import grade_hand
from skatschule.engine.game import Declare, Discard, GameState, PickUp
from skatschule.engine.games import Contract, GameType
from skatschule.engine.iss import write_record
from skatschule.engine.names import card_ref
from skatschule.engine.own_mistakes import Bidding, judge_bid, judge_discard
from skatschule.engine.seats import Seat
from skatschule.exercises.druecken import grading_key
from skatschule.exercises.reizen_gespielt import grading_key as bid_key
from skatschule.graded_by_play.work import BID_GRADE, BID_TYPE, GRADE, TYPE
from skatschule.jobs.models import Result
from skatschule.puzzles.models import OwnQuestion
from skatschule.table.models import TableGame
from tests.people import client_for, make_user

pytestmark = pytest.mark.django_db
DEALS = 30
SCREEN = 10
SEAT = Seat.MIDDLEHAND


@pytest.fixture(autouse=True)
def few_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(BID_TYPE, "deals", DEALS)
    monkeypatch.setattr(TYPE, "deals", DEALS)
    monkeypatch.setattr(TYPE, "screen", SCREEN)


def _overbid_game(seed: int = 11) -> tuple[str, int, tuple[str, str]]:
    """The record of a game in which Mittelhand bids one step above his graded limit, picks up,
    puts away the worst pair of Grand and plays Grand; his bid and his pair."""
    state = GameState(seed=seed)
    ten = sorted(state.deal.hand(SEAT))
    graded = grade_bid(ten, SEAT, deals=DEALS)
    over = LADDER[step_of(graded.limit) + 1]
    assert judge_bid(Bidding(over, 0), graded) is not None
    for move in (Bid(SEAT, over), Pass(Seat.FOREHAND), Pass(Seat.REARHAND), PickUp()):
        state.push(move)
    found = grade_hand(sorted(state.hand(SEAT)), GameType.GRAND, deals=DEALS, screen=SCREEN)
    worst = found.chosen.grades[-1].cards
    assert judge_discard(worst, found) is not None
    state.push(Discard(worst))
    state.push(Declare(Contract(GameType.GRAND)))
    while not state.is_over():
        state.play(next(iter(state.legal_cards())))
    return write_record(state, players=("A", "B", "C"), game_id="1"), over, (worst[0].code, worst[1].code)


@pytest.fixture
def searched() -> tuple[Client, TableGame, int, tuple[str, str]]:
    record, over, pair = _overbid_game()
    user = make_user("ole")
    game = TableGame.objects.create(user=user, seed=11, seat=int(SEAT), moves=[], iss_record=record)
    client = client_for(user)
    done = client.post(reverse("puzzles:own"), {"spiel": str(game.pk)})
    assert done.status_code == 302
    page = client.get(done["Location"]).content.decode()
    assert "Frage zu Reizen oder Drücken" in page or "Fragen zu Reizen oder Drücken" in page
    return client, game, over, pair


def test_the_search_stores_the_bid_and_the_discard_as_own_questions(
    searched: tuple[Client, TableGame, int, tuple[str, str]],
) -> None:
    client, game, over, pair = searched
    bid = OwnQuestion.objects.get(kind=OwnQuestion.Kind.BID)
    put = OwnQuestion.objects.get(kind=OwnQuestion.Kind.DISCARD)
    assert bid.own_game == game and put.own_game == game
    assert bid.position == SEAT and bid.did == f"{over} 0" and len(bid.cards.split()) == 10
    assert put.game == "grand" and put.did == " ".join(pair) and len(put.cards.split()) == 12
    # the gradings are stored as the trainers' results: answering again is graded at once
    ten = sorted(bid.cards.split())
    assert Result.objects.filter(kind=BID_GRADE, key=bid_key(_cards(ten), SEAT, DEALS)).exists()
    twelve = _cards(put.cards.split())
    assert Result.objects.filter(kind=GRADE, key=grading_key(twelve, GameType.GRAND, DEALS, SCREEN)).exists()
    page = client.get(reverse("puzzles:own")).content.decode()
    for row in (bid, put):
        assert page.count(reverse("puzzles:own_question", args=[row.public_id])) == 2  # by kind and by game
    assert ">Reizen (1)<" in page and ">Drücken (1)<" in page


def _cards(codes: list[str]) -> tuple[Card, ...]:
    return tuple(parse_cards(codes))


def test_the_question_page_holds_the_hand_and_no_answer(
    searched: tuple[Client, TableGame, int, tuple[str, str]],
) -> None:
    client, _game, over, _pair = searched
    row = OwnQuestion.objects.get(kind=OwnQuestion.Kind.BID)
    page = client.get(reverse("puzzles:own_question", args=[row.public_id])).content.decode()
    assert "Mittelhand" in page and 'name="answer"' in page and "<form" in page
    form = page[page.index('<form class="answer-form"') :]
    form = form[: form.index("</form>")]
    assert " selected" not in form and "checked" not in form and 'type="hidden" name="answer"' not in form
    for hidden in ("Richtige Antwort", "Am Spiel gemessen", "Damals im Spiel", "feedback-", f"bis {over}"):
        assert hidden not in page


def test_answering_the_bid_again_is_graded_by_the_trainer(
    searched: tuple[Client, TableGame, int, tuple[str, str]],
) -> None:
    client, _game, over, _pair = searched
    row = OwnQuestion.objects.get(kind=OwnQuestion.Kind.BID)
    url = reverse("puzzles:own_question", args=[row.public_id])
    limit = grade_bid(_cards(row.cards.split()), row.position, deals=DEALS).limit
    answered = client.post(url, {"answer": str(limit) if limit else "passen"})
    assert answered.status_code == 302 and answered["Location"] == url
    page = client.get(url).content.decode()
    assert "Richtig!" in page and f"dieselben {DEALS} zufälligen Verteilungen" in page
    assert f"Damals im Spiel hast du bis {over} gereizt." in page
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    english = client.get(url).content.decode()
    del client.cookies[settings.LANGUAGE_COOKIE_NAME]
    assert f"the same {DEALS} random deals" in english and f"Back then in the game you bid up to {over}." in english
    wrong = client.post(url, {"answer": str(over)})
    assert wrong.status_code == 302
    assert "Leider nicht richtig." in client.get(url).content.decode()


def test_answering_the_discard_again_is_graded_by_the_trainer(
    searched: tuple[Client, TableGame, int, tuple[str, str]],
) -> None:
    client, _game, _over, pair = searched
    row = OwnQuestion.objects.get(kind=OwnQuestion.Kind.DISCARD)
    url = reverse("puzzles:own_question", args=[row.public_id])
    client.post(url, {"answer": [*pair, "grand"]})
    page = client.get(url).content.decode()
    rank = grade_hand(_cards(row.cards.split()), GameType.GRAND, deals=DEALS, screen=SCREEN).chosen.rank(
        _cards(list(pair))
    )
    assert "Leider nicht richtig." in page and f"Platz {rank} von 66" in page
    assert f"{DEALS} zufälligen Verteilungen" in page and "Damals im Spiel hast du" in page
    assert card_ref(pair[0]) not in page  # card names in the chosen deck, never the raw markers


def test_unreadable_answers_are_a_400_and_others_see_nothing(
    searched: tuple[Client, TableGame, int, tuple[str, str]],
) -> None:
    client, _game, _over, _pair = searched
    bid = OwnQuestion.objects.get(kind=OwnQuestion.Kind.BID)
    put = OwnQuestion.objects.get(kind=OwnQuestion.Kind.DISCARD)
    bad = client.post(reverse("puzzles:own_question", args=[bid.public_id]), {"answer": "19"})
    assert bad.status_code == 400 and "kein Reizwert" in bad.content.decode()
    bad = client.post(reverse("puzzles:own_question", args=[put.public_id]), {"answer": ["CJ", "grand"]})
    assert bad.status_code == 400
    other = client_for(make_user("eva"))
    assert other.get(reverse("puzzles:own_question", args=[bid.public_id])).status_code == 404
    assert Client().get(reverse("puzzles:own_question", args=[bid.public_id])).status_code == 404


def test_the_first_answer_is_graded_from_the_search_s_stored_grading(
    searched: tuple[Client, TableGame, int, tuple[str, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    from skatschule.jobs import registry

    def never(payload: dict[str, object]) -> dict[str, object]:
        raise AssertionError("the trainer's job ran again")

    monkeypatch.setitem(registry._HANDLERS, BID_GRADE, never)
    monkeypatch.setitem(registry._HANDLERS, GRADE, never)
    client, _game, _over, pair = searched
    for row, answer in (
        (OwnQuestion.objects.get(kind=OwnQuestion.Kind.BID), ["passen"]),
        (OwnQuestion.objects.get(kind=OwnQuestion.Kind.DISCARD), [*pair, "grand"]),
    ):
        url = reverse("puzzles:own_question", args=[row.public_id])
        assert client.post(url, {"answer": answer}).status_code == 302
        assert "So ergibt sich die Antwort:" in client.get(url).content.decode()

"""Reizen, am Spiel gemessen: the exercise (graded through the engine, nothing of the answer in the
page before it is given) and its pages (the grading job, the feedback, errors, the lesson step)."""

from __future__ import annotations

import re

import pytest
from django.test import Client, override_settings

from skatschule.engine import parse_card
from skatschule.engine.bidding import BID_VALUES
from skatschule.engine.bidplay import LADDER, grade_bid
from skatschule.engine.evaluation import evaluate
from skatschule.exercises import CURRICULUM, REGISTRY
from skatschule.exercises.base import AnswerError
from skatschule.exercises.reizen_gespielt import PASS, feedback_for, hand_of, parse_bid
from skatschule.graded_by_play.work import BID_GRADE, BID_TYPE
from skatschule.jobs.models import Job, JobStatus, Result
from skatschule.training.models import Attempt, IssuedExercise

QUEUE_ONLY = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}
DEALS = 12


@pytest.fixture(autouse=True)
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(BID_TYPE, "deals", DEALS)


def _answer_of(bid: int) -> str:
    return str(bid) if bid else PASS


# --- the exercise -----------------------------------------------------------------------------


def test_registered_beside_reizen_hoehe_and_graded_by_a_job() -> None:
    assert REGISTRY["reizen_gespielt"] is BID_TYPE and BID_TYPE.graded_by_job
    assert CURRICULUM.index("reizen_gespielt") == CURRICULUM.index("reizen_hoehe") + 1


@pytest.mark.parametrize("level", [1, 2, 3])
def test_the_question_shows_ten_cards_and_the_seat_and_every_bid_in_order(level: int) -> None:
    question = BID_TYPE.generate(level, 5)
    cards, position = hand_of(level, 5)
    assert question.cards == tuple(c.code for c in cards) and len(question.cards) == 10
    assert ["Vorhand", "Mittelhand", "Hinterhand"][position] in question.prompt.de
    assert [o.value for o in question.options] == [PASS, *map(str, BID_VALUES)]
    assert question.widget == "bid" and str(DEALS) in " ".join(f.de for f in question.facts)


def test_answers_are_read_as_bids_or_pass() -> None:
    assert parse_bid(["passen"]) == parse_bid(["Pass"]) == 0
    assert parse_bid([" 23 "]) == 23
    for bad in (["19"], ["18", "20"], [""], ["zwanzig"], ["-18"], ["١٨"], ["²³"], ["0018"]):
        with pytest.raises(AnswerError):
            parse_bid(bad)


@pytest.mark.django_db  # the type's gradings come from the jobs' results, else the engine
@pytest.mark.parametrize("level,seed", [(1, 0), (2, 1), (3, 2), (3, 7)])
def test_the_grade_is_the_engines_graded_bid_or_the_step_below(level: int, seed: int) -> None:
    question = BID_TYPE.generate(level, seed)
    cards = tuple(parse_card(c) for c in question.cards)
    grading = grade_bid(cards, hand_of(level, seed)[1], deals=DEALS)
    limit = grading.limit
    assert BID_TYPE.correct_answer(question) == [_answer_of(limit)]
    step = LADDER.index(limit)
    for i, bid in enumerate(LADDER):
        right = BID_TYPE.grade(question, [_answer_of(bid)]).correct
        assert right == (i in (step, step - 1)), (bid, limit)


@pytest.mark.django_db
def test_the_feedback_names_every_game_the_win_chance_and_lesson_seven() -> None:
    question = BID_TYPE.generate(2, 4)
    grading = BID_TYPE.grading(question)
    feedback = feedback_for(grading, 18)
    text = " ".join(step.de for step in feedback.steps)
    english = " ".join(step.en for step in feedback.steps)
    for game in grading.games:
        assert game.contract.ref("de", capital=True) + ": erwartet" in text
    assert f"dieselben {DEALS} zufälligen Verteilungen" in text and f"same {DEALS} random deals" in english
    counted = evaluate(grading.cards).limit
    assert "Handbewertung aus Lektion 7" in text and "Lesson 7's hand evaluation" in english
    assert (f"bis {counted} mit" in text) if counted else ("sagt: passen" in text)
    if grading.limit:
        best = grading.best
        assert f"in {best.wins(grading.limit)} von {DEALS} Verteilungen" in text
    assert "⟦game:" in text  # game names follow the reader's deck


# --- the pages ----------------------------------------------------------------------------------


def _start(client: Client, level: int = 1) -> IssuedExercise:
    response = client.get(f"/ueben/reizen/?stufe={level}")
    assert response.status_code == 302
    issued = IssuedExercise.objects.get()
    assert issued.kind == "reizen_gespielt"
    assert response["Location"] == f"/ueben/reizen/{issued.public_id}/"
    return issued


@pytest.mark.django_db
def test_the_page_shows_the_bids_without_the_answer(client: Client) -> None:
    issued = _start(client, 2)
    html = client.get(f"/ueben/reizen/{issued.public_id}/").content.decode()
    assert f'action="/ueben/reizen/{issued.public_id}/antwort/"' in html
    start = html.index('class="answer-form"')
    form = html[start : html.index("</form>", start)]
    assert form.count("<option value=") == 2 + len(BID_VALUES)  # the empty "–", "passen" and every bid
    assert "selected" not in form and "erwartet" not in html and "Lektion 7" not in html
    assert not Job.objects.exists() and not Result.objects.exists()


@pytest.mark.django_db
def test_a_bid_is_graded_by_a_job_and_counts_as_an_attempt(client: Client) -> None:
    issued = _start(client, 1)
    response = client.post(f"/ueben/reizen/{issued.public_id}/antwort/", {"answer": "24"})
    assert response.status_code == 200
    job = Job.objects.get(kind=BID_GRADE)
    assert job.status == JobStatus.DONE
    attempt = Attempt.objects.get(issued=issued)
    question = BID_TYPE.generate(issued.difficulty, issued.seed)
    cards = tuple(parse_card(c) for c in question.cards)
    expected = feedback_for(grade_bid(cards, hand_of(1, issued.seed)[1], deals=DEALS), 24)
    assert attempt.correct == expected.correct
    html = response.content.decode()
    assert f"{DEALS} zufälligen Verteilungen" in html and "Lektion 7" in html
    again = client.get(f"/ueben/reizen/{issued.public_id}/").content.decode()
    assert "Lektion 7" in again and Attempt.objects.count() == 1


@pytest.mark.django_db
def test_a_grading_still_running_shows_progress_then_the_result(client: Client) -> None:
    issued = _start(client)
    with override_settings(TASKS=QUEUE_ONLY):
        response = client.post(f"/ueben/reizen/{issued.public_id}/antwort/", {"answer": PASS})
        assert response.status_code == 302
        page = client.get(response["Location"]).content.decode()
        assert "job-progress" in page and "Stand neu laden" in page and "Dein Gebot ist angekommen" in page
        assert not Attempt.objects.exists()
        htmx = client.post(f"/ueben/reizen/{issued.public_id}/antwort/", {"answer": PASS}, HTTP_HX_REQUEST="true")
        assert 'sse-connect="/rechnung/' in htmx.content.decode()  # the job's end is pushed
    from skatschule.jobs.running import run

    run(job_id=Job.objects.get(kind=BID_GRADE).pk)
    page = client.get(f"/ueben/reizen/{issued.public_id}/").content.decode()
    assert "Lektion 7" in page
    assert Attempt.objects.get(issued=issued).answer == [PASS]


@pytest.mark.django_db
@pytest.mark.parametrize("values", [["19"], ["18", "20"], ["CJ"], []])
def test_bad_answers_get_a_400_and_no_job(client: Client, values: list[str]) -> None:
    issued = _start(client)
    response = client.post(f"/ueben/reizen/{issued.public_id}/antwort/", {"answer": values})
    assert response.status_code == 400
    assert not Job.objects.exists() and not Attempt.objects.exists()


@pytest.mark.django_db
def test_other_addresses_refuse_to_grade(client: Client) -> None:
    issued = _start(client)
    assert client.post(f"/ueben/antwort/{issued.public_id}/", {"answer": "18"}).status_code == 400
    assert client.post(f"/ueben/druecken/{issued.public_id}/antwort/", {"answer": "18"}).status_code == 400
    assert client.get(f"/ueben/druecken/{issued.public_id}/")["Location"] == f"/ueben/reizen/{issued.public_id}/"
    assert not Job.objects.exists() and not Attempt.objects.exists()
    assert Client().get(f"/ueben/reizen/{issued.public_id}/").status_code == 404


@pytest.mark.django_db
def test_the_lesson_step_posts_to_the_graded_page(client: Client) -> None:
    html = ""
    for step in range(1, 8):
        html = client.get(f"/ueben/lektion/reizen-wie-hoch/?stufe={step}").content.decode()
        if IssuedExercise.objects.filter(kind="reizen_gespielt").exists():
            break
    issued = IssuedExercise.objects.get(kind="reizen_gespielt")
    assert issued.lesson == "reizen-wie-hoch"
    assert f'action="/ueben/reizen/{issued.public_id}/antwort/"' in html
    response = client.post(f"/ueben/reizen/{issued.public_id}/antwort/", {"answer": "18"})
    assert response.status_code == 200
    assert Attempt.objects.get(issued=issued).lesson == "reizen-wie-hoch"


@pytest.mark.django_db
def test_the_feedback_in_english() -> None:
    client = Client()
    client.cookies["django_language"] = "en"
    issued = _start(client, 3)
    text = client.post(f"/ueben/reizen/{issued.public_id}/antwort/", {"answer": "36"}).content.decode()
    assert f"{DEALS} random deals" in text and "Lesson 7" in text and "Verteilungen" not in text
    assert not re.search(r"⟦", text)  # names rendered for the deck

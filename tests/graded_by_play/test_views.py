"""The Drücken trainer's pages: the form, the grading job, the feedback, errors and progress."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings

from skatschule.engine import GameType
from skatschule.exercises import REGISTRY
from skatschule.exercises.druecken import TOP, feedback_for, parse_answer
from skatschule.graded_by_play.work import GRADE, TYPE
from skatschule.jobs.models import Job, JobStatus, Result
from skatschule.training.models import Attempt, IssuedExercise

QUEUE_ONLY = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}


@pytest.fixture(autouse=True)
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(TYPE, "deals", 12)
    monkeypatch.setattr(TYPE, "screen", 4)


def _start(client: Client, level: int = 1) -> IssuedExercise:
    response = client.get(f"/ueben/druecken/?stufe={level}")
    assert response.status_code == 302
    issued = IssuedExercise.objects.get()
    assert response["Location"] == f"/ueben/druecken/{issued.public_id}/"
    return issued


def _answer(issued: IssuedExercise, game: str = "grand") -> list[str]:
    cards = TYPE.generate(issued.difficulty, issued.seed).cards
    return [cards[0], cards[1], game]


@pytest.mark.django_db
def test_the_page_shows_twelve_checkboxes_and_a_game_select_without_the_answer(client: Client) -> None:
    issued = _start(client)
    html = client.get(f"/ueben/druecken/{issued.public_id}/").content.decode()
    assert html.count('type="checkbox" name="answer"') == 12
    assert '<select id="ans-' in html and 'value="grand"' in html and 'value="null"' in html
    assert f'action="/ueben/druecken/{issued.public_id}/antwort/"' in html
    assert "erwartet" not in html and not Result.objects.exists()


@pytest.mark.django_db
def test_an_answer_is_graded_by_a_job_and_counts_as_an_attempt(client: Client) -> None:
    assert "druecken" in REGISTRY
    issued = _start(client, 2)
    response = client.post(f"/ueben/druecken/{issued.public_id}/antwort/", {"answer": _answer(issued)})
    assert response.status_code == 200
    html = response.content.decode()
    job = Job.objects.get(kind=GRADE)
    assert job.status == JobStatus.DONE
    attempt = Attempt.objects.get(issued=issued)
    question = TYPE.generate(issued.difficulty, issued.seed)
    pair, game = parse_answer(question, attempt.answer)
    expected = feedback_for(TYPE.grading(question, game), pair, game)
    assert attempt.correct == expected.correct
    assert "von 66" in html and "12 zufälligen Verteilungen" in html
    assert html.count("erwartet") >= TOP
    # a reload shows the feedback, not a second grading
    again = client.get(f"/ueben/druecken/{issued.public_id}/").content.decode()
    assert "von 66" in again and Attempt.objects.count() == 1


@pytest.mark.django_db
def test_a_grading_still_running_shows_progress_then_the_result(client: Client) -> None:
    issued = _start(client)
    with override_settings(TASKS=QUEUE_ONLY):
        response = client.post(f"/ueben/druecken/{issued.public_id}/antwort/", {"answer": _answer(issued, "clubs")})
        assert response.status_code == 302
        page = client.get(response["Location"]).content.decode()
        assert "job-progress" in page and "Stand neu laden" in page
        assert not Attempt.objects.exists()
        htmx = client.post(
            f"/ueben/druecken/{issued.public_id}/antwort/",
            {"answer": _answer(issued, "clubs")},
            HTTP_HX_REQUEST="true",
        )
        assert 'sse-connect="/rechnung/' in htmx.content.decode()  # the job's end is pushed
    # the worker finishes the job: the page now grades the kept answer
    from skatschule.jobs.running import run

    job = Job.objects.get(kind=GRADE)
    run(job_id=job.pk)
    page = client.get(f"/ueben/druecken/{issued.public_id}/").content.decode()
    assert "von 66" in page
    assert Attempt.objects.get(issued=issued).answer[-1] == "clubs"


@pytest.mark.django_db
@pytest.mark.parametrize(
    "values",
    [["grand"], ["CJ", "grand"], ["XX", "YY", "grand"], ["CJ", "CJ", "grand"], ["a", "b", "c", "d"]],
)
def test_bad_answers_get_a_400_and_no_job(client: Client, values: list[str]) -> None:
    issued = _start(client)
    question = TYPE.generate(issued.difficulty, issued.seed)
    if values[:2] == ["CJ", "CJ"] and "CJ" not in question.cards:
        values = [question.cards[0], question.cards[0], "grand"]
    response = client.post(f"/ueben/druecken/{issued.public_id}/antwort/", {"answer": values})
    assert response.status_code == 400
    assert not Job.objects.exists() and not Attempt.objects.exists()


@pytest.mark.django_db
def test_the_ordinary_answer_address_refuses_to_grade_in_the_request(client: Client) -> None:
    """The training pages' answer address would grade inside the request: it refuses (400)."""
    issued = _start(client)
    response = client.post(f"/ueben/antwort/{issued.public_id}/", {"answer": _answer(issued)})
    assert response.status_code == 400
    assert "auf ihrer eigenen Seite" in response.content.decode()
    assert not Job.objects.exists() and not Attempt.objects.exists()


@pytest.mark.django_db
def test_a_bad_level_is_a_400_and_another_visitors_exercise_a_404(client: Client) -> None:
    assert client.get("/ueben/druecken/?stufe=9").status_code == 400
    issued = _start(client)
    other = Client()
    assert other.get(f"/ueben/druecken/{issued.public_id}/").status_code == 404
    assert other.post(f"/ueben/druecken/{issued.public_id}/antwort/", {"answer": ["a"]}).status_code == 404


@pytest.mark.django_db
def test_the_best_answer_is_right_and_the_worst_discard_is_not() -> None:
    question = TYPE.generate(2, 3)
    right = TYPE.correct_answer(question)
    assert TYPE.grade(question, right).correct
    found = TYPE.grading(question, GameType(right[2]))
    worst = found.chosen.grades[-1]
    assert not TYPE.grade(question, [worst.cards[0].code, worst.cards[1].code, right[2]]).correct


@pytest.mark.django_db
def test_the_lesson_step_shows_the_trainer_form_and_a_missed_hand_comes_back_for_review(client: Client) -> None:
    from skatschule.training.models import ReviewItem

    html = client.get("/ueben/lektion/spielansage/?stufe=4").content.decode()
    issued = IssuedExercise.objects.get(kind="druecken")
    assert issued.lesson == "spielansage"
    assert f'action="/ueben/druecken/{issued.public_id}/antwort/"' in html
    question = TYPE.generate(issued.difficulty, issued.seed)
    grading = TYPE.grading(question, GameType.NULL)
    worst = grading.chosen.grades[-1]
    values = [worst.cards[0].code, worst.cards[1].code, "null"]
    response = client.post(f"/ueben/druecken/{issued.public_id}/antwort/", {"answer": values})
    assert response.status_code == 200
    attempt = Attempt.objects.get(issued=issued)
    assert attempt.lesson == "spielansage"
    assert attempt.correct == TYPE.grade(question, values).correct
    if not attempt.correct:
        assert ReviewItem.objects.filter(kind="druecken").exists()


@pytest.mark.django_db
def test_the_feedback_in_english() -> None:
    client = Client()
    client.cookies["django_language"] = "en"
    issued = _start(client, 3)
    html = client.post(f"/ueben/druecken/{issued.public_id}/antwort/", {"answer": _answer(issued, "spades")})
    text = html.content.decode()
    assert "of 66" in text and "12 random deals" in text and "von 66" not in text


@pytest.mark.django_db
def test_an_unreadable_answer_without_javascript_keeps_the_learners_cards_and_game(client: Client) -> None:
    """One card instead of two (a full page, no htmx): the 400 page shows the form again with the
    ticked card and the chosen game still set, and nothing else ticked."""
    import re

    issued = _start(client)
    card = TYPE.generate(issued.difficulty, issued.seed).cards[0]
    response = client.post(f"/ueben/druecken/{issued.public_id}/antwort/", {"answer": [card, "spades"]})
    assert response.status_code == 400
    html = response.content.decode()
    ticked = re.findall(r'<input type="checkbox" name="answer" value="(\w+)" checked', html)
    assert ticked == [card]
    games = ("clubs", "spades", "hearts", "diamonds", "grand", "null")
    assert [g for g in games if f'<option value="{g}" selected>' in html] == ["spades"]
    # the page starts at the message (the keyboard would otherwise start at the top of the page)
    assert re.search(r'<div class="answer-error" role="alert" tabindex="-1" autofocus>', html)

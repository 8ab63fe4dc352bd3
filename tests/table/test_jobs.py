"""The table's heavy work runs as jobs (skatschule.jobs): analysis, hint, the strong bots' cards
and the ouvert check; the rule bot and the club bot answer within the request. Without a worker a
page answers at once and shows progress (pushed to it); a second asker of the same position gets
the finished result; the limits answer 429; a failed bots' job never stalls the game."""

from __future__ import annotations

import json

import pytest
from django.test import Client, override_settings

from skatschule.engine import GameState, Phase
from skatschule.jobs.models import Failure, Job, JobStatus, Result
from skatschule.table import services, work
from tests.table.stored import session_game

URL = "/ueben/spiel/"
QUEUE_ONLY = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}
"""Jobs are stored and queued, but nothing runs them (no worker)."""


@pytest.fixture(autouse=True)
def quick_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(services, "BOT_TIME_CAP", 0.02)
    monkeypatch.setattr(services, "ANALYSIS_NODES", 100_000)
    monkeypatch.setattr(services, "INSIGHT_SAMPLES", 2)
    monkeypatch.setattr(services, "INSIGHT_NODES", 10_000)
    monkeypatch.setattr(services, "HINT_TIME_CAP", 0.05)
    monkeypatch.setattr(services, "OUVERT_SAMPLES", 3)


def _to_play(client: Client, level: str = "club") -> tuple[services.Table, GameState]:
    """A game where a bot declared and the learner is to lead a trick: after the learner's card
    a bot must move (a card ending a trick could give the learner the lead again)."""
    for _ in range(40):
        client.post(URL, {"action": "new", "confirm": "1", "level": level})
        table, state = session_game(client)
        while state.phase is Phase.AUCTION and not state.is_over():
            client.post(URL, {"action": "pass"})
            table, state = session_game(client)
        while state.phase is Phase.PLAY and not state.is_over() and state.to_move == table.seat:
            if not state.trick:
                return table, state
            client.post(URL, {"action": "card", "value": sorted(state.legal_cards())[0].code})
            table, state = session_game(client)
    raise AssertionError("no game came to a trick the learner leads")


def _finished(client: Client) -> tuple[services.Table, GameState]:
    table, state = _to_play(client)
    while not state.is_over():
        client.post(URL, {"action": "card", "value": sorted(state.legal_cards())[0].code})
        table, state = session_game(client)
    return table, state


@pytest.mark.django_db
@pytest.mark.parametrize("level", ["beginner", "club"])
def test_quick_bots_answer_within_the_request_with_the_cards_they_would_play(client: Client, level: str) -> None:
    table, state = _to_play(client, level)
    card = sorted(state.legal_cards())[0].code
    expected = services.Table(table.seed, table.seat, list(table.moves), level=table.level)
    services.play(table=expected, action="card", value=card)  # the bots answer inline
    with override_settings(TASKS=QUEUE_ONLY):  # no worker: the answer cannot come from one
        client.post(URL, {"action": "card", "value": card})
    after, state = session_game(client)
    assert after.moves == expected.moves and not after.waiting
    assert not services.bots_to_move(table=after, state=state)
    assert not Job.objects.filter(kind=work.BOTS).exists()


@pytest.mark.django_db
def test_the_strong_bots_think_on_the_worker_one_card_a_job(client: Client) -> None:
    table, state = _to_play(client, "strong")
    client.post(URL, {"action": "card", "value": sorted(state.legal_cards())[0].code})
    after, state = session_game(client)
    assert not services.bots_to_move(table=after, state=state)
    jobs = list(Job.objects.filter(kind=work.BOTS))
    assert jobs
    for job in jobs:  # each job chose exactly one card with a choice, its first move
        loaded = services.load(data=job.payload)
        assert loaded is not None and job.data is not None
        table, position = loaded
        chosen = []
        for move in job.data["moves"]:
            chosen.append(move[0] == "c" and len(position.legal_cards()) > 1)
            services.add_bot_moves(table=table, state=position, moves=[move])
        assert chosen[0] and not any(chosen[1:])


def _bots_queued(client: Client) -> tuple[services.Table, GameState, str]:
    """Without a worker: the learner leads a card after which a strong bot has a choice, so its
    card waits for a job (a bot with one legal card plays at once: then another game is dealt)."""
    for _ in range(20):
        table, state = _to_play(client, "strong")
        with override_settings(TASKS=QUEUE_ONLY):
            card = sorted(state.legal_cards())[0]
            page = client.post(URL, {"action": "card", "value": card.code}, HTTP_HX_REQUEST="true")
        table, state = session_game(client)
        if table.waiting:
            return table, state, page.content.decode()
    raise AssertionError("in 20 games no bot had a choice after the learner's card")


@pytest.mark.django_db
def test_without_a_worker_the_table_answers_at_once_and_shows_the_bots_thinking(client: Client) -> None:
    table, state, page = _bots_queued(client)
    with override_settings(TASKS=QUEUE_ONLY):
        assert services.bots_to_move(table=table, state=state)
        assert "Der Computer überlegt." in page and "every 1s" not in page
        # the page listens for the job's end (pushed, htmx's sse extension) and then fetches the board
        assert f'sse-connect="/rechnung/{table.waiting}/ereignisse/"' in page
        assert 'hx-trigger="sse:done" hx-target="#board"' in page
        job = Job.objects.get(pk=table.waiting)
        assert job.status == JobStatus.QUEUED
        # the plain page shows the same, and does not queue the work twice
        assert "Der Computer überlegt." in client.get(URL).content.decode()
        assert Job.objects.filter(kind=work.BOTS, status=JobStatus.QUEUED).count() == 1
    # the worker's answer, once there, is played on the next look at the table
    from skatschule.jobs.running import run

    run(job_id=job.pk)
    client.get(URL)
    table, state = session_game(client)
    assert not table.waiting and not services.bots_to_move(table=table, state=state)


@pytest.mark.django_db
def test_a_failed_bots_job_gives_way_to_quick_moves(client: Client) -> None:
    table, state, _ = _bots_queued(client)
    Job.objects.filter(pk=table.waiting).update(status=JobStatus.FAILED, failure=Failure.WORKER_LOST)
    assert client.get(URL).status_code == 200
    table, state = session_game(client)
    assert not table.waiting and not services.bots_to_move(table=table, state=state)


@pytest.mark.django_db
def test_a_hint_is_a_job_and_uses_the_learners_view(client: Client) -> None:
    table, state = _to_play(client)
    response = client.post(URL, {"action": "hint"})
    assert response.status_code == 200
    job = Job.objects.get(kind=work.HINT)
    assert job.is_done and job.data is not None
    page = response.content.decode()
    assert "zufälligen Verteilungen" in page or "Faustregel" in page
    # the same position asked again: the result at once, no second computation
    client.post(URL, {"action": "hint"})
    assert Job.objects.filter(kind=work.HINT).count() == 2
    from skatschule.jobs.models import Result

    assert Result.objects.filter(kind=work.HINT).count() == 1


@pytest.mark.django_db
def test_the_board_and_the_analysis_wait_for_their_job_without_holding_the_request(client: Client) -> None:
    _finished(client)
    with override_settings(TASKS=QUEUE_ONLY):
        for path in ("brett/", "analyse/"):
            response = client.get(URL + path)
            page = response.content.decode()
            assert response.status_code == 200
            assert 'class="job-progress"' in page and 'href="/rechnung/' in page  # the plain link too
        assert Job.objects.filter(kind=work.ANALYSIS).count() == 1  # asked once, shown twice
        assert not Result.objects.filter(kind=work.ANALYSIS).exists()  # no request computed it
    # a worker runs it; then the page shows the marks
    from skatschule.jobs.running import run

    run(job_id=Job.objects.get(kind=work.ANALYSIS).pk)
    page = client.get(URL + "brett/").content.decode()
    assert 'class="job-progress"' not in page and "Alle Entscheidungen" in page


@pytest.mark.django_db
@override_settings(JOBS_PER_OWNER=1)
def test_too_much_expensive_table_work_answers_429(client: Client) -> None:
    _finished(client)
    with override_settings(TASKS=QUEUE_ONLY):
        assert client.get(URL + "brett/").status_code == 200  # one analysis waits
        safe = "C7 C8 C9 S7 S8 S9 H7 H8 H9 D7".split()
        response = client.get(URL + "ouvert/", {"game": "null", "cards": safe})
        assert response.status_code == 429
        assert "Rechnungen in Arbeit" in response.content.decode()


@pytest.mark.django_db
def test_the_game_goes_on_when_the_limit_is_reached(client: Client) -> None:
    table, state = _to_play(client)
    with override_settings(TASKS=QUEUE_ONLY, JOBS_PER_OWNER=1):
        safe = "C7 C8 C9 S7 S8 S9 H7 H8 H9 D7".split()
        assert client.get(URL + "ouvert/", {"game": "null", "cards": safe}).status_code == 200  # one waits
        response = client.post(URL, {"action": "card", "value": sorted(state.legal_cards())[0].code})
        assert response.status_code == 302
        table, state = session_game(client)
        assert not table.waiting and not services.bots_to_move(table=table, state=state)


@pytest.mark.django_db
@override_settings(JOBS_PER_ADDRESS=1)
def test_the_limit_holds_per_address_across_sessions(client: Client) -> None:
    safe = "C7 C8 C9 S7 S8 S9 H7 H8 H9 D7".split()
    other = "C7 C8 C9 S7 S8 S9 H7 H8 H9 D8".split()
    with override_settings(TASKS=QUEUE_ONLY):
        assert client.get(URL + "ouvert/", {"game": "null", "cards": safe}).status_code == 200
        second = Client()  # a new visitor (a new session) from the same address
        assert second.get(URL + "ouvert/", {"game": "null", "cards": other}).status_code == 429


@pytest.mark.django_db
def test_the_ouvert_check_says_exactly_what_was_tried(client: Client) -> None:
    safe = "C7 C8 C9 S7 S8 S9 H7 H8 H9 D7".split()
    result = services.check_ouvert_hand(game="null", cards=safe, skat=[])
    page = client.get(URL + "ouvert/", {"game": "null", "cards": safe}).content.decode()
    text = " ".join(page.replace(".", "").replace("\u202f", "").split())
    assert f"Geprüft wurden {result.tried} verschiedene Verteilungen" in text
    assert f"aus {result.possible} möglichen Verteilungen" in text
    assert "nicht beweisbar sicher" in text


def test_every_table_job_kind_is_registered() -> None:
    from skatschule.jobs.registry import handler_for

    for kind, handler in work.KINDS.items():
        assert handler_for(kind) is handler


@pytest.mark.slow
@pytest.mark.django_db
def test_the_next_thinking_card_is_queued_while_the_first_is_shown(client: Client) -> None:
    for _ in range(10):
        table, state, _ = _bots_queued(client)
        first = Job.objects.get(pk=table.waiting)
        from skatschule.jobs.running import run

        with override_settings(TASKS=QUEUE_ONLY):
            run(job_id=first.pk)  # the worker chooses the first bot's card ...
            first.refresh_from_db()
            if first.data is None or "then" not in first.data:
                continue  # the learner's turn came after it: deal again
            following = Job.objects.exclude(pk=first.pk).get(kind=work.BOTS, status=JobStatus.QUEUED)
            # ... and queues, for the same asker, the job of the position after it
            assert following.session_key == first.session_key
            client.get(URL)  # the page shows the first card and waits for that very job
        table, state = session_game(client)
        assert table.waiting == str(following.pk)
        assert following.key == work.key_of(work.BOTS, json.dumps(work.table_payload(table)))
        return
    raise AssertionError("in ten games no bot had to think twice in a row")

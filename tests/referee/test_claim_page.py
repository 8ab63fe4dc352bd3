"""The calculator's page: a claim that holds, one that fails with its line, clear 400s that keep
what was typed, a larger position answered by a job, and the casebook's links to it."""

from __future__ import annotations

import html
import random
from urllib.parse import unquote

import pytest
from django.http import QueryDict
from django.test import Client, override_settings
from django.urls import reverse

from skatschule.casebook import cases as casebook
from skatschule.engine import CardSet, Contract, GameState, GameType, deal_cards, parse_card
from skatschule.engine.claims import Claim, ClaimPosition, Goal, Side, Tally, check_claim
from skatschule.engine.iss import parse_record, write_record
from skatschule.jobs.models import Job, Result
from skatschule.jobs.running import run
from skatschule.referee import reading, work

pytestmark = pytest.mark.django_db

URL = "/schiedsrichter/abkuerzung/"

# F-38: middlehand plays open, rightly; F-37: too early (forehand leads two clubs winners)
RIGHTLY = {
    "spiel": "grand",
    "allein": "0",
    "aus": "1",
    "hand0": "CA CT H8 H7 D7",
    "hand1": "ST SK DA DT DK",
    "hand2": "CK HA HT HK DQ",
    "augen_allein": "14",
    "augen_gegner": "14",
    "stiche_allein": "4",
    "stiche_gegner": "1",
    "wer": "defenders",
    "ziel": "rest",
}
TOO_EARLY = {
    **RIGHTLY,
    "aus": "0",
    "hand0": "CA CT S7 H7 H8 D7",
    "hand1": "SA ST SK DA DT DK",
    "hand2": "HA HT HK HQ CK DQ",
    "augen_gegner": "0",
    "stiche_gegner": "0",
}


def _text(response: object) -> str:
    return html.unescape(response.content.decode())  # type: ignore[attr-defined]


def test_the_form_is_prefilled_from_a_link_and_shows_no_answer(client: Client) -> None:
    response = client.get(URL, RIGHTLY)
    assert response.status_code == 200
    page = _text(response)
    assert 'name="hand1" value="ST" checked' in page
    assert 'name="hand1" value="SA">' in page
    assert 'id="claim-result"' not in page


def test_a_claim_that_holds(client: Client) -> None:
    response = client.post(URL, RIGHTLY)
    assert response.status_code == 200
    page = _text(response)
    assert "Die Forderung gilt</h2>" in page
    assert "Der Spielverlauf, der die Forderung bricht" not in page


def test_a_claim_that_fails_shows_the_refuting_line_in_the_deck(client: Client) -> None:
    client.cookies["skatschule_deck"] = "german"
    response = client.post(URL, TOO_EARLY)
    assert response.status_code == 200
    page = _text(response)
    assert "Die Forderung gilt nicht</h2>" in page
    assert "Damit gehören alle restlichen Stiche dem Alleinspieler" in page
    assert "Eichel-Daus" in page  # the ace of clubs, named as the German deck names it
    position, claim = reading.read(reading.values_of(_query(TOO_EARLY)))
    verdict = check_claim(position, claim)
    assert page.count("Stich für") == len(verdict.tricks())


def test_english(client: Client) -> None:
    client.cookies["django_language"] = "en"
    page = _text(client.post(URL, TOO_EARLY))
    assert "The claim does not hold" in page


def _query(data: dict[str, str]) -> QueryDict:
    q = QueryDict(mutable=True)
    q.update(data)
    return q


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"hand2": "CK HA HT HK CA"}, "Doppelt angegeben: CA"),
        ({"hand2": "CK HA HT HK"}, "Die Kartenzahlen passen nicht"),
        ({"augen_gegner": "20"}, "Die Augen passen nicht zu den Karten"),
        ({"stiche_gegner": "3"}, "Gespielt sind 5 Stiche"),
        ({"augen_allein": "abc"}, "ganze Zahlen"),
        ({"hand0": "XX CT H8 H7 D7"}, "ist keine Karte"),
        ({"spiel": "skat"}, "Bitte wähle ein Spiel"),
        ({"spiel": "null", "ziel": "rest"}, "Im Nullspiel kann nur das Spiel selbst"),
        ({"stich2": "SA"}, "braucht eine 1."),
        ({"hand0": "", "hand1": "", "hand2": ""}, "Es fehlen die Karten"),
    ],
)
def test_impossible_positions_get_a_clear_400_and_keep_what_was_typed(
    client: Client, change: dict[str, str], message: str
) -> None:
    response = client.post(URL, {**RIGHTLY, **change})
    assert response.status_code == 400
    page = _text(response)
    assert message in page
    assert 'role="alert"' in page
    if "hand1" not in change:  # the ticked cards stay ticked
        assert 'name="hand1" value="ST" checked' in page
    assert f'<option value="{change.get("spiel", "grand")}" selected>' in page or "spiel" in change
    assert (
        'name="augen_allein" inputmode="numeric" size="4" maxlength="3" value="' + change.get("augen_allein", "14")
        in page
    )


def test_a_larger_position_is_answered_by_a_job(client: Client) -> None:
    """Six cards a hand: not in the request, but by a job (run at once by the test backend);
    the finished job's address shows the stored verdict."""
    response = client.post(URL, TOO_EARLY)
    assert response.status_code == 200
    job = Job.objects.get(kind=work.CLAIM_JOB)
    assert job.is_done
    position, claim = reading.read(reading.values_of(_query(TOO_EARLY)))
    stored = Result.objects.get(kind=work.CLAIM_JOB, key=work.key_of(position, claim))
    assert stored.data["holds"] is False
    again = client.get(f"{URL}?{reading.query_of(position, claim)}&pruefen=1")
    assert "Die Forderung gilt nicht</h2>" in _text(again)


def test_a_stored_result_is_not_computed_by_a_get(client: Client) -> None:
    position, claim = reading.read(reading.values_of(_query(TOO_EARLY)))
    page = _text(client.get(f"{URL}?{reading.query_of(position, claim)}&pruefen=1"))
    assert "noch kein Ergebnis" in page
    assert not Job.objects.exists()


def test_the_link_query_reads_back_to_the_same_position() -> None:
    position = ClaimPosition(
        GameType.HEARTS,
        2,
        (CardSet("CJ HA"), CardSet("SA"), CardSet("DT D7")),
        leader=1,
        trick=(parse_card("S7"),),
        tally=Tally(40, 46, 5, 3),
    )
    claim = Claim(Side.DECLARER, Goal.WIN)
    assert reading.read(reading.values_of(QueryDict(reading.query_of(position, claim)))) == (position, claim)


def test_claim_cases_link_to_the_calculator_after_the_answer(client: Client) -> None:
    case = casebook.get_case("F-37")
    assert case is not None
    before = _text(client.get(reverse("casebook:case", args=["F-37"])))
    assert URL not in before  # the answer is not to be had before answering
    answer = [casebook.solve(case).choice, str(casebook.solve(case).score)]
    after = _text(client.post(reverse("casebook:case_answer", args=["F-37"]), {"answer": answer}))
    assert URL in after
    link = after.split(URL, 1)[1].split('"', 1)[0]
    position, claim = reading.read(reading.values_of(QueryDict(link.lstrip("?"))))
    assert claim == Claim(Side.DEFENDERS, Goal.REST)
    assert not check_claim(position, claim).holds


def test_every_claim_case_opens_in_the_calculator_and_agrees_with_its_ruling() -> None:
    """F-35, F-36, F-39: the declarer's sure claims; F-37 too early, F-38 rightly open."""
    found = {}
    for case in casebook.load_cases():
        claimed = casebook.claim_of(case)
        if claimed is not None:
            found[case.id] = check_claim(*claimed).holds
    assert found == {"F-35": True, "F-36": True, "F-37": False, "F-38": True, "F-39": True}


def _played_record() -> tuple[str, GameState]:
    """A finished Grand Hand played at random, as an ISS record."""
    rng = random.Random(5)
    state = GameState.start(deal_cards(rng=rng), declarer=1, bid=18, contract=Contract(GameType.GRAND, hand=True))
    while not state.is_over():
        state.play(rng.choice(list(state.legal_cards())))
    return write_record(state), state


def test_an_iss_record_opens_at_the_chosen_card(client: Client) -> None:
    record, _ = _played_record()
    response = client.post(URL, {"iss": record, "karten": "16"})
    assert response.status_code == 200
    page = _text(response)
    assert "Die Stellung aus dem ISS-Datensatz steht im Formular" in page
    position = ClaimPosition.of(parse_record(record).position(16))
    assert len(position.trick) == 1
    for seat, hand in enumerate(position.hands):
        for card in hand:
            assert f'name="hand{seat}" value="{card.code}" checked' in page
    assert f'<option value="{position.trick[0].code}" selected>' in page
    t = position.tally
    assert f'name="augen_allein" inputmode="numeric" size="4" maxlength="3" value="{t.declarer_augen}"' in page
    assert 'id="claim-result"' not in page  # nothing checked yet


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"karten": "40"}, "0 bis 29"),
        ({"karten": "x"}, "0 bis 29"),
        ({"iss": "(;GM[Skat]MV[w CJ];)"}, ""),
        ({"iss": "x" * 6000}, "zu lang"),
    ],
)
def test_a_bad_iss_record_gets_a_clear_400(client: Client, data: dict[str, str], message: str) -> None:
    record, _ = _played_record()
    response = client.post(URL, {"iss": record, "karten": "16", **data})
    assert response.status_code == 400
    page = _text(response)
    assert 'id="iss-error"' in page and message in page


QUEUE_ONLY = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}


def test_a_job_still_running_shows_progress_then_the_status_page_leads_to_the_verdict(client: Client) -> None:
    with override_settings(TASKS=QUEUE_ONLY):
        response = client.post(URL, TOO_EARLY)
        assert response.status_code == 200
        page = _text(response)
        assert "job-progress" in page and "Stand neu laden" in page
        assert 'id="claim-result"' not in page
        job = Job.objects.get(kind=work.CLAIM_JOB)
        assert job.is_pending
    run(job_id=job.pk)  # the worker
    status = client.get(reverse("jobs:status", args=[job.pk]), {"next": _next_of(page)})
    assert status.status_code == 302
    done = _text(client.get(status["Location"]))
    assert "Die Forderung gilt nicht</h2>" in done


def _next_of(page: str) -> str:
    """The address the progress link sends the referee to once the job is done."""
    progress = page.split('class="job-progress"', 1)[1]
    return unquote(progress.split("?next=", 1)[1].split('"', 1)[0])

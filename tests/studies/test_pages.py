"""The studies' pages: create from the typed-in form, annotate, share by link, answer a stop; and
nothing after an unanswered stop reaches the page."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from skatschule.classrooms.models import Classroom
from skatschule.engine.puzzles import Spot
from skatschule.studies.models import Study
from tests.people import client_for

from .games import random_game, stop_with_a_wrong_card, typed_fields

pytestmark = pytest.mark.django_db
SEED = 11


def _made(teacher: User, *, link: bool = True) -> tuple[Study, int, Client]:
    client = client_for(teacher)
    spot = random_game(SEED)
    response = client.post(reverse("studies:create"), {"quelle": "eingabe", "titel": "Grand", **typed_fields(spot)})
    assert response.status_code == 302
    study = Study.objects.get()
    moment = stop_with_a_wrong_card(spot)
    fields = {f"notiz{moment}": "Jetzt du.", f"notiz{moment + 1}": "GEHEIM-DANACH", f"halt{moment}": "1"}
    assert client.post(reverse("studies:edit", args=[study.pk]), fields).status_code == 302
    if link:
        client.post(reverse("studies:share", args=[study.pk]), {"klasse": "", "link": "1"})
    study.refresh_from_db()
    return study, moment, client


def test_nothing_after_an_unanswered_stop_reaches_the_page(teacher: User) -> None:
    study, moment, _ = _made(teacher)
    spot = Spot.from_dict(study.record)
    learner = Client()
    url = reverse("studies:study", args=[study.token])
    for asked in (moment, moment + 1, 29, "abc"):
        page = learner.get(url, {"schritt": asked})
        html = page.content.decode()
        assert page.status_code == 200 and page["X-Robots-Tag"] == "noindex, nofollow"
        if asked != "abc":
            assert "Jetzt du." in html and "GEHEIM-DANACH" not in html
            assert f'data-played="{moment}"' in html and f'data-played="{moment + 1}"' not in html
            assert f'href="?schritt={moment + 1}"' not in html
            assert "Richtig ist" not in html
            assert len(re.findall(r'name="karte"', html)) >= 2
    next_card = spot.plays[moment]
    learner.post(reverse("studies:answer", args=[study.token, moment]), {"karte": next_card.code})
    html = learner.get(url, {"schritt": moment + 1}).content.decode()
    assert "GEHEIM-DANACH" in html and f'data-played="{moment + 1}"' in html


def test_a_study_not_shared_is_not_found(teacher: User) -> None:
    study, _moment, teacher_client = _made(teacher, link=False)
    assert Client().get(reverse("studies:study", args=[study.token])).status_code == 404
    assert teacher_client.get(reverse("studies:study", args=[study.token])).status_code == 200
    assert Client().get(reverse("studies:study", args=["x" * 40])).status_code == 404


def test_an_answer_is_shown_with_the_grading(teacher: User, student: User) -> None:
    study, moment, _ = _made(teacher)
    stop = study.stops.get()
    wrong = next(c for c in stop.values if c not in stop.right)
    learner = client_for(student)
    response = learner.post(reverse("studies:answer", args=[study.token, moment]), {"karte": wrong})
    assert response.status_code == 302
    html = learner.get(response["Location"]).content.decode()
    assert "Leider nicht." in html and "Richtig ist" in html
    results = client_for(teacher).get(reverse("studies:results", args=[study.pk])).content.decode()
    assert "schueler" in results and "0 von 1 Antworten richtig" in results


def test_bad_input_is_a_clear_4xx(teacher: User, student: User) -> None:
    client = client_for(teacher)
    fields = typed_fields(random_game(SEED)) | {"hand0": "CJ QQ"}
    page = client.post(reverse("studies:create"), {"quelle": "eingabe", "titel": "X", **fields})
    assert page.status_code == 400 and "keine Karte" in page.content.decode()
    page = client.post(reverse("studies:create"), {"quelle": "iss", "titel": "X", "iss": "(;" * 4000})
    assert page.status_code == 400 and "zu lang" in page.content.decode()
    page = client.post(reverse("studies:create"), {"quelle": "eingabe", "titel": "X", "allein": "ä" * 300})
    assert page.status_code == 400
    page = client.post(reverse("studies:create"), {"quelle": "iss", "titel": "X", "iss": "(;" * 40_000})
    assert page.status_code == 413
    assert client_for(student).post(reverse("studies:create"), {"quelle": "eingabe"}).status_code == 403
    study, moment, _ = _made(teacher)
    page = Client().post(reverse("studies:answer", args=[study.token, moment]), {"karte": "XX"})
    assert page.status_code == 400


def test_a_study_from_an_iss_record_and_from_an_own_table_game(teacher: User, other_teacher: User) -> None:
    from skatschule.engine.iss import parse_record
    from tests.table.records import played_record
    from tests.table.stored import stored_games

    client = client_for(teacher)
    record = next(r for r in (played_record(s) for s in range(20)) if parse_record(r).state.contract is not None)
    page = client.post(reverse("studies:create"), {"quelle": "iss", "titel": "ISS", "iss": record})
    assert page.status_code == 302
    assert Study.objects.get(title="ISS").record["plays"] == [c.code for c in parse_record(record).plays]
    [(pk, state)] = stored_games(teacher, 1)
    assert str(pk) in client.get(reverse("studies:create")).content.decode()
    page = client.post(reverse("studies:create"), {"quelle": "tisch", "titel": "Tisch", "spiel_nr": str(pk)})
    assert page.status_code == 302
    assert len(Study.objects.get(title="Tisch").record["plays"]) == len(state.tricks) * 3 + len(state.trick)
    other = client_for(other_teacher).post(
        reverse("studies:create"), {"quelle": "tisch", "titel": "Fremd", "spiel_nr": str(pk)}
    )
    assert other.status_code == 404


def test_the_class_progress_page_has_a_column_for_the_study(teacher: User, student: User, classroom: Classroom) -> None:
    study, moment, client = _made(teacher, link=False)
    client.post(reverse("studies:share", args=[study.pk]), {"klasse": str(classroom.pk)})
    stop = study.stops.get()
    client_for(student).post(reverse("studies:answer", args=[study.token, moment]), {"karte": stop.right[0]})
    html = client.get(reverse("classrooms:progress", args=[classroom.pk])).content.decode()
    assert "Studie: Grand" in html and "1 / 1 richtig" in html

"""Export and import of a user's practice as JSON."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from skatschule.owners import Owner
from skatschule.training.models import Attempt, ReviewItem
from skatschule.training.selectors import progress
from skatschule.training.services.portability import FORMAT
from tests.responses import streamed
from tests.training.helpers import answer

if TYPE_CHECKING:
    from django.test.client import _MonkeyPatchedWSGIResponse

pytestmark = pytest.mark.django_db


@pytest.fixture
def anna() -> User:
    user = get_user_model().objects.create_user("anna")
    owner = Owner.for_user(user)
    for n, kind in enumerate(["augen", "spitzen", "augen", "spielwert", "stich"]):
        answer(kind, 1, owner, correct=n % 2 == 0)
    return user


def _export(client: Client, user: User) -> dict[str, Any]:
    client.force_login(user)
    response = client.get(reverse("accounts:export"))
    assert response.status_code == 200 and "attachment" in response["Content-Disposition"]
    data: dict[str, Any] = json.loads(streamed(response))
    return data


def _import(client: Client, user: User, data: object, name: str = "export.json") -> _MonkeyPatchedWSGIResponse:
    client.force_login(user)
    raw = data if isinstance(data, bytes) else json.dumps(data).encode()
    return client.post(reverse("accounts:import"), {"file": SimpleUploadedFile(name, raw, "application/json")})


def test_export_needs_an_account(client: Client) -> None:
    assert client.get(reverse("accounts:export")).status_code == 302
    assert client.get(reverse("accounts:import")).status_code == 302


def test_round_trip_to_another_account_is_idempotent(client: Client, anna: User) -> None:
    data = _export(client, anna)
    assert data["format"] == FORMAT and len(data["attempts"]) == 5 and len(data["reviews"]) == 2
    bert = get_user_model().objects.create_user("bert")
    response = _import(client, bert, data)
    assert (
        response.status_code == 200 and "Übernommen: 5 Antworten und 2 Wiederholungskarten" in response.content.decode()
    )
    a, b = progress(owner=Owner.for_user(anna)), progress(owner=Owner.for_user(bert))
    assert (b.attempts, b.right) == (a.attempts, a.right)
    assert a.streak == 1 and b.streak == 0  # anna's signature is not bert's: history only
    assert ReviewItem.objects.filter(user=bert).count() == 2
    # the same file again: nothing new
    response = _import(client, bert, data)
    assert response.status_code == 200 and "5 Antworten waren schon vorhanden" in response.content.decode()
    assert Attempt.objects.filter(user=bert).count() == 5


def test_import_keeps_what_is_there(client: Client, anna: User) -> None:
    data = _export(client, anna)
    own_attempts = set(Attempt.objects.filter(user=anna).values_list("pk", flat=True))
    own_cards = {r.pk: r.card for r in ReviewItem.objects.filter(user=anna)}
    data["reviews"][0]["reviews"] = 99
    response = _import(client, anna, data)
    assert response.status_code == 200
    assert set(Attempt.objects.filter(user=anna).values_list("pk", flat=True)) == own_attempts
    assert {r.pk: r.card for r in ReviewItem.objects.filter(user=anna)} == own_cards
    assert not ReviewItem.objects.filter(reviews=99).exists()


def test_a_file_cannot_make_a_wrong_answer_right(client: Client, anna: User) -> None:
    data = _export(client, anna)
    wrong = [a for a in data["attempts"] if not a["correct"]]
    assert wrong
    for a in data["attempts"]:
        a["correct"] = True
    bert = get_user_model().objects.create_user("bert")
    assert _import(client, bert, data).status_code == 200
    assert Attempt.objects.filter(user=bert, correct=False).count() == len(wrong)  # graded by the engine


@pytest.mark.parametrize(
    "breakage, message",
    [
        (lambda d: d["attempts"][1].update(kind="gibt-es-nicht"), "attempts[1]: unbekannte Übungsart"),
        (lambda d: d["attempts"][0].update(seed=2**40), "attempts[0]: „seed“ muss eine ganze Zahl"),
        (lambda d: d["attempts"][0].update(difficulty=True), "„difficulty“ muss eine ganze Zahl"),
        (lambda d: d["attempts"][2].update(created_at="2999-01-01T00:00:00+00:00"), "liegt in der Zukunft"),
        (lambda d: d["attempts"][2].update(created_at="gestern"), "kein Zeitpunkt"),
        (lambda d: d["attempts"][3].update(answer=["x" * 500]), "Liste kurzer Texte"),
        (lambda d: d["attempts"][3].update(answer=["HX", "CJ"]), "Antwort nicht lesbar"),
        (lambda d: d["reviews"][0].update(card={"state": "kaputt"}), "keine gültige Wiederholungskarte"),
        (lambda d: d.update(format="etwas anderes"), "kein Fortschritts-Export"),
        (lambda d: d.update(version=2), "Unbekannte Version"),
        (lambda d: d.update(attempts={}), "muss eine Liste sein"),
    ],
)
def test_strict_validation_stores_nothing(
    client: Client, anna: User, breakage: Callable[[dict[str, Any]], object], message: str
) -> None:
    data = _export(client, anna)
    breakage(data)
    bert = get_user_model().objects.create_user("bert")
    response = _import(client, bert, data)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Attempt.objects.filter(user=bert).exists() and not ReviewItem.objects.filter(user=bert).exists()


@pytest.mark.parametrize("raw", [b"", b"\xff\xfe not json", b"[1, 2, 3]", b"{" * 100_000])
def test_garbage_files_are_refused(client: Client, anna: User, raw: bytes) -> None:
    response = _import(client, anna, raw)
    assert response.status_code == 400


def test_no_file_and_english_message(client: Client, anna: User) -> None:
    client.force_login(anna)
    client.cookies["django_language"] = "en"
    response = client.post(reverse("accounts:import"), {})
    assert response.status_code == 400 and "Please choose a file." in response.content.decode()


def test_the_streamed_export_is_the_export_data(client: Client, anna: User) -> None:
    from skatschule.training.services.portability import SIGNED, export_data, export_stream, signature_state

    owner = Owner.for_user(anna)
    streamed = json.loads("".join(export_stream(owner=owner)))
    assert signature_state(data=streamed, owner=owner) == SIGNED  # signed on the way, the signature last
    whole = export_data(owner=owner)
    for data in (streamed, whole):
        data.pop("exported_at")
    streamed.pop("signature")
    assert streamed == json.loads(json.dumps(whole)) and len(streamed["attempts"]) == 5
    client.force_login(anna)
    response = client.get(reverse("accounts:export"))
    assert response.streaming and response["Content-Type"] == "application/json"

"""Only a signed export raises mastery and streaks; anything else is imported as history.

The export is signed with an HMAC keyed by SECRET_KEY and bound to the exporting account.
Forged files (right answers computed offline with the public engine) must not master a
lesson; a tampered signed file is imported as history only (documented in portability).
"""

from __future__ import annotations

import json
import random
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from skatschule.exercises import REGISTRY
from skatschule.owners import Owner
from skatschule.training.lessons import get_lesson
from skatschule.training.models import Attempt, IssuedExercise
from skatschule.training.selectors import lesson_progress_for, progress
from skatschule.training.services.portability import (
    FORMAT,
    INVALID,
    SIGNATURE_FIELD,
    SIGNED,
    UNSIGNED,
    VERSION,
    signature_state,
)
from tests.present import present
from tests.responses import streamed
from tests.training.helpers import answer

pytestmark = pytest.mark.django_db

LESSON = "die-karten"  # steps augen:1..3, mastery 8 of the last 10


def _user(name: str) -> User:
    return get_user_model().objects.create_user(name)


def _master(user: User) -> None:
    owner = Owner.for_user(user)
    for _ in range(10):
        answer("augen", 1, owner, correct=True)


def _mastered(user: User) -> bool:
    return lesson_progress_for(owner=Owner.for_user(user), lesson=present(get_lesson(LESSON))).mastered


def _export(client: Client, user: User) -> dict[str, Any]:
    client.force_login(user)
    response = client.get(reverse("accounts:export"))
    assert response.status_code == 200
    data: dict[str, Any] = json.loads(streamed(response))
    return data


def _import(client: Client, user: User, data: dict[str, Any]) -> str:
    client.force_login(user)
    raw = json.dumps(data).encode()
    response = client.post(reverse("accounts:import"), {"file": SimpleUploadedFile("p.json", raw, "application/json")})
    assert response.status_code == 200
    return response.content.decode()


def _forget(user: User) -> None:
    IssuedExercise.objects.filter(user=user).delete()  # attempts go with them (cascade)
    assert not Attempt.objects.filter(user=user).exists()


def _forged(count: int) -> dict[str, Any]:
    """``count`` right answers computed with the engine, as a learner could do offline."""
    rng = random.Random(13)
    kind = REGISTRY["augen"]
    start = timezone.now() - timedelta(hours=2)
    attempts = []
    for i in range(count):
        level, seed = 1 + i % 3, rng.randrange(2**31)
        question = kind.generate(level, seed)
        when = (start + timedelta(minutes=i)).isoformat()
        attempts.append(
            {
                "kind": "augen",
                "difficulty": level,
                "seed": seed,
                "lesson": LESSON,
                "mode": "lesson",
                "answer": kind.correct_answer(question),
                "correct": True,
                "time_taken_ms": 4000,
                "issued_at": when,
                "created_at": when,
                "rule_ids": list(question.rule_ids),
            }
        )
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "attempts": attempts,
        "reviews": [],
    }


def test_export_is_signed_and_verifies_after_the_download(client: Client) -> None:
    anna = _user("anna")
    _master(anna)
    data = _export(client, anna)
    assert isinstance(data[SIGNATURE_FIELD], str) and len(data[SIGNATURE_FIELD]) == 64
    owner = Owner.for_user(anna)
    assert signature_state(data=data, owner=owner) == SIGNED
    assert signature_state(data={k: v for k, v in data.items() if k != SIGNATURE_FIELD}, owner=owner) == UNSIGNED
    assert signature_state(data=data, owner=Owner.for_user(_user("bert"))) == INVALID  # bound to the account


def test_signed_round_trip_counts(client: Client) -> None:
    anna = _user("anna")
    _master(anna)
    assert _mastered(anna)
    streak = progress(owner=Owner.for_user(anna)).streak
    data = _export(client, anna)
    _forget(anna)
    assert not _mastered(anna)
    html = _import(client, anna, data)
    assert "gültige Signatur" in html
    assert Attempt.objects.filter(user=anna, counts_for_mastery=True).count() == 10
    assert _mastered(anna) and progress(owner=Owner.for_user(anna)).streak == streak == 10


def test_unsigned_file_is_history_only(client: Client) -> None:
    anna = _user("anna")
    _master(anna)
    data = _export(client, anna)
    del data[SIGNATURE_FIELD]
    _forget(anna)
    html = _import(client, anna, data)
    assert "nicht signiert" in html and "nur als Verlauf" in html
    assert Attempt.objects.filter(user=anna, counts_for_mastery=False).count() == 10
    mine = progress(owner=Owner.for_user(anna))
    assert (mine.attempts, mine.right) == (10, 10)  # the history is shown ...
    assert mine.streak == 0 and mine.best_streak == 0 and not _mastered(anna)  # ... but earns nothing


@pytest.mark.parametrize("signature", [None, "0" * 64, "not-hex"])
def test_forged_right_answers_do_not_raise_mastery(client: Client, signature: str | None) -> None:
    eve = _user("eve")
    data = _forged(24)
    if signature is not None:
        data[SIGNATURE_FIELD] = signature
    html = _import(client, eve, data)
    assert "Übernommen: 24 Antworten" in html
    assert Attempt.objects.filter(user=eve, correct=True).count() == 24  # the engine agrees they are right
    assert not _mastered(eve)
    mine = progress(owner=Owner.for_user(eve))
    assert mine.streak == 0 and mine.next_lesson is not None and mine.next_lesson.lesson.slug == LESSON
    assert sum(1 for lesson in mine.lessons if lesson.mastered) == 0


def test_tampered_signed_file_is_treated_as_unsigned(client: Client) -> None:
    anna = _user("anna")
    owner = Owner.for_user(anna)
    for n in range(10):
        answer("augen", 1, owner, correct=n != 9)  # the last answer is wrong
    data = _export(client, anna)
    _forget(anna)
    data["attempts"] += _forged(24)["attempts"]  # 24 forged right answers added to a signed file
    assert signature_state(data=data, owner=owner) == INVALID
    html = _import(client, anna, data)
    assert "Signatur der Datei passt nicht" in html
    assert not Attempt.objects.filter(user=anna, counts_for_mastery=True).exists()
    assert not _mastered(anna) and progress(owner=owner).streak == 0


def test_signed_file_of_another_account_is_history(client: Client) -> None:
    anna, bert = _user("anna"), _user("bert")
    _master(anna)
    html = _import(client, bert, _export(client, anna))
    assert "Signatur der Datei passt nicht" in html
    assert Attempt.objects.filter(user=bert).count() == 10 and not _mastered(bert)


def test_english_page_says_which_happened(client: Client) -> None:
    anna = _user("anna")
    _master(anna)
    data = _export(client, anna)
    del data[SIGNATURE_FIELD]
    client.cookies["django_language"] = "en"
    html = _import(client, _user("bert"), data)
    assert "not signed" in html and "history" in html

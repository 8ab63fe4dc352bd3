"""Every field of a progress import is checked (issue 17, §3): bad values are a 400 naming the
entry, never a 500, and nothing is stored."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.serializers.json import DjangoJSONEncoder
from django.test import Client
from django.urls import reverse

from skatschule.owners import Owner
from skatschule.training.models import Attempt, ReviewItem
from skatschule.training.services.portability import export_data
from tests.training.helpers import answer

pytestmark = pytest.mark.django_db


@pytest.fixture
def export() -> dict[str, Any]:
    owner = Owner.for_user(get_user_model().objects.create_user("quelle"))
    for n, kind in enumerate(["augen", "spitzen", "augen"]):
        answer(kind, 1, owner, correct=n == 1)
    data: dict[str, Any] = json.loads(json.dumps(export_data(owner=owner), cls=DjangoJSONEncoder))
    assert data["reviews"], "the fixture needs a review card"
    return data


def _post(data: object) -> tuple[int, str, User]:
    user = get_user_model().objects.create_user("ziel")
    client = Client(raise_request_exception=False)
    client.force_login(user)
    raw = data if isinstance(data, bytes) else json.dumps(data).encode("utf-8", "surrogatepass")
    response = client.post(reverse("accounts:import"), {"file": SimpleUploadedFile("f.json", raw, "application/json")})
    return response.status_code, response.content.decode(), user


def _set(path: tuple[str | int, ...], value: object) -> Callable[[Any], None]:
    def apply(data: Any) -> None:
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return apply


CASES = {
    "offset +99:00 in created_at": (("attempts", 0, "created_at"), "2026-11-21T12:00:00+99:00", "attempts[0]"),
    "offset +99:00 in issued_at": (("attempts", 1, "issued_at"), "2026-11-21T12:00:00+99:00", "attempts[1]"),
    "offset +99:00 in due": (("reviews", 0, "due"), "2026-11-21T12:00:00+99:00", "reviews[0]"),
    "year 1 shifted before year 1": (("attempts", 0, "created_at"), "0001-01-01T00:30:00+01:00", "attempts[0]"),
    "year 9999 due": (("reviews", 0, "due"), "9999-12-31T23:59:59-23:59", "reviews[0]"),
    "30 February": (("reviews", 0, "updated_at"), "2026-02-30T00:00:00+00:00", "reviews[0]"),
    "time without zone": (("attempts", 0, "created_at"), "2026-11-21T12:00:00", "attempts[0]"),
    "time as number": (("attempts", 0, "created_at"), 1764000000, "attempts[0]"),
    "seed negative": (("attempts", 0, "seed"), -1, "attempts[0]"),
    "seed float": (("attempts", 0, "seed"), 3.0, "attempts[0]"),
    "difficulty 10**30": (("attempts", 0, "difficulty"), 10**30, "attempts[0]"),
    "time_taken_ms beyond cap": (("attempts", 0, "time_taken_ms"), 10**12, "attempts[0]"),
    "time_taken_ms true": (("attempts", 0, "time_taken_ms"), True, "attempts[0]"),
    "reviews count negative": (("reviews", 0, "reviews"), -5, "reviews[0]"),
    "answer nested list": (("attempts", 0, "answer"), [["61"]], "attempts[0]"),
    "answer a string": (("attempts", 0, "answer"), "61", "attempts[0]"),
    "mode a list": (("attempts", 0, "mode"), ["practice"], "attempts[0]"),
    "lesson a dict": (("attempts", 0, "lesson"), {"slug": "x"}, "attempts[0]"),
    "correct a string": (("attempts", 0, "correct"), "true", "attempts[0]"),
    "card state 9": (("reviews", 0, "card", "state"), 9, "reviews[0]"),
    "card stability a string": (("reviews", 0, "card", "stability"), "viel", "reviews[0]"),
    "card due +99:00": (("reviews", 0, "card", "due"), "2026-11-21T12:00:00+99:00", "reviews[0]"),
    "card step nested": (("reviews", 0, "card", "step"), [[0]], "reviews[0]"),
    "card extra key": (("reviews", 0, "card", "extra"), 1, "reviews[0]"),
    "version true": (("version",), True, "Version"),
    "exported_at +99:00": (("exported_at",), "2026-11-21T12:00:00+99:00", "exported_at"),
    "NUL in an answer": (("attempts", 0, "answer"), ["6\x001"], "Steuerzeichen"),
    "lone surrogate in a key": (("attempts", 0, "\ud800"), 1, "ungültige Zeichen"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_bad_field_is_a_400_and_stores_nothing(export: dict[str, Any], name: str) -> None:
    path, value, where = CASES[name]
    _set(path, value)(export)
    status, body, user = _post(export)
    assert status == 400, (name, status)
    assert where in body, (name, body[:500])
    assert not Attempt.objects.filter(user=user).exists() and not ReviewItem.objects.filter(user=user).exists()


@pytest.mark.parametrize(
    "raw",
    [
        b"\xff\xfe\x00{",  # not UTF-8
        b'{"format": "skatschule-progress", "version": 1, "attempts": [\xc3\x28]}',
        b'{"format": "skatschule-progress", "version": 1, "attempts": [' + b"[" * 50 + b"]" * 50 + b"]}",
        b'{"format": "skatschule-progress", "version": 1, "x": 1' + b"0" * 5000 + b"}",  # an int too long to read
        b'{"format": "skatschule-progress", "version": 1, "attempts": [], "reviews": [], "exported_at": Infinity}',
    ],
)
def test_files_that_are_not_clean_json_are_a_400(raw: bytes) -> None:
    status, _body, _user = _post(raw)
    assert status == 400


def test_the_clean_file_still_imports(export: dict[str, Any]) -> None:
    status, body, user = _post(export)
    assert status == 200 and Attempt.objects.filter(user=user).count() == 3

"""Every parser of user text answers a hostile paste with a 4xx in well under a second of CPU
(issue 25, item 1): a 200 kB and a 1 MB paste, to each form or query that reads free text.

The size is checked before anything is parsed (``skatschule.core.limits``); the parsers
themselves are linear (``engine.iss`` splits records and reads properties in one pass).
CPU time (``time.process_time``) is measured around the request in this process, so other
load on the machine does not count.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from tests.people import make_user

if TYPE_CHECKING:
    from django.test.client import _MonkeyPatchedWSGIResponse

pytestmark = pytest.mark.django_db
SIZES = {"200kB": 200_000, "1MB": 1_000_000}
CPU_LIMIT = 1.0


def _repeat(unit: str, size: int) -> str:
    return (unit * (size // len(unit) + 1))[:size]


def _logged_in(name: str, teacher: bool = False) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(make_user(name, teacher=teacher))
    return client


# (name, make a request: (client factory, size) -> response)
Request = Callable[[int], object]


def _iss_open_records(size: int) -> _MonkeyPatchedWSGIResponse:
    return Client(raise_request_exception=False).post(reverse("table:iss"), {"records": _repeat("(;", size)})


def _iss_properties(size: int) -> _MonkeyPatchedWSGIResponse:
    text = "(;GM[Skat]" + _repeat("A[", size) + ";)"
    return Client(raise_request_exception=False).post(reverse("table:iss"), {"records": text})


def _iss_key_run(size: int) -> _MonkeyPatchedWSGIResponse:
    text = "(;GM[Skat]" + _repeat("ABC", size) + ";)"
    return Client(raise_request_exception=False).post(reverse("table:iss"), {"records": text})


def _rules_search(size: int) -> _MonkeyPatchedWSGIResponse:
    return Client(raise_request_exception=False).get(reverse("rules:search"), {"q": _repeat("schneidr ", size)})


def _case_search(size: int) -> _MonkeyPatchedWSGIResponse:
    return Client(raise_request_exception=False).get(reverse("casebook:index"), {"q": _repeat("Revoke ", size)})


def _progress_import(size: int) -> _MonkeyPatchedWSGIResponse:
    junk = SimpleUploadedFile("export.json", _repeat("[", size).encode(), content_type="application/json")
    return _logged_in("importiert").post(reverse("accounts:import"), {"file": junk})


def _progress_import_json(size: int) -> _MonkeyPatchedWSGIResponse:
    body = '{"format": "skatschule-progress", "version": 1, "attempts": [' + _repeat('"xxxxxxxxx", ', size) + '""]}'
    upload = SimpleUploadedFile("export.json", body.encode(), content_type="application/json")
    return _logged_in("importiert2").post(reverse("accounts:import"), {"file": upload})


def _score_sheet(size: int) -> _MonkeyPatchedWSGIResponse:
    data = {"players": "3", "player1": _repeat("Anna ", size), "player2": "Bert", "player3": "Cleo"}
    return Client(raise_request_exception=False).post(reverse("scoresheet:index"), data)


def _class_code(size: int) -> _MonkeyPatchedWSGIResponse:
    return _logged_in("schuelerin").post(reverse("classrooms:join"), {"code": _repeat("AB-", size)})


def _exercise_answer(size: int) -> _MonkeyPatchedWSGIResponse:
    from skatschule.training.models import IssuedExercise

    client = Client(raise_request_exception=False)
    assert client.get(reverse("training:exercise", args=["augen"])).status_code == 200
    issued = IssuedExercise.objects.latest("issued_at", "pk")
    return client.post(reverse("training:answer", args=[issued.public_id]), {"answer": _repeat("1 ", size)})


def _own_item(size: int) -> _MonkeyPatchedWSGIResponse:
    client = _logged_in("lehrerin-eigen", teacher=True)
    data = {"kind": "stich", "hand": _repeat("CJ ", size), "trick": "SJ"}
    return client.post(reverse("quizzes:own_create"), data)


def _study_typed(size: int) -> _MonkeyPatchedWSGIResponse:
    client = _logged_in("lehrerin-studie", teacher=True)
    data = {"quelle": "eingabe", "titel": "T", "spiel": "grand", "allein": "0", "hand0": _repeat("CJ ", size)}
    return client.post(reverse("studies:create"), data)


def _study_iss(size: int) -> _MonkeyPatchedWSGIResponse:
    client = _logged_in("lehrerin-iss", teacher=True)
    return client.post(reverse("studies:create"), {"quelle": "iss", "titel": "T", "iss": _repeat("(;", size)})


PARSERS: dict[str, Request] = {
    "iss: open records": _iss_open_records,
    "iss: properties without ]": _iss_properties,
    "iss: long property key": _iss_key_run,
    "rules search": _rules_search,
    "casebook search": _case_search,
    "progress import: nested junk": _progress_import,
    "progress import: long list": _progress_import_json,
    "score sheet": _score_sheet,
    "class join code": _class_code,
    "exercise answer": _exercise_answer,
    "own item": _own_item,
    "study: typed-in deal": _study_typed,
    "study: ISS record": _study_iss,
}


@pytest.mark.parametrize("size", SIZES.values(), ids=SIZES.keys())
@pytest.mark.parametrize("name", PARSERS)
def test_a_huge_paste_answers_4xx_fast(name: str, size: int) -> None:
    request = PARSERS[name]
    start = time.process_time()
    response = request(size)
    used = time.process_time() - start
    status = response.status_code  # type: ignore[attr-defined]
    assert 400 <= status < 500, (name, status)
    assert used < CPU_LIMIT, f"{name}: {used:.2f} s of CPU"


def test_a_refused_paste_keeps_the_games_read_before() -> None:
    from tests.table.records import played_record

    client = Client()
    url = reverse("table:iss")
    assert client.post(url, {"records": played_record(3)}).status_code == 302
    before = client.get(url).content.decode()
    refused = client.post(url, {"records": played_record(4) + _repeat("(;", 100_000)})
    assert refused.status_code == 413
    page = refused.content.decode()
    assert "zu lang" in page and "64 kB" in page and "nichts geändert" in page
    assert "Spiel 1 von 1" in page  # the game read in before is still there, on the same page
    tokens = re.compile(r"[A-Za-z0-9]{64}")  # CSRF tokens change with every page
    assert tokens.sub("", client.get(url).content.decode()) == tokens.sub("", before)


def test_a_body_over_djangos_limit_gets_the_413_page() -> None:
    response = Client(raise_request_exception=False).post(reverse("table:iss"), {"records": "x" * 300_000})
    assert response.status_code == 413
    assert "zu lang" in response.content.decode() and "<html" in response.content.decode()


@pytest.mark.parametrize(
    "text",
    ["(;" * 500_000, "(;GM[Skat]" + "A[" * 500_000, "(;" + "ABC" * 300_000 + ";)", "(;" + "[" * 900_000 + ";)"],
    ids=["open records", "unclosed values", "long key", "brackets"],
)
def test_the_iss_reader_itself_is_linear(text: str) -> None:
    """Below the size limit the engine must not stall either: 1 MB of hostile text in < 0.5 s."""
    from skatschule.engine.iss import IssError, parse_records

    start = time.process_time()
    with pytest.raises(IssError):
        parse_records(text)
    assert time.process_time() - start < 0.5

"""A forged progress file counts for nothing a teacher sees (issue 25, items 2 and 9).

An unsigned import is history: it never completes homework, never raises "gemeistert" in the
class progress or its export. A signed import counts, but only from the moment it was
imported (it keeps its dates, it cannot backdate homework). Parallel imports of one file
store its answers once (the unique key ``attempt_imported_once``).
"""

from __future__ import annotations

import json
import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connections
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from skatschule.classrooms import selectors
from skatschule.classrooms import services as classrooms
from skatschule.classrooms.models import Assignment, Classroom
from skatschule.owners import Owner
from skatschule.training.models import Attempt
from skatschule.training.services import portability
from skatschule.training.services.portability import SIGNATURE_FIELD, ImportResult, import_data, parse
from tests.accounts.test_signed_import import LESSON, _export, _forged, _forget, _master

pytestmark = pytest.mark.django_db


def _import_file(user: User, data: dict[str, Any]) -> None:
    client = Client()
    client.force_login(user)
    raw = json.dumps(data).encode()
    response = client.post(reverse("accounts:import"), {"file": SimpleUploadedFile("p.json", raw, "application/json")})
    assert response.status_code == 200


def _homework(teacher: User, classroom: Classroom) -> Assignment:
    due = timezone.now() + timedelta(days=2)  # any day
    return classrooms.assign_homework(teacher=teacher, classroom=classroom, task=f"lesson:{LESSON}", due_at=due)


def _lesson_cell(classroom: Classroom, student: User) -> tuple[bool, list[Any]]:
    progress = selectors.class_progress(classroom)
    row = next(s for s in progress.students if s.student_id == student.pk)
    index = [lesson.slug for lesson in progress.lessons].index(LESSON)
    table = selectors.progress_table(progress=progress)
    line = next(line for line in table[1:] if line[0] == student.get_username())
    return row.lessons[index].mastered, line


@pytest.mark.parametrize("signature", [None, "0" * 64])
def test_a_forged_file_completes_no_homework_and_masters_nothing(
    teacher: User, student: User, classroom: Classroom, signature: str | None
) -> None:
    assignment = _homework(teacher, classroom)
    data = _forged(24)  # right answers computed offline, dated two hours ago (before the due date)
    if signature:
        data[SIGNATURE_FIELD] = signature
    _import_file(student, data)
    assert Attempt.objects.filter(user=student, correct=True).count() == 24  # kept as history

    line = selectors.student_homework(student)[0]
    assert line.assignment == assignment and not line.done  # still "offen"
    status = {s.name: s for s in selectors.class_status(assignment)}
    assert status[student.get_username()].done_at is None
    mastered, row = _lesson_cell(classroom, student)
    assert not mastered and "gemeistert" not in row and row[2] == 0
    assert row[1] == ""  # history is no activity the teacher sees


def test_a_signed_import_counts_from_its_import_not_from_its_dates(
    client: Client, teacher: User, student: User, classroom: Classroom
) -> None:
    _master(student)  # ten right answers, then the export, then everything is gone
    data = _export(client, student)
    _forget(student)
    assignment = _homework(teacher, classroom)
    before = timezone.now()
    _import_file(student, data)

    done = selectors.done_at(assignment, student_ids=[student.pk])[student.pk]
    assert done is not None and done >= before  # done, but not before the import happened
    assert all(a.created_at < before for a in Attempt.objects.filter(user=student))  # the dates are kept
    mastered, row = _lesson_cell(classroom, student)
    assert mastered and "gemeistert" in row


def test_an_import_racing_itself_stores_each_answer_once(student: User, monkeypatch: pytest.MonkeyPatch) -> None:
    """Both imports read "nothing there yet" before either inserts: the unique key decides."""
    data = parse(raw=json.dumps(_forged(30)).encode())
    owner = Owner.for_user(student)
    assert import_data(owner=owner, data=data).attempts_added == 30
    monkeypatch.setattr(portability, "_existing_keys", lambda owner: set())  # as a parallel import sees it
    again = import_data(owner=owner, data=data)
    assert (again.attempts_added, again.attempts_skipped) == (0, 30)
    assert Attempt.objects.filter(user=student).count() == 30


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_parallel_imports_of_one_file_store_it_once(student: User, monkeypatch: pytest.MonkeyPatch) -> None:
    data = parse(raw=json.dumps(_forged(30)).encode())
    owner = Owner.for_user(student)
    threads = 8
    barrier = threading.Barrier(threads, timeout=30)
    original = portability._existing_keys

    def read_then_wait(owner: Owner) -> set[tuple[Any, ...]]:
        keys = original(owner)
        barrier.wait()  # every import has read "nothing there" before any inserts
        return keys

    monkeypatch.setattr(portability, "_existing_keys", read_then_wait)

    def run(_: int) -> ImportResult:
        try:
            return import_data(owner=owner, data=data)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=threads) as pool:
        results = list(pool.map(run, range(threads)))
    assert Attempt.objects.filter(user=student).count() == 30
    assert sum(r.attempts_added for r in results) == 30
    assert sum(r.attempts_skipped for r in results) == 30 * (threads - 1)

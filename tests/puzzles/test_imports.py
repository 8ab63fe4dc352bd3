"""Every ISS record a learner imports becomes a puzzle candidate, examined by a job.

The tests' task backend is the immediate one: ``jobs.submit`` runs the handler at once.
"""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from pytest_django.fixtures import Settings

from skatschule.engine.iss import parse_record, write_record
from skatschule.engine.puzzles import Puzzle as EnginePuzzle
from skatschule.engine.puzzles import check_unique
from skatschule.jobs.models import Job, JobStatus
from skatschule.puzzles import content, imports
from skatschule.puzzles.generation import RECORDS
from skatschule.puzzles.models import RecordCandidate
from tests.present import present

pytestmark = pytest.mark.django_db


def _late_puzzle() -> EnginePuzzle:
    """A shipped puzzle late in its game (few decisions to examine after it)."""
    return max(content.read(), key=lambda p: (len(p.spot.plays), p.id))


def _record(puzzle: EnginePuzzle) -> str:
    """The puzzle's game played on with the answer and the solver's line, as an ISS record with names."""
    state = puzzle.spot.state()
    for card in (puzzle.answer[0], *puzzle.line):
        state.play(card)
    return write_record(state, players=("Anna", "Ben", "Cora"), game_id="7")


def test_anonymous_blanks_the_names_only() -> None:
    record = _record(_late_puzzle())
    text = imports.anonymous(record)
    assert "Anna" not in text and "P0[]P1[]P2[]" in text
    assert parse_record(text).plays == parse_record(record).plays


def test_an_import_queues_the_puzzle_search(client: Client, tmp_path: Path) -> None:
    puzzle = _late_puzzle()
    record = _record(puzzle)
    assert "ohne Spielernamen nach Aufgaben durchsucht" in client.get(reverse("table:iss")).content.decode()
    assert client.post(reverse("table:iss"), {"records": record}).status_code == 302
    candidate = RecordCandidate.objects.get()
    assert "Anna" not in candidate.record and candidate.job is not None
    assert candidate.job.kind == RECORDS and candidate.job.status == JobStatus.DONE
    found = {d["id"]: d for d in present(present(candidate.job).result).data["puzzles"]}
    # the game's own decision is found again (the same position, the same proven answer)
    assert puzzle.id in found and found[puzzle.id]["answer"] == [c.code for c in puzzle.answer]
    assert {d["source"] for d in found.values()} == {"iss"}
    # the same game imported again is no new candidate and no new search
    assert client.post(reverse("table:iss"), {"records": record}).status_code == 302
    assert RecordCandidate.objects.count() == 1
    # make_puzzles --imported folds the candidates' puzzles into the shipped set
    out = tmp_path / "p.jsonl"
    text = StringIO()
    call_command("make_puzzles", "--imported", "--out", str(out), stdout=text, stderr=StringIO())
    written = {json.loads(line)["id"]: json.loads(line) for line in out.read_text().splitlines()}
    assert puzzle.id in written
    assert check_unique(EnginePuzzle.from_dict(written[puzzle.id]))
    assert "Aufgaben je Minute und Worker" in text.getvalue()


def test_a_full_queue_does_not_stop_the_import(client: Client, settings: Settings, tmp_path: Path) -> None:
    settings.JOBS_PER_OWNER = 0
    record = _record(_late_puzzle())
    response = client.post(reverse("table:iss"), {"records": record})
    assert response.status_code == 302  # the import works; the search waits
    assert RecordCandidate.objects.get().job is None
    settings.JOBS_PER_OWNER = 3
    # another learner's import queues only that learner's records, not the waiting one
    from tests.table.records import played_record

    other = played_record(5)
    assert Client().post(reverse("table:iss"), {"records": other}).status_code == 302
    assert RecordCandidate.objects.get(record=imports.anonymous(other)).job is not None
    assert imports.pending_count() == 1
    out = tmp_path / "p.jsonl"
    errors = StringIO()
    call_command("make_puzzles", "--imported", "--out", str(out), stdout=StringIO(), stderr=errors)
    assert all(present(c.job).status == JobStatus.DONE for c in RecordCandidate.objects.all())
    assert imports.pending_count() == 0
    assert "noch in Arbeit: 0" in errors.getvalue()
    assert Job.objects.filter(kind=RECORDS).count() == 2


@pytest.mark.postgres
def test_waiting_records_are_submitted_on_postgresql(settings: Settings) -> None:
    from skatschule.owners import Owner
    from tests.table.records import played_record

    settings.JOBS_PER_OWNER = 0
    owner = Owner.for_session("i" * 32)
    assert imports.queue_records(owner=owner, records=[played_record(1), played_record(2)]) == 2
    settings.JOBS_PER_OWNER = 3
    submitted = imports.submit_waiting(owner=owner)  # FOR UPDATE of the candidates' rows only
    assert len(submitted) == 1 and imports.pending_count() == 0
    assert imports.submit_waiting(owner=owner) == []


def test_an_ouvert_game_is_counted_and_left_out() -> None:
    from skatschule.puzzles.generation import run_records
    from tests.table.records import played_record

    ouvert = next(r for r in map(played_record, range(50)) if (c := parse_record(r).state.contract) and c.ouvert)
    result = run_records({"records": [ouvert]})
    assert result["counts"] == {"ouvert": 1} and result["puzzles"] == []

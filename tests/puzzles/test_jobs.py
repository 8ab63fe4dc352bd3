"""Heavy puzzle work runs as jobs: generation (make_puzzles) and "Aus meinen Fehlern".

The tests' task backend is the immediate one: ``jobs.submit`` runs the handler at once.
"""

from __future__ import annotations

import bz2
import json
import re
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.urls import reverse

from skatschule.engine.iss import parse_record
from skatschule.engine.puzzles import Puzzle as EnginePuzzle
from skatschule.engine.puzzles import check_unique, mistakes
from skatschule.jobs.models import Job, JobStatus
from skatschule.puzzles.generation import GENERATE, merge, run_batch
from skatschule.puzzles.models import Puzzle
from skatschule.table.models import TableGame
from tests.people import client_for, make_user
from tests.present import present

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def batch() -> dict[str, Any]:
    return run_batch({"first_seed": 2, "games": 1})


def test_a_batch_counts_every_decision(batch: dict[str, Any]) -> None:
    assert batch["games"] == 1 and batch["counts"]
    figures = merge([batch])
    assert figures.games == 1
    assert sum(figures.counts.values()) >= len(figures.puzzles)
    for data in batch["puzzles"]:
        assert EnginePuzzle.from_dict(data).id == data["id"]


def test_make_puzzles_goes_through_jobs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, batch: dict[str, Any]) -> None:
    calls: list[dict[str, Any]] = []

    def fake(
        payload: dict[str, Any],
    ) -> dict[str, Any]:  # the real handler is run_batch (tested above); a cheap stand-in here
        calls.append(payload)
        return dict(batch, first_seed=payload["first_seed"], games=payload["games"])

    from skatschule.jobs import registry

    monkeypatch.setitem(registry._HANDLERS, GENERATE, fake)
    out = tmp_path / "p.jsonl"
    text = StringIO()
    call_command("make_puzzles", "--games", "2", "--batch", "1", "--start", "7", "--out", str(out), stdout=text)
    assert [c["first_seed"] for c in calls] == [7, 8]
    assert Job.objects.filter(kind=GENERATE, status=JobStatus.DONE).count() == 2
    assert "Aufgaben je Minute und Worker" in text.getvalue()
    written = [json.loads(line) for line in out.read_text().splitlines()]
    assert {d["id"] for d in written} <= {d["id"] for d in batch["puzzles"]}
    # a second run with the same seeds is answered from the stored results
    call_command("make_puzzles", "--games", "2", "--batch", "1", "--start", "7", "--out", str(out), stdout=StringIO())
    assert len(calls) == 2


def _game_with_a_mistake() -> tuple[str, int]:
    """An ISS record of a bot game in which some seat made a mistake the engine can show."""
    from skatschule.engine.iss import write_record
    from skatschule.engine.puzzles import Spot

    for data in (json.loads(line) for line in open("rules_content/puzzles/puzzles.jsonl")):
        puzzle = EnginePuzzle.from_dict(data)
        state = puzzle.spot.state()
        seat = state.to_move
        assert seat is not None  # a puzzle starts at a card to play
        wrong = next(c for c in puzzle.values if c not in puzzle.answer)
        state.play(wrong)
        while not state.is_over():
            state.play(next(iter(state.legal_cards())))
        full = Spot(puzzle.spot.deal, puzzle.spot.declarer, puzzle.spot.game, puzzle.spot.discard, ())
        assert full.state().deal == state.deal
        record = write_record(state, players=("A", "B", "C"), game_id="1")
        if mistakes(parse_record(record).state, seat):
            return record, seat
    raise AssertionError("no shipped puzzle gave a game with a mistake to find")


def test_aus_meinen_fehlern_end_to_end() -> None:
    record, seat = _game_with_a_mistake()
    user = make_user("mia")
    game = TableGame.objects.create(user=user, seed=1, seat=seat, moves=[], iss_record=record)
    client = client_for(user)
    page = client.get(reverse("puzzles:own"))
    assert page.status_code == 200 and "Fehler suchen" in page.content.decode()
    done = client.post(reverse("puzzles:own"), {"spiel": game.pk})
    assert done.status_code == 302 and "auftrag=" in done["Location"]
    html = client.get(done["Location"]).content.decode()
    mine = Puzzle.objects.filter(owner_user=user)
    assert mine.exists() and all(m.source == "own" for m in mine)
    pid = present(mine.first()).pk
    assert pid in html
    assert client.get(reverse("puzzles:puzzle", kwargs={"puzzle_id": pid})).status_code == 200
    # another learner does not see it
    assert client_for(make_user("ole")).get(reverse("puzzles:puzzle", kwargs={"puzzle_id": pid})).status_code == 404


def test_aus_meinen_fehlern_bad_input() -> None:
    user = make_user("tom")
    client = client_for(user)
    assert client.post(reverse("puzzles:own"), {"spiel": "²"}).status_code == 400
    assert client.post(reverse("puzzles:own"), {"spiel": "99999"}).status_code == 404
    assert client.get(reverse("puzzles:own") + "?auftrag=nope").status_code == 404
    visitor = client.__class__().get(reverse("puzzles:own")).content.decode()
    assert re.search(r"Melde dich an", visitor)


def test_make_puzzles_from_iss_records(tmp_path: Path) -> None:
    cases = json.loads((ROOT / ".." / "shared" / "vectors" / "public_iss.json").read_text())["cases"]
    records = [c["input"]["record"] for c in cases if c["kind"] == "iss_record"][:1]
    source = tmp_path / "games.sgf.bz2"  # a public ISS archive comes packed with bzip2
    source.write_bytes(bz2.compress("\n".join(records + ["(;GM[Skat]MV[w XX];)"]).encode()))
    out = tmp_path / "p.jsonl"
    text = StringIO()
    call_command(
        "make_puzzles", "--iss", str(source), "--batch", "3", "--out", str(out), stdout=text, stderr=StringIO()
    )
    assert "unreadable: 1" in text.getvalue()
    assert Job.objects.filter(kind="puzzles.records", status=JobStatus.DONE).count() == 1
    for line in out.read_text().splitlines():
        puzzle = EnginePuzzle.from_dict(json.loads(line))
        assert puzzle.source == "iss"
        assert check_unique(puzzle)

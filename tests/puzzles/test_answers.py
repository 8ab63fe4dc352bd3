"""The puzzle answer service: the streak counts first answers only, the rating row is made once,
and a puzzle's rating moves modestly after one attempt (issue 33 M3 and L2, issue 34 §4).

The races run on PostgreSQL (threads with their own connections; ``make test`` runs the
``postgres`` tests there); the savepoint that settles them is also checked on SQLite.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from threading import Barrier
from typing import Any

import pytest
from django.db import connections
from django.db.models import QuerySet

from skatschule.engine.glicko2 import PUZZLE_DEVIATION, Rating, play
from skatschule.owners import Owner
from skatschule.puzzles import content, selectors, services
from skatschule.puzzles.models import Puzzle, PuzzleAttempt, PuzzleRating

VISITOR = Owner.for_session("v" * 32)


def _rows(n: int) -> list[Puzzle]:
    content.load_shipped()
    return list(Puzzle.objects.order_by("pk")[:n])


def _right(row: Puzzle) -> str:
    return selectors.engine_puzzle(row).answer[0].code


def _wrong(row: Puzzle) -> str:
    puzzle = selectors.engine_puzzle(row)
    return next(c.code for c in puzzle.values if c not in puzzle.answer)


@pytest.mark.django_db
def test_answering_a_solved_puzzle_again_does_not_extend_the_streak() -> None:
    """M3: the solution of a puzzle already solved, posted 15 times in streak mode, counts once."""
    row, other = _rows(2)
    services.answer(owner=VISITOR, puzzle=row, card=_right(row), mode="normal")
    for _ in range(15):
        done = services.answer(owner=VISITOR, puzzle=row, card=_right(row), mode="serie")
        assert not done.rated and done.streak == 0
    assert selectors.streak_of(owner=VISITOR) == (0, 0)
    services.answer(owner=VISITOR, puzzle=other, card=_right(other), mode="serie")
    for _ in range(15):
        services.answer(owner=VISITOR, puzzle=other, card=_right(other), mode="serie")
    assert selectors.streak_of(owner=VISITOR) == (1, 1)
    # nor does a wrong answer to a puzzle answered before end the streak
    done = services.answer(owner=VISITOR, puzzle=row, card=_wrong(row), mode="serie")
    assert done.streak_ended is None and selectors.streak_of(owner=VISITOR) == (1, 1)


@pytest.mark.django_db
def test_a_rating_row_made_by_a_parallel_request_is_taken_not_a_500(monkeypatch: pytest.MonkeyPatch) -> None:
    """L2: the first answer finds no rating row, but another request inserts one before its own insert."""
    (row,) = _rows(1)
    PuzzleRating.objects.create(**VISITOR.fields())  # the other request's row
    real_first = QuerySet.first
    calls = {"n": 0}

    def first_misses_once(self: QuerySet[Any]) -> Any:
        if self.model is PuzzleRating and calls["n"] == 0:
            calls["n"] += 1
            return None  # what this request saw before the other one committed
        return real_first(self)

    monkeypatch.setattr(QuerySet, "first", first_misses_once)
    done = services.answer(owner=VISITOR, puzzle=row, card=_right(row), mode="normal")
    assert calls["n"] == 1 and done.rated
    assert PuzzleRating.objects.owned_by(VISITOR).count() == 1
    assert PuzzleRating.objects.owned_by(VISITOR).get().rating > 1500


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_parallel_first_answers_of_a_new_visitor_all_count() -> None:
    """L2: ten first answers of a new visitor at the same moment: one rating row, ten rated attempts."""
    rows = _rows(10)
    start = Barrier(len(rows))

    def answer(row: Puzzle) -> object:
        try:
            start.wait()
            return services.answer(owner=VISITOR, puzzle=row, card=_right(row), mode="serie")
        except Exception as exc:  # noqa: BLE001 - the failure is the finding
            return exc
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=len(rows)) as pool:
        results = list(pool.map(answer, rows))
    assert [r for r in results if isinstance(r, Exception)] == []
    assert PuzzleRating.objects.owned_by(VISITOR).count() == 1
    assert PuzzleAttempt.objects.owned_by(VISITOR).filter(rated=True).count() == 10
    assert selectors.streak_of(owner=VISITOR) == (10, 10)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_same_answer_posted_in_parallel_counts_once() -> None:
    """M3 with threads: the same right answer posted ten times at once extends the streak by one."""
    (row,) = _rows(1)
    start = Barrier(10)

    def answer(_: int) -> object:
        try:
            start.wait()
            return services.answer(owner=VISITOR, puzzle=row, card=_right(row), mode="serie")
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=10) as pool:
        list(pool.map(answer, range(10)))
    assert PuzzleAttempt.objects.owned_by(VISITOR).filter(rated=True).count() == 1
    assert selectors.streak_of(owner=VISITOR) == (1, 1)
    row.refresh_from_db()
    assert row.plays == 1


@pytest.mark.django_db
@pytest.mark.parametrize("right", [True, False])
def test_one_attempt_moves_a_new_puzzle_modestly(right: bool) -> None:
    """A fresh puzzle's rating (the engine's estimate) moves by a few dozen points, not 1400 -> 1581."""
    (row,) = _rows(1)
    assert row.deviation == PUZZLE_DEVIATION and row.plays == 0
    before = row.rating
    services.answer(owner=VISITOR, puzzle=row, card=_right(row) if right else _wrong(row), mode="normal")
    row.refresh_from_db()
    moved = row.rating - before
    assert 0 < abs(moved) <= 40 and (moved < 0) == right
    # the learner, new and unknown, moves much more than the puzzle
    learner = selectors.rating_of(owner=VISITOR)
    assert abs(learner.rating - 1500) > 3 * abs(moved)


def test_a_puzzle_settles_and_a_learner_does_not_knock_it_about() -> None:
    """Twenty wrong answers in a row from learners of 1500 lift a 1400 puzzle step by step, each step smaller."""
    puzzle = Rating(1400.0, PUZZLE_DEVIATION, 0.06)
    steps = []
    for _ in range(20):
        _, after = play(Rating(1500.0, 80.0, 0.06), puzzle, False)
        steps.append(after.rating - puzzle.rating)
        puzzle = after
    assert all(0 < s <= 50 for s in steps) and steps == sorted(steps, reverse=True)
    assert 1500 < puzzle.rating < 1900


@pytest.mark.django_db
def test_load_content_carries_new_themes_into_the_database_and_keeps_the_rating() -> None:
    """Puzzles re-tagged in the shipped file (``make_puzzles --retag``) are re-tagged in a loaded database."""
    (row,) = _rows(1)
    stale = dict(row.record, themes=["gegenspiel", "schneider-retten", "schneider-spielen"])
    Puzzle.objects.filter(pk=row.pk).update(
        record=stale, themes=" gegenspiel schneider-retten schneider-spielen ", rating=1612.0, plays=3
    )
    assert content.load_shipped()[0] == 0
    row.refresh_from_db()
    shipped = next(p for p in content.read() if p.id == row.pk)
    assert row.record == shipped.as_dict() and row.record["themes"] != stale["themes"]
    assert row.themes == " " + " ".join(row.record["themes"]) + " "
    assert (row.rating, row.plays) == (1612.0, 3)

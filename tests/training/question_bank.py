"""The questions of an exercise type and level over the first 1,000 seeds, with the engine's
right answer of each: built once in a test process and shared by test_exercise_types.py
(every seed checked and graded) and test_guessing.py (nothing can be guessed).

The auction types take tens of milliseconds a question, and both modules used to build all
of them, test_guessing.py twice. The tests of one (type, level) carry the same xdist group
(:func:`group`), so under ``--dist loadgroup`` (``make test``) they run in one worker, one
after the other, and the questions are built once there.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from skatschule.exercises import REGISTRY
from skatschule.exercises.base import Question
from tests.traced import traced_first

SEEDS = range(1000)
KEEP = 3
"""(type, level) kept in memory: the tests of a group run one after the other."""

_built: dict[tuple[str, int], list[tuple[int, Question, list[str]]]] = {}


def questions(slug: str, level: int) -> Iterator[tuple[int, Question, list[str]]]:
    """Seed, question and right answer (``correct_answer``; none for a type graded by a job) over
    :data:`SEEDS`.

    The first caller builds them while it iterates (each question is graded by the caller
    while the type's own cache of recent questions still holds it); the list is kept once
    it is complete. Coverage traces the first seeds only (tests/traced.py)."""
    return traced_first(_questions(slug, level))


def _questions(slug: str, level: int) -> Iterator[tuple[int, Question, list[str]]]:
    done = _built.get((slug, level))
    if done is not None:
        yield from done
        return
    kind = REGISTRY[slug]
    built = []
    for seed in SEEDS:
        q = kind.generate(level, seed)
        # a type graded by a job (the Drücken trainer: seconds a hand) is asked, not answered,
        # here: its answers are checked in tests/graded_by_play/
        entry = (seed, q, [] if kind.graded_by_job else kind.correct_answer(q))
        built.append(entry)
        yield entry
    while len(_built) >= KEEP:
        del _built[next(iter(_built))]
    _built[(slug, level)] = built


def group(slug: str, level: int) -> pytest.MarkDecorator:
    """The xdist group of the tests that read the questions of (slug, level)."""
    return pytest.mark.xdist_group(f"questions-{slug}-{level}")


def params(keys: list[tuple[str, int]]) -> list[object]:
    """``parametrize`` values for (slug, level) pairs, each in its group."""
    return [pytest.param(slug, level, marks=group(slug, level)) for slug, level in keys]

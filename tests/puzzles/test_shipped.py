"""Every shipped puzzle has exactly one solution by the solver (re-proved from its record).

``check_unique`` solves the stored position again with all cards open and no node budget:
the answer (one card, or one set of equivalent cards) is the only one that keeps the result
(or, for an Augen puzzle, the most Augen with every other card at least AUGEN_MARGIN short).
Puzzles shown from the player's view are re-checked over the same sampled deals.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skatschule.engine.puzzles import Puzzle, View, check_unique, examine

SHIPPED = Path(__file__).resolve().parents[2] / "rules_content" / "puzzles" / "puzzles.jsonl"
PUZZLES = [Puzzle.from_dict(json.loads(line)) for line in SHIPPED.read_text(encoding="utf-8").splitlines() if line]


def test_puzzles_are_shipped() -> None:
    assert len(PUZZLES) >= 1000  # the floor (README: "Zahlen der mitgelieferten Aufgaben")
    assert len({p.id for p in PUZZLES}) == len(PUZZLES)


@pytest.mark.parametrize("puzzle", PUZZLES, ids=[p.id for p in PUZZLES])
def test_every_shipped_puzzle_has_exactly_one_solution(puzzle: Puzzle) -> None:
    assert check_unique(puzzle)


@pytest.mark.parametrize("puzzle", [p for p in PUZZLES if p.view is View.PLAYER][:40])
def test_player_view_puzzles_hold_over_their_samples(puzzle: Puzzle) -> None:
    verdict = examine(puzzle.spot, samples=puzzle.samples, sample_seed=puzzle.sample_seed, max_nodes=None)
    assert verdict.puzzle is not None and verdict.puzzle.view is View.PLAYER
    assert verdict.puzzle.answer == puzzle.answer

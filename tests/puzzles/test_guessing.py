"""Nothing can be guessed: no fixed way of picking a card beats chance by more than ten points.

The puzzle page shows the mover's hand sorted as players hold it, one button per card; a card
that may not be played is refused (400), not graded. So a guesser picks among the legal cards,
and chance for a puzzle is |answer| / |legal cards|. Over all shipped puzzles, each fixed
strategy (the k-th legal card from the left or from the right, the dearest, the cheapest, a
trump first, never a trump: ``engine.puzzles.GUESSES``) must not be right more often than the
mean chance + 10 %, as in tests/training/test_guessing.py. (Skat itself favours some picks, e.g.
the lower of two cards of a suit; ``make_puzzles`` therefore adds a new puzzle to the shipped set
only while every guess stays within 7 % of chance, and reports how many it left out.)
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skatschule.engine.puzzles import GUESSES, Puzzle, legal_in_page_order

MARGIN = 0.10
SHIPPED = Path(__file__).resolve().parents[2] / "rules_content" / "puzzles" / "puzzles.jsonl"
PUZZLES = [Puzzle.from_dict(json.loads(line)) for line in SHIPPED.read_text(encoding="utf-8").splitlines() if line]


def test_enough_puzzles_to_judge() -> None:
    assert len(PUZZLES) >= 20


@pytest.mark.parametrize("name", list(GUESSES))
def test_no_fixed_pick_beats_chance(name: str) -> None:
    strategy = GUESSES[name]
    hits = 0
    chance = 0.0
    for puzzle in PUZZLES:
        cards = legal_in_page_order(puzzle)
        pick = strategy(cards, puzzle.spot.game)
        hits += pick in puzzle.answer
        chance += len(puzzle.answer) / len(cards)
    rate = hits / len(PUZZLES)
    mean = chance / len(PUZZLES)
    assert rate <= mean + MARGIN, f"{name}: right in {rate:.0%} of the puzzles (chance {mean:.0%})"

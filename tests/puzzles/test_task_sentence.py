"""The task sentence of a puzzle (engine.puzzles.describe) reads as a sentence in both languages
and both decks: it starts with a capital letter and names the game, in the deck's words."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skatschule.engine.names import game_ref, render
from skatschule.engine.puzzles import Puzzle, describe

SHIPPED = Path(__file__).resolve().parents[2] / "rules_content" / "puzzles" / "puzzles.jsonl"


def _one_per_game() -> list[Puzzle]:
    found: dict[str, Puzzle] = {}
    for line in SHIPPED.read_text(encoding="utf-8").splitlines():
        if line:
            puzzle = Puzzle.from_dict(json.loads(line))
            contract = puzzle.spot.state().contract
            assert contract is not None
            found.setdefault(contract.game.value, puzzle)
    return list(found.values())


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("deck", ["french", "german"])
def test_the_task_starts_with_a_capital_and_names_the_game(lang: str, deck: str) -> None:
    puzzles = _one_per_game()
    assert len(puzzles) >= 4  # suit games, Grand and Null are shipped
    for puzzle in puzzles:
        contract = puzzle.spot.state().contract
        assert contract is not None
        text = render(describe(puzzle, lang), lang, deck)
        assert text[0].isupper(), text
        assert render(game_ref(contract.game), lang, deck) in text

"""Writes of the game review: what the analysis found, stored on the game's row, so that
"Meine Spiele" lists and filters by it without analysing anything (the analysis is a job)."""

from __future__ import annotations

from typing import Any

from .analysis import Analysis
from .models import TableGame


def record_review(*, seed: int, seat: int, moves: list[Any], analysis: Analysis) -> int:
    """Store the learner's accuracy and number of mistakes on every stored game with these
    moves (one per user who played it; a row that has them already is left alone). Returns the
    rows changed."""
    rows = TableGame.objects.filter(seed=seed, seat=seat, moves=moves, mistakes__isnull=True)
    return rows.update(accuracy=analysis.accuracy, mistakes=analysis.mistakes)

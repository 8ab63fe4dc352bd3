"""Writes of the game review: what the analysis found, stored on the game's row, so that
"Meine Spiele" lists and filters by it without analysing anything (the analysis is a job)."""

from __future__ import annotations

import uuid
from typing import Any

from skatschule.engine import SkatError

from .analysis import Analysis
from .models import TableGame


def record_review(*, seed: int, seat: int, moves: list[Any], analysis: Analysis) -> int:
    """Store the learner's accuracy and number of mistakes on every stored game with these
    moves (one per user who played it; a row that has them already is left alone). Returns the
    rows changed."""
    rows = TableGame.objects.filter(seed=seed, seat=seat, moves=moves, mistakes__isnull=True)
    return rows.update(accuracy=analysis.accuracy, mistakes=analysis.mistakes)


def share_game(*, row: TableGame) -> uuid.UUID:
    """Publish the board of ``row`` under a new random key (a key revoked before stays dead).
    Raises :class:`SkatError` for a contest game: it would show the deal to those still to play it."""
    if row.contest:
        raise SkatError(
            "Ein Blatt der Woche lässt sich nicht teilen: Andere spielen dieselben Karten.",
            "A deal of the week cannot be shared: others play the same cards.",
        )
    if row.share is None:
        row.share = uuid.uuid4()
        row.save(update_fields=["share"])
    return row.share


def revoke_share(*, row: TableGame) -> None:
    """The public board of ``row`` is gone: its link answers 404 from now on."""
    if row.share is not None:
        row.share = None
        row.save(update_fields=["share"])


def mark_searched(*, user: Any, ids: list[int]) -> int:
    """The user's games ``ids`` have been searched for his mistakes ("Aus meinen Fehlern").
    Returns the rows changed."""
    return TableGame.objects.filter(user=user, pk__in=ids, mistakes_searched=False).update(mistakes_searched=True)

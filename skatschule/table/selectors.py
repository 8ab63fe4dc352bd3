"""Reads for the table: the stored games of a user."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from .models import TableGame


def games_of(
    *, user: Any, won: bool | None = None, game: str = "", mistakes: bool | None = None
) -> QuerySet[TableGame]:
    """The user's finished games, newest first; only those his side won (or lost), as a
    defender too (``learner_won``), only one game type; only analysed games with mistakes
    (``mistakes``) or without (stored by :func:`.reviews.record_review`)."""
    rows = TableGame.objects.filter(user=user)
    if mistakes is True:
        rows = rows.filter(mistakes__gt=0)
    elif mistakes is False:
        rows = rows.filter(mistakes=0)
    if won is not None:
        rows = rows.filter(learner_won=won)
    if game:
        rows = rows.filter(game=game)
    return rows.order_by("-created")


def game_of(*, user: Any, pk: int) -> TableGame | None:
    return TableGame.objects.filter(user=user, pk=pk).first()


def unsearched_games(*, user: Any) -> QuerySet[TableGame]:
    """The user's finished games (with a record) that "Aus meinen Fehlern" has not gone
    through yet, newest first."""
    return TableGame.objects.filter(user=user, mistakes_searched=False).exclude(iss_record="")

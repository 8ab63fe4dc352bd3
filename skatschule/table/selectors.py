"""Reads for the table: the stored games of a user."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from .models import TableGame


def games_of(user: Any) -> QuerySet[TableGame]:
    return TableGame.objects.filter(user=user).order_by("-created")


def game_of(user: Any, pk: int) -> TableGame | None:
    return TableGame.objects.filter(user=user, pk=pk).first()

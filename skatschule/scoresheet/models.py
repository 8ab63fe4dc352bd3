"""A score sheet of a signed-in user. The sheet itself is a JSON document (players,
settings, entered games, corrections); every number on it is computed from that by
the engine when it is read (``sheet.replay``)."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models


class ScoreSheet(models.Model):
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="score_sheets")
    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    share_id = models.UUIDField(default=uuid.uuid4, unique=True, null=True, blank=True, editable=False)
    """The read-only link's id; None when the owner revoked it, a new one when they renewed it."""
    title = models.CharField(max_length=80, blank=True)
    data = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at", "-pk"]

    def __str__(self) -> str:
        return self.title or str(self.public_id)

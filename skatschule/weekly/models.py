"""Das Blatt der Woche: deal sets everyone plays alike, and each learner's one try at a deal."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class DealSet(models.Model):
    """Six deals everyone plays alike: a week's (``key`` ``2026-W48``, made on first sight) or a
    class tournament's (``key`` ``turnier-<random>``, set by the class's teacher). The deals
    themselves are not stored: :func:`.deals.deal_of` derives them from the key and the secret."""

    key = models.CharField(max_length=40, unique=True)
    classroom = models.ForeignKey(
        "classrooms.Classroom", null=True, blank=True, on_delete=models.CASCADE, related_name="tournaments"
    )
    title = models.CharField(max_length=100, blank=True, default="")
    """A class tournament's name, as its teacher wrote it (empty for a week)."""
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created", "-pk"]

    def __str__(self) -> str:
        return self.title or self.key


class Entry(models.Model):
    """One learner's one try at one deal of a set: made when the deal is first opened, it keeps
    every move (so leaving the table loses nothing) and, at the end, the result. There is one
    per learner and deal: opening the deal again continues it, a finished one stays as it is."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="weekly_entries")
    deal_set = models.ForeignKey(DealSet, on_delete=models.CASCADE, related_name="entries")
    number = models.PositiveSmallIntegerField()
    """The deal's number in its set (1 to :data:`.deals.DEALS_PER_SET`)."""
    seed = models.BigIntegerField()
    seat = models.PositiveSmallIntegerField()
    moves = models.JSONField(default=list)
    finished = models.DateTimeField(null=True, blank=True)
    contract = models.JSONField(null=True, blank=True)
    """The declaration as the table writes it (``["g", game, hand, ouvert, schneider, schwarz]``),
    None when passed in or not finished."""
    declarer = models.PositiveSmallIntegerField(null=True, blank=True)
    declarer_augen = models.PositiveSmallIntegerField(null=True, blank=True)
    won = models.BooleanField(null=True)
    """The declarer's result, None when passed in."""
    score = models.IntegerField(null=True, blank=True)
    """The declarer's list entry."""
    points = models.IntegerField(default=0)
    """The learner's Seeger-Fabian points for this deal (engine.lists.seeger_totals)."""
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["deal_set", "number"]
        constraints = [
            models.UniqueConstraint(fields=["user", "deal_set", "number"], name="weekly_entry_one_try"),
        ]

    @property
    def is_finished(self) -> bool:
        return self.finished is not None

    def __str__(self) -> str:
        return f"{self.user} {self.deal_set} {self.number}"

"""Finished table games of signed-in users (visitors keep theirs in the session)."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class TableGame(models.Model):
    """One finished hand at the table: the moves (to replay it with the engine) and the ISS record."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="table_games")
    seed = models.BigIntegerField()
    seat = models.PositiveSmallIntegerField()
    moves = models.JSONField(default=list)
    iss_record = models.TextField(blank=True)
    won = models.BooleanField(null=True)
    """The declarer's result (the list's), None when passed in: not the learner's when he defended."""
    learner_won = models.BooleanField(null=True)
    """Did the learner's side win (:meth:`skatschule.engine.GameState.side_won`), None when passed
    in: what "Meine Spiele" shows and filters by."""
    score = models.IntegerField(null=True)
    """The declarer's list entry."""
    game = models.CharField(max_length=10, blank=True, default="")
    """The game type played (``clubs`` ... ``null``), empty when passed in: for the filters of "Meine Spiele"."""
    took_back = models.BooleanField(default=False)
    """A card or bid was taken back: the game does not count for the lesson."""
    level = models.CharField(max_length=10, default="club")
    """The computer players' level (``beginner``, ``club``, ``strong``: engine.bots.BotLevel)."""
    accuracy = models.PositiveSmallIntegerField(null=True, blank=True)
    """The learner's accuracy in percent (:attr:`.analysis.Analysis.accuracy`), stored when the
    game's analysis finishes (:func:`.reviews.record_review`); None before, or with nothing valued."""
    mistakes = models.PositiveSmallIntegerField(null=True, blank=True)
    """The learner's mistakes and blunders (:attr:`.analysis.Analysis.mistakes`), None before the analysis."""
    mistakes_searched = models.BooleanField(default=False)
    """"Aus meinen Fehlern" has gone through the game (:func:`.reviews.mark_searched`)."""
    share = models.UUIDField(null=True, blank=True, unique=True)
    """The key of the game's public board (``/ueben/spiel/geteilt/<share>/``) while the learner
    shares it (:func:`.reviews.share_game`); None when not shared or revoked."""
    contest = models.BooleanField(default=False)
    """Played for a contest (a deal of "Das Blatt der Woche", ``services.Table.contest``): never
    shared (:func:`.reviews.share_game`), since others play the same cards."""
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created"]
        constraints = [
            # one row per game: the seed and the seat make the game (services.save_finished)
            models.UniqueConstraint(fields=["user", "seed", "seat"], name="table_game_once_per_user")
        ]

    @property
    def learner_declared(self) -> bool:
        """Was the learner the declarer (his side's result is the declarer's)?"""
        return self.won is not None and self.won == self.learner_won

    def __str__(self) -> str:
        return f"Spiel {self.pk} von {self.user}"

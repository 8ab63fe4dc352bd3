"""Puzzles (loaded from rules_content/puzzles by ``load_content``), the learners' ratings and attempts.

A :class:`Puzzle` row holds the engine's record (:class:`skatschule.engine.puzzles.Puzzle`,
as JSON) and the puzzle's own Glicko-2 rating. Its id is the record's stable key: it never
changes once published. Every answer is a :class:`PuzzleAttempt`; only the first answer of
an owner to a puzzle moves the ratings (``rated``).
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.utils import timezone

from skatschule.engine.glicko2 import PUZZLE_DEVIATION
from skatschule.owners import SESSION_KEY_LENGTH, OwnedQuerySet, owner_check


class Puzzle(models.Model):
    id = models.CharField(primary_key=True, max_length=12)
    record = models.JSONField(help_text="the engine's puzzle record (engine/puzzles.py Puzzle.as_dict)")
    view = models.CharField(max_length=10)
    themes = models.CharField(max_length=300, help_text="theme slugs, blank-separated, with a blank on each side")
    rating = models.FloatField(default=1500.0)
    deviation = models.FloatField(
        default=PUZZLE_DEVIATION, help_text="starts low: the rating is the engine's estimate (engine/glicko2.py)"
    )
    volatility = models.FloatField(default=0.06)
    plays = models.PositiveIntegerField(default=0)
    source = models.CharField(max_length=20, default="bots")
    owner_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="own_puzzles",
        help_text="set for a puzzle made from this user's own table game (Aus meinen Fehlern); others see it not",
    )
    own_game = models.ForeignKey(
        "table.TableGame",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="own_puzzles",
        help_text="the learner's table game this own puzzle came from (Aus meinen Fehlern, listed by game)",
    )
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["rating", "id"]
        indexes = [models.Index(fields=["rating"], name="puzzle_rating_idx")]

    def __str__(self) -> str:
        return f"Aufgabe {self.id}"


class DailyPuzzle(models.Model):
    """The puzzle of one day, the same for everyone (fixed the first time the day is asked for)."""

    day = models.DateField(primary_key=True)
    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="days")


class PuzzleRating(models.Model):
    """An owner's puzzle rating and streak."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="puzzle_rating"
    )
    session_key = models.CharField(max_length=SESSION_KEY_LENGTH, blank=True, default="", db_index=True)
    rating = models.FloatField(default=1500.0)
    deviation = models.FloatField(default=350.0)
    volatility = models.FloatField(default=0.06)
    streak = models.PositiveIntegerField(default=0)
    best_streak = models.PositiveIntegerField(default=0)

    objects = OwnedQuerySet.as_manager()

    class Meta:
        constraints = [
            owner_check("puzzle_rating_has_one_owner"),
            models.UniqueConstraint(fields=["user"], condition=models.Q(user__isnull=False), name="puzzle_rating_user"),
            models.UniqueConstraint(
                fields=["session_key"], condition=models.Q(user__isnull=True), name="puzzle_rating_session"
            ),
        ]


class PuzzleAttempt(models.Model):
    class Mode(models.TextChoices):
        RATED = "normal", "normal"
        DAILY = "taeglich", "taeglich"
        STREAK = "serie", "serie"
        THEME = "thema", "thema"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="puzzle_attempts"
    )
    session_key = models.CharField(max_length=SESSION_KEY_LENGTH, blank=True, default="", db_index=True)
    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="attempts")
    card = models.CharField(max_length=2)
    correct = models.BooleanField()
    mode = models.CharField(max_length=10, choices=Mode.choices, default=Mode.RATED)
    rated = models.BooleanField(default=False)
    rating_before = models.FloatField()
    rating_after = models.FloatField()
    helped = models.BooleanField(
        default=False, help_text="a hint was taken or the solution shown first: rated as not solved"
    )
    created = models.DateTimeField(default=timezone.now, db_index=True)

    objects = OwnedQuerySet.as_manager()

    class Meta:
        ordering = ["created", "pk"]
        constraints = [owner_check("puzzle_attempt_has_one_owner")]
        indexes = [models.Index(fields=["user", "created"], name="puzzle_attempt_user_idx")]


class PuzzleHint(models.Model):
    """A hint an owner took on a puzzle: 1 the theme, 2 also the suit of the solution. A puzzle
    solved after a hint counts for the rating as not solved (like a shown solution)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    session_key = models.CharField(max_length=SESSION_KEY_LENGTH, blank=True, default="", db_index=True)
    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="hints")
    level = models.PositiveSmallIntegerField()
    created = models.DateTimeField(default=timezone.now)

    objects = OwnedQuerySet.as_manager()

    class Meta:
        constraints = [owner_check("puzzle_hint_has_one_owner")]


class RecordCandidate(models.Model):
    """An ISS record a learner imported (names blanked): a source of puzzle candidates.

    The search runs as a job (``puzzles.records``, :func:`skatschule.puzzles.generation.run_records`);
    ``job`` is the job that examines it (null while it waits for one: the importer had too many
    jobs pending). ``manage.py make_puzzles --imported`` folds the puzzles found into the shipped set.
    """

    key = models.CharField(primary_key=True, max_length=64, help_text="sha256 of the record as stored")
    record = models.TextField()
    job = models.ForeignKey("jobs.Job", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["created", "key"]

    def __str__(self) -> str:
        return f"ISS-Datensatz {self.key[:12]}"


class OwnQuestion(models.Model):
    """A real mistake before the first card in one of the learner's table games (Aus meinen
    Fehlern, engine/own_mistakes.py): his bidding or his discard, to answer again with the
    trainer that judged it (``reizen-grade`` or ``druecken-grade``). Only he sees it."""

    class Kind(models.TextChoices):
        BID = "reizen", "Reizen"
        DISCARD = "druecken", "Drücken"

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    owner_user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="own_questions")
    own_game = models.ForeignKey(
        "table.TableGame", null=True, blank=True, on_delete=models.SET_NULL, related_name="own_questions"
    )
    kind = models.CharField(max_length=8, choices=Kind.choices)
    cards = models.CharField(max_length=40, help_text="card codes, blank-separated: ten (Reizen) or twelve (Drücken)")
    position = models.PositiveSmallIntegerField(default=0, help_text="Reizen: the seat (0 Vorhand .. 2 Hinterhand)")
    game = models.CharField(max_length=10, blank=True, default="", help_text="Drücken: the game he declared")
    did = models.CharField(
        max_length=20, help_text='what he did in the game: "highest refused" (Reizen) or the pair put away (Drücken)'
    )
    answer = models.CharField(max_length=40, blank=True, default="", help_text="his newest answer on the page")
    job = models.ForeignKey("jobs.Job", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["owner_user", "kind", "cards", "position", "game"], name="own_question_once_per_hand"
            )
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.cards}"

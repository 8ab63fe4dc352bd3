"""Reads for the puzzles: which puzzle next, the learner's rating, history and themes."""

from __future__ import annotations

import datetime
import hashlib
import random
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError
from django.db.models import Count, F, FloatField, Max, OuterRef, Q, QuerySet, Subquery, Value
from django.db.models.functions import Abs

from skatschule.engine.glicko2 import DEFAULT, Rating
from skatschule.engine.puzzles import Puzzle as EnginePuzzle
from skatschule.engine.puzzles import Theme
from skatschule.owners import Owner

from .models import DailyPuzzle, OwnQuestion, Puzzle, PuzzleAttempt, PuzzleHint, PuzzleRating

NEAREST = 8
"""The next puzzle is drawn from this many unanswered puzzles nearest to the learner's rating."""
STREAK_START = 1000
STREAK_STEP = 60
"""A streak starts with easy puzzles and climbs this many rating points per solved puzzle."""


def visible(*, owner: Owner) -> QuerySet[Puzzle]:
    """The shipped puzzles and the owner's own ones (from the owner's table games)."""
    own = Q(owner_user__isnull=True)
    if owner.user_id is not None:
        own |= Q(owner_user_id=owner.user_id)
    return Puzzle.objects.filter(own)


def puzzle_for(*, owner: Owner, puzzle_id: str) -> Puzzle | None:
    return visible(owner=owner).filter(pk=puzzle_id).first()


def engine_puzzle(row: Puzzle) -> EnginePuzzle:
    return EnginePuzzle.from_dict(row.record)


def rating_of(*, owner: Owner) -> Rating:
    row = PuzzleRating.objects.owned_by(owner).first()
    if row is None:
        return DEFAULT
    return Rating(row.rating, row.deviation, row.volatility)


@dataclass(frozen=True)
class Standing:
    """The owner's rating and streaks, as the overview shows them (one row, one query)."""

    rating: Rating
    streak: int
    best_streak: int


def standing(*, owner: Owner) -> Standing:
    row = PuzzleRating.objects.owned_by(owner).first()
    if row is None:
        return Standing(DEFAULT, 0, 0)
    return Standing(Rating(row.rating, row.deviation, row.volatility), row.streak, row.best_streak)


def streak_of(*, owner: Owner) -> tuple[int, int]:
    """The running streak and the best one."""
    row = PuzzleRating.objects.owned_by(owner).first()
    return (row.streak, row.best_streak) if row is not None else (0, 0)


def _answered(owner: Owner) -> QuerySet[PuzzleAttempt]:
    return PuzzleAttempt.objects.owned_by(owner)


def next_puzzle(
    *, owner: Owner, theme: Theme | None = None, around: float | None = None, own: bool = False
) -> Puzzle | None:
    """An unanswered puzzle near ``around`` (default: the owner's rating), of ``theme`` if given."""
    target = rating_of(owner=owner).rating if around is None else around
    rows = visible(owner=owner).exclude(pk__in=_answered(owner).values("puzzle_id"))
    if theme is not None:
        rows = rows.filter(themes__contains=f" {theme.value} ")
    if own:
        rows = rows.filter(owner_user__isnull=False)
    distance = Abs(F("rating") - Value(float(target), output_field=FloatField()))
    nearest = list(rows.order_by(distance, "pk")[:NEAREST])
    if not nearest:
        return None
    return random.choice(nearest)


def streak_puzzle(*, owner: Owner) -> Puzzle | None:
    streak, _ = streak_of(owner=owner)
    return next_puzzle(owner=owner, around=STREAK_START + STREAK_STEP * streak)


def daily(*, day: datetime.date) -> Puzzle | None:
    """The puzzle of ``day``: fixed the first time it is asked for, the same for everyone."""
    found = DailyPuzzle.objects.filter(day=day).select_related("puzzle").first()
    if found is not None:
        return found.puzzle
    shared = Puzzle.objects.filter(owner_user__isnull=True)
    pool = shared.filter(view="spieler") if shared.filter(view="spieler").exists() else shared
    ids = list(pool.order_by("pk").values_list("pk", flat=True))
    if not ids:
        return None
    digest = int(hashlib.sha256(day.isoformat().encode()).hexdigest(), 16)
    try:
        row, _ = DailyPuzzle.objects.get_or_create(day=day, defaults={"puzzle_id": ids[digest % len(ids)]})
    except IntegrityError:  # pragma: no cover - another request fixed the day at the same moment
        row = DailyPuzzle.objects.get(day=day)
    return row.puzzle


def first_attempt(*, owner: Owner, puzzle: Puzzle) -> PuzzleAttempt | None:
    """The owner's first (rated) answer to ``puzzle``, if any."""
    return _answered(owner).filter(puzzle=puzzle).order_by("created", "pk").first()


def daily_attempt(*, owner: Owner, day: datetime.date) -> PuzzleAttempt | None:
    """The owner's first answer to the puzzle of ``day``, if that puzzle is fixed and answered (fixes nothing).

    One query: the day's puzzle is a subquery (no puzzle row, with its record, is read)."""
    of_day = DailyPuzzle.objects.filter(day=day).values("puzzle_id")[:1]
    return _answered(owner).filter(puzzle_id=Subquery(of_day)).order_by("created", "pk").first()


def history(*, owner: Owner) -> list[PuzzleAttempt]:
    """The owner's rated attempts, oldest first."""
    return list(_answered(owner).filter(rated=True).select_related("puzzle").order_by("created", "pk"))


def recent_history(*, owner: Owner, last: int) -> tuple[list[PuzzleAttempt], int]:
    """The owner's ``last`` rated attempts, oldest first, and how many rated attempts there are:
    two queries of a fixed size, however long the history (the puzzles themselves are not read)."""
    rated = _answered(owner).filter(rated=True)
    newest = list(rated.only("created", "rating_before", "rating_after").order_by("-created", "-pk")[:last])
    return newest[::-1], rated.count()


@dataclass(frozen=True)
class ThemeStats:
    theme: Theme
    puzzles: int
    answered: int
    correct: int

    @property
    def accuracy(self) -> int | None:
        return round(100 * self.correct / self.answered) if self.answered else None


def theme_stats(*, owner: Owner) -> list[ThemeStats]:
    """Per theme: how many puzzles there are, and the owner's first answers and right ones.

    Two GROUP BY queries whatever the number of themes or puzzles: the visible puzzles and the
    owner's rated answers grouped by their theme string (a few combinations of themes, stored
    space-padded), each group's counts then added to every theme it names."""
    puzzles: dict[str, int] = {}
    for themes, n in visible(owner=owner).order_by().values_list("themes").annotate(n=Count("pk")):
        for slug in set(themes.split()):
            puzzles[slug] = puzzles.get(slug, 0) + n
    answered: dict[str, tuple[int, int]] = {}
    rows = (
        _answered(owner)
        .filter(rated=True)
        .order_by()
        .values_list("puzzle__themes")
        .annotate(n=Count("pk"), right=Count("pk", filter=Q(correct=True)))
    )
    for themes, n, right in rows:
        for slug in set(themes.split()):
            before = answered.get(slug, (0, 0))
            answered[slug] = (before[0] + n, before[1] + right)
    return [ThemeStats(theme, puzzles.get(theme.value, 0), *answered.get(theme.value, (0, 0))) for theme in Theme]


# --- help and retries (hints, a shown solution, failed puzzles again later) -----------------------


def hint_level(*, owner: Owner, puzzle: Puzzle) -> int:
    """The hints taken on ``puzzle`` since the owner's last answer to it (0: none)."""
    hints = PuzzleHint.objects.owned_by(owner).filter(puzzle=puzzle)
    last = PuzzleAttempt.objects.owned_by(owner).filter(puzzle=puzzle).aggregate(at=Max("created"))["at"]
    if last is not None:
        hints = hints.filter(created__gt=last)
    return int(hints.aggregate(top=Max("level"))["top"] or 0)


RETRY_DAYS = (1, 3, 7, 14)
"""A puzzle not solved comes back after 1 day, after the second try 3 days, then 7, then every 14."""


@dataclass(frozen=True)
class Retry:
    puzzle_id: str
    tries: int
    due: datetime.datetime


def retries(*, owner: Owner, now: datetime.datetime) -> list[Retry]:
    """The owner's puzzles whose last answer did not solve them alone (wrong, after a hint or a
    shown solution), spaced out by :data:`RETRY_DAYS`; the ones due at ``now`` first, oldest first."""
    mine = PuzzleAttempt.objects.owned_by(owner)
    last = mine.filter(puzzle=OuterRef("puzzle")).order_by("-created", "-pk")
    rows = (
        mine.values("puzzle")
        .annotate(
            tries=Count("pk"),
            at=Max("created"),
            solved=Subquery(last.values("correct")[:1]),
            helped=Subquery(last.values("helped")[:1]),
        )
        .order_by()
    )
    out = [
        Retry(row["puzzle"], row["tries"], row["at"] + datetime.timedelta(days=RETRY_DAYS[min(row["tries"], 4) - 1]))
        for row in rows
        if not row["solved"] or row["helped"]
    ]
    return sorted(out, key=lambda r: (r.due > now, r.due))


OWN_LISTED = 200
"""The newest own puzzles "Aus meinen Fehlern" lists (by theme and by game)."""


@dataclass(frozen=True)
class OwnMistakes:
    """The learner's own puzzles and Reizen/Drücken questions, newest first, grouped by theme
    (the questions under "Reizen" and "Drücken") and by the game they came from."""

    by_theme: list[tuple[Theme, list[Puzzle]]]
    by_game: list[tuple[Any, list[Puzzle], list[OwnQuestion]]]
    """(the table game or None when it is gone, its puzzles, its questions), newest game first."""
    bids: list[OwnQuestion]
    discards: list[OwnQuestion]

    @property
    def any(self) -> bool:
        return bool(self.by_theme or self.bids or self.discards)


def own_mistakes(*, user: Any) -> OwnMistakes:
    rows = list(
        Puzzle.objects.filter(owner_user=user).select_related("own_game").order_by("-created", "id")[:OWN_LISTED]
    )
    questions = list(
        OwnQuestion.objects.filter(owner_user=user).select_related("own_game").order_by("-created", "pk")[:OWN_LISTED]
    )
    themes: dict[Theme, list[Puzzle]] = {}
    games: dict[int | None, tuple[Any, list[Puzzle], list[OwnQuestion]]] = {}
    for row in rows:
        for slug in row.themes.split():
            try:
                themes.setdefault(Theme(slug), []).append(row)
            except ValueError:
                continue  # a theme no longer known: not listed under it
        games.setdefault(row.own_game_id, (row.own_game, [], []))[1].append(row)
    for question in questions:
        games.setdefault(question.own_game_id, (question.own_game, [], []))[2].append(question)
    by_theme = [(theme, themes[theme]) for theme in Theme if theme in themes]
    by_game = sorted(
        games.values(),
        key=lambda group: (group[0] is None, -(group[0].created.timestamp() if group[0] is not None else 0)),
    )
    bids = [q for q in questions if q.kind == OwnQuestion.Kind.BID]
    discards = [q for q in questions if q.kind == OwnQuestion.Kind.DISCARD]
    return OwnMistakes(by_theme, by_game, bids, discards)


def own_question(*, user: Any, public_id: Any) -> OwnQuestion | None:
    """One of the learner's own questions (None for an unknown one or someone else's)."""
    if not getattr(user, "is_authenticated", False):
        return None
    return OwnQuestion.objects.filter(owner_user=user, public_id=public_id).select_related("job", "own_game").first()

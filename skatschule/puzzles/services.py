"""Writes for the puzzles: an answer (one attempt, the ratings, the streak), a hint, a shown solution."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction

from skatschule.engine import SkatError
from skatschule.engine.cards import parse_card
from skatschule.engine.glicko2 import Rating, play
from skatschule.exercises.base import AnswerError
from skatschule.owners import Owner

from .models import Puzzle, PuzzleAttempt, PuzzleHint, PuzzleRating
from .selectors import engine_puzzle, hint_level


@dataclass(frozen=True)
class Answered:
    attempt: PuzzleAttempt
    rated: bool
    streak: int
    """The running streak after this answer (streak mode), 0 when it ended."""
    streak_ended: int | None
    """The length of the streak that this wrong answer ended (streak mode), else None."""


def read_card(row: Puzzle, *, raw: str) -> str:
    """The card code of an answer; AnswerError when it is no card, not the mover's, or not allowed."""
    try:
        card = parse_card(raw)
    except SkatError as exc:
        raise AnswerError(exc.text.de, exc.text.en) from exc
    state = engine_puzzle(row).spot.state()
    seat = state.to_move
    assert seat is not None
    if not state.hands[seat] & card.bit:
        raise AnswerError("Diese Karte hast du nicht auf der Hand", "You do not hold that card")
    if card not in state.legal_cards():
        raise AnswerError(
            "Diese Karte darfst du hier nicht spielen: du musst bedienen (ISkO 3.2.1)",
            "You may not play that card here: you must follow suit (ISkO 3.2.1)",
        )
    return card.code


def _locked_rating(owner: Owner) -> PuzzleRating:
    """The owner's rating row, locked for this transaction; made on the owner's first answer.

    Parallel first answers (a new visitor's two tabs) may both find no row: the one whose insert
    loses to the other's unique constraint rolls back to its savepoint and takes the winner's row.
    """
    row = PuzzleRating.objects.select_for_update().owned_by(owner).first()
    if row is not None:
        return row
    try:
        with transaction.atomic():
            PuzzleRating.objects.create(**owner.fields())
    except IntegrityError:
        pass  # another request made it at the same moment
    return PuzzleRating.objects.select_for_update().owned_by(owner).get()


HINT_LEVELS = 2
"""1: the puzzle's themes; 2: also the suit (or trump) of the solution."""


@transaction.atomic
def answer(*, owner: Owner, puzzle: Puzzle, card: str, mode: str) -> Answered:
    """Grade and record one answer. Only the owner's first answer to a puzzle is rated; after a
    hint it is rated as not solved."""
    code = read_card(puzzle, raw=card)
    _check_mode(mode)
    correct = code in {c.code for c in engine_puzzle(puzzle).answer}
    helped = hint_level(owner=owner, puzzle=puzzle) > 0
    return _record(owner=owner, puzzle=puzzle, given=_Given(code, correct, helped), mode=mode)


@transaction.atomic
def show_solution(*, owner: Owner, puzzle: Puzzle, mode: str) -> Answered:
    """ "Lösung zeigen": the solution without an answer, recorded (and, the first time, rated) as
    not solved."""
    _check_mode(mode)
    return _record(owner=owner, puzzle=puzzle, given=_Given("", correct=False, helped=True), mode=mode)


@transaction.atomic
def take_hint(*, owner: Owner, puzzle: Puzzle, mode: str) -> int:
    """The next hint on ``puzzle`` (at most :data:`HINT_LEVELS`); returns the level now taken.
    A streak has no hints: it counts puzzles solved alone."""
    _check_mode(mode)
    if mode == PuzzleAttempt.Mode.STREAK:
        raise AnswerError("In der Serie gibt es keine Tipps.", "A streak has no hints.")
    _locked_rating(owner)  # the owner's writes take turns: two clicks make two levels, not one twice
    taken = hint_level(owner=owner, puzzle=puzzle)
    level = min(taken + 1, HINT_LEVELS)
    if level > taken:
        PuzzleHint.objects.create(**owner.fields(), puzzle=puzzle, level=level)
    return level


def _check_mode(mode: str) -> None:
    if mode not in PuzzleAttempt.Mode.values:
        raise AnswerError("Unbekannte Übungsart", "Unknown mode")


@dataclass(frozen=True)
class _Given:
    card: str
    """The card played ("" when the solution was shown)."""
    correct: bool
    helped: bool


def _record(*, owner: Owner, puzzle: Puzzle, given: _Given, mode: str) -> Answered:
    card, correct, helped = given.card, given.correct, given.helped
    row = _locked_rating(owner)
    # the rating row is locked: the owner's answers take turns from here, so "first" is true once
    first = not PuzzleAttempt.objects.owned_by(owner).filter(puzzle=puzzle).exists()
    solved = correct and not helped
    before = row.rating
    if first:
        locked = Puzzle.objects.select_for_update().get(pk=puzzle.pk)
        learner, rated_puzzle = play(
            Rating(row.rating, row.deviation, row.volatility),
            Rating(locked.rating, locked.deviation, locked.volatility),
            solved,
        )
        row.rating, row.deviation, row.volatility = learner.rating, learner.deviation, learner.volatility
        locked.rating, locked.deviation, locked.volatility = (
            rated_puzzle.rating,
            rated_puzzle.deviation,
            rated_puzzle.volatility,
        )
        locked.plays += 1
        locked.save(update_fields=["rating", "deviation", "volatility", "plays"])
    ended: int | None = None
    if mode == PuzzleAttempt.Mode.STREAK and first:
        # a puzzle answered before is known: answering it again neither extends nor ends the streak
        if solved:
            row.streak += 1
            row.best_streak = max(row.best_streak, row.streak)
        else:
            ended = row.streak
            row.streak = 0
    row.save()
    attempt = PuzzleAttempt.objects.create(
        **owner.fields(),
        puzzle=puzzle,
        card=card,
        correct=correct,
        mode=mode,
        rated=first,
        helped=helped,
        rating_before=before,
        rating_after=row.rating,
    )
    return Answered(attempt, first, row.streak, ended)


@transaction.atomic
def adopt_session(*, session_key: str, user: Any) -> int:
    """Move an anonymous session's puzzle attempts and rating to ``user`` when they sign in.

    The user's own rating, if there is one, stays (the best streak is the better of both).
    Returns how many attempts were moved.
    """
    if not session_key or user is None or user.pk is None:
        return 0
    moved = PuzzleAttempt.objects.filter(user__isnull=True, session_key=session_key).update(user=user, session_key="")
    PuzzleHint.objects.filter(user__isnull=True, session_key=session_key).update(user=user, session_key="")
    theirs = PuzzleRating.objects.select_for_update().filter(user__isnull=True, session_key=session_key).first()
    if theirs is not None:
        mine = PuzzleRating.objects.select_for_update().filter(user=user).first()
        if mine is None:
            PuzzleRating.objects.filter(pk=theirs.pk).update(user=user, session_key="")
        else:
            mine.best_streak = max(mine.best_streak, theirs.best_streak)
            mine.save(update_fields=["best_streak"])
            theirs.delete()
    return moved

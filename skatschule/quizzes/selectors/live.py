"""Reads for the live rounds: the open round, its stamp (what the phones' streams watch), who
joined and answered, the leaderboard and the shown item's answers."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import User
from django.core.cache import cache
from django.db.models import Count
from django.utils import timezone

from skatschule.core.people import person_name

from ..answers import answer_words
from ..models import LivePoints, LiveSession, Quiz, QuizAnswer, QuizAttempt
from ..questions import question_for


def open_live_session(quiz: Quiz) -> LiveSession | None:
    """The quiz's live round that has not ended, if any."""
    return quiz.live_sessions.filter(ended_at__isnull=True).select_related("quiz").first()


def latest_live_session(quiz: Quiz) -> LiveSession | None:
    """The quiz's open live round, else the last one (a student's page after the end)."""
    return quiz.live_sessions.select_related("quiz").first()


def live_stamp(*, session: LiveSession | None) -> str:
    """What a learner's page shows, in one token: a change means the page must be loaded again."""
    if session is None:
        return "none"
    return f"{session.pk}:{session.position}:{int(session.revealed)}:{int(session.ended_at is not None)}"


LIVE_STAMP_KEY = "quizzes.live.stamp.{}"
LIVE_STAMP_SECONDS = 10


def live_round_stamp(*, quiz_pk: int) -> str:
    """:func:`live_stamp` of the quiz's latest round, as the phones' event streams read it: from
    the cache, so thirty phones reading at once after a step cost no thirty database reads. Each
    step of the teacher (``services.live``) drops the cached stamp at once and sets the new one
    when it is committed; a miss reads the database and only *adds* (a reader that read before
    the commit cannot overwrite the stamp the step set)."""
    key = LIVE_STAMP_KEY.format(quiz_pk)
    found = cache.get(key)
    if isinstance(found, str):
        return found
    stamp = live_stamp(session=LiveSession.objects.filter(quiz_id=quiz_pk).first())
    cache.add(key, stamp, LIVE_STAMP_SECONDS)
    return stamp


def in_open_live_session(attempt: QuizAttempt) -> bool:
    """Is this attempt being answered in a live round that has not ended? (Then only the live
    pages take its answers, one item at a time.)"""
    return attempt.live_sessions.filter(ended_at__isnull=True).exists()


def live_attempt(session: LiveSession, *, student: User) -> QuizAttempt | None:
    return session.attempts.filter(student=student).first()


@dataclass
class LiveCount:
    joined: int
    answered: int


def live_count(session: LiveSession) -> LiveCount:
    """How many learners joined the round (the lobby: answered or not) and how many answered the item shown."""
    answered = QuizAnswer.objects.filter(
        attempt__live_sessions=session, item__quiz=session.quiz, item__position=session.position, answered=True
    ).count()
    return LiveCount(session.participants.count(), answered if session.position else 0)


def open_live_by_code(*, code: str) -> LiveSession | None:
    """The open live round with this join code (six digits; anything else finds none)."""
    code = code.strip()
    if len(code) != 6 or not code.isdigit():
        return None
    return LiveSession.objects.filter(code=code, ended_at__isnull=True).select_related("quiz").first()


def live_joined(session: LiveSession, *, student: User) -> bool:
    return session.participants.filter(student=student).exists()


def live_seconds_left(session: LiveSession, *, now: datetime | None = None) -> int | None:
    """Whole seconds until the shown item's time is up (0 once it is), ``None`` without a timer."""
    if session.deadline is None or not session.position:
        return None
    left = (session.deadline - (now or timezone.now())).total_seconds()
    return max(0, math.ceil(left))


@dataclass(frozen=True)
class LeaderRow:
    rank: int
    name: str
    points: int
    last: int
    """The points of the item shown (0 before it was answered)."""
    student_id: int


def live_leaderboard(session: LiveSession, *, lang: str | None = None) -> list[LeaderRow]:
    """Everyone in the round by speed points, most first (equal points share a rank, then by
    name); names as the LMS sent them (:func:`person_name`)."""
    totals: dict[int, int] = {}
    last: dict[int, int] = {}
    for student_id, item_position, points in LivePoints.objects.filter(session=session).values_list(
        "student_id", "item__position", "points"
    ):
        totals[student_id] = totals.get(student_id, 0) + points
        if item_position == session.position:
            last[student_id] = points
    people = [p.student for p in session.participants.select_related("student")]
    rows = sorted(
        ((totals.get(p.pk, 0), person_name(p, lang), p.pk) for p in people),
        key=lambda row: (-row[0], row[1].casefold()),
    )
    board: list[LeaderRow] = []
    for index, (points, name, pk) in enumerate(rows):
        rank = board[-1].rank if board and board[-1].points == points else index + 1
        board.append(LeaderRow(rank, name, points, last.get(pk, 0), pk))
    return board


def live_distribution(session: LiveSession, *, lang: str) -> list[tuple[str, int, bool]]:
    """The shown item's answers in the round: (answer in words, how many, right?), most frequent first."""
    item = session.quiz.items.filter(position=session.position).first()
    if item is None:
        return []
    rows = (
        QuizAnswer.objects.filter(attempt__live_sessions=session, item=item, answered=True)
        .order_by()
        .values("normalized", "correct")
        .annotate(n=Count("pk"))
        .values_list("normalized", "correct", "n")
    )
    question = question_for(session.quiz, item, None)
    shown = [(answer_words(normalized, lang, question) or "–", n, correct) for normalized, correct, n in rows]
    return sorted(shown, key=lambda row: (-row[1], row[0]))

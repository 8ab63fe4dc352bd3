"""A live class round (issue 28 §2): the teacher shows one item at a time on the projector, the
students answer on their phones, the teacher reveals the answers and the distribution when ready.

A live round is a way of taking the quiz, not a second results store: each student answers in
their ordinary attempt (:func:`.attempts.start_attempt`), graded and stored by
:func:`.attempts.save_answer`, and :func:`end_live` submits those attempts, so the scores are in
the quiz's results with its grading policy, overrides and exports.

Keyword-only entry points (``teacher`` must own the quiz, else ``NotFound``):

- ``start_live(*, quiz, teacher, seconds=None, now=None) -> LiveSession``: the quiz's open round,
  or a new one with a join code and ``seconds`` per question (:data:`SECONDS`). ``QuizError``
  (400) for a quiz with random variants (the projector shows one question for all), a draft, a
  quiz that is not open, or a time outside :data:`MIN_SECONDS`..:data:`MAX_SECONDS`.
- ``join_live(*, session, student, now=None) -> bool``: the learner is in the round (the lobby
  counts them); ``True`` if they joined now.
- ``show_item(*, session, teacher, position, seconds=None, now=None) -> LiveSession``: show item
  ``position`` (answers closed for the one before) for ``seconds`` (else the round's time);
  ``NotFound`` for a position the quiz has not.
- ``reveal(*, session, teacher) -> LiveSession``: reveal the shown item; no answers after that,
  and none to it earns anything afterwards in any attempt (:class:`LiveReveal`).
- ``answer_live(*, session, student, position, values, now=None) -> SavedAnswer``: the student's
  one answer to the shown item, with its speed points (:func:`speed_points`, a :class:`LivePoints`
  row; the quiz's own grade is the attempt's as always). ``QuizClosed`` (409) when the item is
  not the one shown, its time is up (the server's clock), it is revealed, was answered already
  or the round has ended; ``AnswerError`` (400) when unreadable.
- ``end_live(*, session, teacher, now=None) -> int``: end the round and submit its attempts
  (returns how many were submitted now).

While a round runs, the quiz takes no answer outside it (:func:`.attempts.start_attempt` and
:func:`.attempts.save_answer` refuse with ``QuizClosed``): a class member who sees the revealed
answers on the projector cannot copy them into an ordinary attempt.

Every change locks the session row first (``select_for_update``), so an answer and a reveal
(or a move to the next item) never interleave: an answer is either in before the reveal or refused.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from datetime import datetime, timedelta

from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.utils import timezone

from skatschule.core.notfound import NotFound

from ..errors import QuizClosed, QuizError
from ..models import LiveParticipant, LivePoints, LiveReveal, LiveSession, Quiz, QuizAnswer, QuizAttempt
from ..publishing import is_visible
from ..questions import quiz_state
from ..selectors.live import LIVE_STAMP_KEY, LIVE_STAMP_SECONDS, live_stamp
from .attempts import SavedAnswer, save_answer, start_attempt, submit

SECONDS = 20
MIN_SECONDS, MAX_SECONDS = 5, 300
"""The time per question: the default, and the range a teacher may set."""

MAX_POINTS = 1000


def speed_points(*, credit: float, seconds: float, limit: float) -> int:
    """The leaderboard points of an answer with ``credit`` (0 to 1) given ``seconds`` after the
    question was shown, of ``limit`` seconds: 1000 × credit × (1 − t/(2T)), so a right answer
    earns 1000 at once and 500 at the last moment; nothing after the time."""
    if limit <= 0 or seconds > limit:
        return 0
    elapsed = max(0.0, seconds)
    return round(MAX_POINTS * max(0.0, min(1.0, credit)) * (1 - elapsed / (2 * limit)))


def checked_seconds(*, seconds: int | None) -> int | None:
    """``seconds`` if a teacher may set it (``None`` stays ``None``), else ``QuizError``."""
    if seconds is not None and not MIN_SECONDS <= seconds <= MAX_SECONDS:
        raise QuizError(
            f"Die Zeit je Frage muss zwischen {MIN_SECONDS} und {MAX_SECONDS} Sekunden liegen.",
            f"The time per question must be between {MIN_SECONDS} and {MAX_SECONDS} seconds.",
        )
    return seconds


def _new_code() -> str:
    """Six digits no other open round uses."""
    while True:
        code = f"{secrets.randbelow(10**6):06d}"
        if not LiveSession.objects.filter(code=code, ended_at__isnull=True).exists():
            return code


def _restamp(quiz_pk: int) -> None:
    """The round changed: drop the phones' cached stamp now, set the new one once committed
    (:func:`..selectors.live.live_round_stamp`)."""
    key = LIVE_STAMP_KEY.format(quiz_pk)
    cache.delete(key)

    def fresh() -> None:
        cache.set(key, live_stamp(session=LiveSession.objects.filter(quiz_id=quiz_pk).first()), LIVE_STAMP_SECONDS)

    transaction.on_commit(fresh)


def _own(quiz: Quiz, teacher: User) -> None:
    if quiz.owner_id != teacher.pk:
        raise NotFound("no such quiz")


def _locked(session: LiveSession) -> LiveSession:
    """The session row, locked for the rest of the transaction."""
    found = LiveSession.objects.select_for_update(of=("self",)).select_related("quiz").filter(pk=session.pk).first()
    if found is None:
        raise NotFound("no such live session")
    return found


def _ended() -> QuizClosed:
    return QuizClosed("Diese Live-Runde ist beendet.", "This live round has ended.")


def start_live(*, quiz: Quiz, teacher: User, seconds: int | None = None, now: datetime | None = None) -> LiveSession:
    now = now or timezone.now()
    _own(quiz, teacher)
    checked_seconds(seconds=seconds)
    if quiz.variants != Quiz.Variants.FIXED:
        raise QuizError(
            "Live geht nur mit einem Quiz, das für alle gleich ist (die Leinwand zeigt eine Frage für alle).",
            "Live rounds need a quiz that is the same for everyone (the projector shows one question for all).",
        )
    if not is_visible(quiz, now) or quiz_state(quiz, now) != "open":
        raise QuizError(
            "Das Quiz muss veröffentlicht und offen sein, bevor die Live-Runde beginnt.",
            "The quiz must be published and open before the live round starts.",
        )
    open_round = quiz.live_sessions.filter(ended_at__isnull=True).first()
    if open_round is not None:
        return open_round
    try:
        with transaction.atomic():
            return LiveSession.objects.create(quiz=quiz, started_at=now, code=_new_code(), seconds=seconds or SECONDS)
    except IntegrityError:  # a concurrent start (double click) made it
        found = quiz.live_sessions.filter(ended_at__isnull=True).first()
        if found is None:
            raise
        return found


def join_live(*, session: LiveSession, student: User, now: datetime | None = None) -> bool:
    if session.ended_at is not None:
        raise _ended()
    _, created = LiveParticipant.objects.get_or_create(
        session=session, student=student, defaults={"joined_at": now or timezone.now()}
    )
    return created


def show_item(
    *, session: LiveSession, teacher: User, position: int, seconds: int | None = None, now: datetime | None = None
) -> LiveSession:
    _own(session.quiz, teacher)
    checked_seconds(seconds=seconds)
    now = now or timezone.now()
    with transaction.atomic():
        locked = _locked(session)
        if locked.ended_at is not None:
            raise _ended()
        if not locked.quiz.items.filter(position=position).exists():
            raise NotFound("no such item")
        deadline = now + timedelta(seconds=seconds or locked.seconds)
        LiveSession.objects.filter(pk=locked.pk).update(
            position=position, revealed=False, shown_at=now, deadline=deadline
        )
        _restamp(locked.quiz_id)
    session.refresh_from_db()
    return session


def reveal(*, session: LiveSession, teacher: User) -> LiveSession:
    _own(session.quiz, teacher)
    with transaction.atomic():
        locked = _locked(session)
        if locked.ended_at is not None:
            raise _ended()
        if locked.position == 0:
            raise QuizError("Es wird noch keine Frage gezeigt.", "No question is shown yet.")
        LiveSession.objects.filter(pk=locked.pk).update(revealed=True)
        _restamp(locked.quiz_id)
        item = locked.quiz.items.get(position=locked.position)
        LiveReveal.objects.get_or_create(session=locked, item=item, defaults={"revealed_at": timezone.now()})
    session.refresh_from_db()
    return session


def answer_live(
    *, session: LiveSession, student: User, position: int, values: Sequence[str], now: datetime | None = None
) -> SavedAnswer:
    now = now or timezone.now()
    attempt = session.attempts.filter(student=student).first()
    if attempt is None:
        if session.ended_at is not None:
            raise _ended()
        attempt = start_attempt(quiz=session.quiz, student=student, now=now, live=True)  # QuizClosed: none left
        session.attempts.add(attempt)
    join_live(session=session, student=student, now=now)
    with transaction.atomic():
        locked = _locked(session)
        if locked.ended_at is not None:
            raise _ended()
        if position != locked.position or locked.revealed:
            raise QuizClosed(
                "Diese Frage ist nicht mehr offen; deine Antwort wurde nicht gespeichert.",
                "This question is no longer open; your answer was not saved.",
            )
        if locked.deadline is not None and now > locked.deadline:
            raise QuizClosed(
                "Die Zeit für diese Frage ist um; deine Antwort wurde nicht gespeichert.",
                "The time for this question is up; your answer was not saved.",
            )
        item = locked.quiz.items.get(position=position)
        if QuizAnswer.objects.filter(attempt=attempt, item=item).exists():
            raise QuizClosed(
                "Du hast diese Frage schon beantwortet; es zählt die erste Antwort.",
                "You have answered this question already; the first answer counts.",
            )
        saved = save_answer(attempt=attempt, item=item, values=values, now=now, live=True)
        if locked.shown_at is not None and locked.deadline is not None:
            limit = (locked.deadline - locked.shown_at).total_seconds()
            taken = (now - locked.shown_at).total_seconds()
            points = speed_points(credit=saved.answer.credit, seconds=taken, limit=limit)
            LivePoints.objects.create(
                session=locked, student=student, item=item, points=points, seconds=max(0.0, taken)
            )
        return saved


def end_live(*, session: LiveSession, teacher: User, now: datetime | None = None) -> int:
    now = now or timezone.now()
    _own(session.quiz, teacher)
    with transaction.atomic():
        locked = _locked(session)
        if locked.ended_at is None:
            LiveSession.objects.filter(pk=locked.pk).update(ended_at=now, revealed=True)
            _restamp(locked.quiz_id)
    session.refresh_from_db()
    count = 0
    for attempt in QuizAttempt.objects.filter(live_sessions=session, submitted_at__isnull=True).select_related("quiz"):
        count += submit(attempt=attempt, now=now)[1]
    return count

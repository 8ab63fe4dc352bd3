"""Live class rounds (issue 28 §2). Thin: the logic is in ``services.live``.

The teacher's page is for the projector: one item, how many answered, and after the reveal the
right answer and the distribution. The students' page (their phones) shows the item's form until
they answer, then a waiting note, and their own grade only after the reveal. Both pages get
each change pushed (server-sent events, :mod:`skatschule.push`, on the channel :func:`channel`):
the projector the count as answers come in, the phones only that the teacher moved on, upon which
their poll answers ``HX-Refresh`` (``204`` while nothing changed), so a half-typed answer is
never swapped away. Without JavaScript a plain reload link does the same.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from skatschule.core.errors import render_error
from skatschule.core.language import current_lang
from skatschule.exercises.base import AnswerError
from skatschule.push import publish
from skatschule.push.streams import Event, State, stream

from . import questions
from .errors import QuizError
from .models import LiveSession
from .presenters import present_item
from .requests import QuizRequest
from .selectors.live import (
    latest_live_session,
    live_attempt,
    live_count,
    live_distribution,
    live_joined,
    live_leaderboard,
    live_round_stamp,
    live_seconds_left,
    live_stamp,
    open_live_by_code,
    open_live_session,
)
from .selectors.taking import answers_by_item, right_answer, student_quiz
from .selectors.teaching import item_at, item_positions, own_quiz
from .services import live
from .views import _retry_when_locked

_stamp = live_stamp


ANSWERS, ROUND = "answers", "round"
"""What a live round's events are about: a learner's answer (the projector's count listens), or
the teacher's step: the next item, the reveal, the end (the phones listen)."""


def channel(quiz_pk: int, about: str) -> str:
    """The push channel of a quiz's live round for ``about`` (:data:`ANSWERS` or :data:`ROUND`)."""
    return f"quiz.{quiz_pk}.{about}"


def _announce(quiz_pk: int, about: str) -> None:
    """Push that the round changed, once what changed is committed (the streams read it again)."""
    transaction.on_commit(lambda: publish(channel(quiz_pk, about)))


def _shown_item(session: LiveSession | None) -> Any:
    if session is None or not session.position:
        return None
    return session.quiz.items.filter(position=session.position).first()


def _seconds(request: QuizRequest) -> int | None:
    """The time per question the teacher typed (empty: the round's), else ``QuizError``."""
    raw = request.POST.get("seconds", "").strip()[:10]
    if not raw:
        return None
    if not raw.isdigit():
        return live.checked_seconds(seconds=-1)  # raises with the allowed range
    return live.checked_seconds(seconds=int(raw))


# --- the teacher's projector --------------------------------------------------------------------


@login_required
@require_GET
def projector(request: QuizRequest, pk: int) -> HttpResponse:
    quiz = own_quiz(request.user, pk=pk)
    session = open_live_session(quiz)
    lang = current_lang()
    item = _shown_item(session)
    context: dict[str, Any] = {
        "quiz": quiz,
        "session": session,
        "positions": item_positions(quiz),
        "join_url": request.build_absolute_uri(reverse("quizzes:live_join", args=[quiz.pk])),
        "enter_url": request.build_absolute_uri(reverse("quizzes:live_enter")),
        "seconds_range": (live.MIN_SECONDS, live.MAX_SECONDS),
        "default_seconds": live.SECONDS,
        "max_points": live.MAX_POINTS,
    }
    if session is None:
        last = latest_live_session(quiz)
        if last is not None:  # the final standings of the round that ended last
            context["final"] = last
            context["leaderboard"] = live_leaderboard(last, lang=lang)
    if session is not None:
        context["count"] = live_count(session)
        context["seconds_left"] = live_seconds_left(session)
    if session is not None and item is not None:
        context["entry"] = present_item(quiz, item, None, lang)
        later = [p for p in context["positions"] if p > item.position]
        context["next_position"] = later[0] if later else None
        if session.revealed:
            context["right_answer"] = right_answer(quiz, item=item, student_id=None, lang=lang)
            context["distribution"] = live_distribution(session, lang=lang)
            context["leaderboard"] = live_leaderboard(session, lang=lang)
    elif session is not None:
        context["next_position"] = context["positions"][0] if context["positions"] else None
    return render(request, "quizzes/live_projector.html", context)


@login_required
@require_GET
def projector_count(request: QuizRequest, pk: int) -> HttpResponse:
    quiz = own_quiz(request.user, pk=pk)
    session = open_live_session(quiz)
    context = {"quiz": quiz, "session": session, "count": live_count(session) if session else None}
    return render(request, "quizzes/partials/live_count.html", context)


@login_required
@require_GET
def projector_events(request: QuizRequest, pk: int) -> HttpResponseBase:
    """The count as server-sent events (``count``): at once, then after every change."""
    quiz = own_quiz(request.user, pk=pk)
    language = current_lang()  # the stream renders later, outside the request

    def state() -> State:
        session = open_live_session(quiz)
        context = {"quiz": quiz, "session": session, "count": live_count(session) if session else None}
        with translation.override(language):
            html = render_to_string("quizzes/partials/live_count.html", {**context, "inner": True})
        return State([Event("count", html.strip())])

    return stream(request, channel(quiz.pk, ANSWERS), state)


@login_required
@require_POST
@_retry_when_locked
def control(request: QuizRequest, pk: int) -> HttpResponse:
    quiz = own_quiz(request.user, pk=pk)
    action = request.POST.get("action", "")
    back = reverse("quizzes:live", args=[quiz.pk])
    try:
        if action == "start":
            live.start_live(quiz=quiz, teacher=request.user, seconds=_seconds(request))
            return redirect(back)
        session = open_live_session(quiz)
        if session is None:
            raise QuizError("Es läuft keine Live-Runde.", "No live round is running.")
        if action == "show":
            position = request.POST.get("position", "")
            live.show_item(
                session=session,
                teacher=request.user,
                position=item_at(quiz, position=position).position,
                seconds=_seconds(request),
            )
        elif action == "reveal":
            live.reveal(session=session, teacher=request.user)
        elif action == "end":
            live.end_live(session=session, teacher=request.user)  # the page shows the final standings
        else:
            raise QuizError("Unbekannte Aktion.", "Unknown action.")
    except QuizError as exc:
        return render_error(request, exc, links=[(back, _("Zurück zur Live-Runde"))])
    finally:
        _announce(quiz.pk, ROUND)
    return redirect(back)


# --- the students' phones -----------------------------------------------------------------------


@login_required
@require_GET
def join(request: QuizRequest, pk: int) -> HttpResponse:
    quiz = student_quiz(request.user, pk=pk)
    session = latest_live_session(quiz)
    lang = current_lang()
    attempt = live_attempt(session, student=request.user) if session else None
    item = _shown_item(session)
    context: dict[str, Any] = {"quiz": quiz, "session": session, "attempt": attempt, "stamp": _stamp(session=session)}
    if session is not None:
        context["joined"] = live_joined(session, student=request.user)
        context["seconds_left"] = live_seconds_left(session)
        if session.ended_at is not None or session.revealed:
            context["leaderboard"] = live_leaderboard(session, lang=lang)
    if session is not None and session.ended_at is None and item is not None:
        answer = answers_by_item(attempt).get(item.pk) if attempt else None
        feedback = None
        if session.revealed and answer is not None and attempt is not None:
            feedback = questions.grade_for_display(quiz, item, request.user.pk, answer.values, attempt.number)
        entry = present_item(quiz, item, None, lang, feedback=feedback)
        entry["answer"] = answer
        if session.revealed and answer is None:
            entry["right_answer"] = right_answer(quiz, item=item, student_id=None, lang=lang)
        context["entry"] = entry
    return render(request, "quizzes/live_join.html", context)


@login_required
@require_GET
def join_poll(request: QuizRequest, pk: int) -> HttpResponse:
    """204 while the page is current; otherwise ``HX-Refresh`` (htmx reloads the page)."""
    quiz = student_quiz(request.user, pk=pk)
    if request.GET.get("stamp", "") == _stamp(session=latest_live_session(quiz)):
        return HttpResponse(status=204)
    response = HttpResponse(status=200)
    response["HX-Refresh"] = "true"
    return response


@login_required
@require_GET
def join_events(request: QuizRequest, pk: int) -> HttpResponseBase:
    """``changed`` as a server-sent event when the round no longer stands where the page showed
    it (``stamp``): on connecting (a phone that was offline catches up) and after each change.
    Nothing else: no answer, no count reaches a phone this way."""
    quiz = student_quiz(request.user, pk=pk)
    shown = request.GET.get("stamp", "")[:100]

    def state() -> State:
        return State([Event("changed")] if live_round_stamp(quiz_pk=quiz.pk) != shown else [])

    return stream(request, channel(quiz.pk, ROUND), state)


@login_required
@require_POST
@_retry_when_locked
def answer(request: QuizRequest, pk: int) -> HttpResponse:
    quiz = student_quiz(request.user, pk=pk)
    back = reverse("quizzes:live_join", args=[quiz.pk])
    session = open_live_session(quiz)
    try:
        if session is None:
            raise QuizError("Es läuft keine Live-Runde.", "No live round is running.")
        position = item_at(quiz, position=request.POST.get("position", "")).position
        live.answer_live(
            session=session, student=request.user, position=position, values=request.POST.getlist("answer")
        )
        _announce(quiz.pk, ANSWERS)
    except (AnswerError, QuizError) as exc:
        return render_error(request, exc, links=[(back, _("Zurück zur Live-Runde"))])
    return redirect(back)


@login_required
@require_POST
@_retry_when_locked
def join_round(request: QuizRequest, pk: int) -> HttpResponse:
    """The learner is in the round: the lobby on the projector counts them."""
    quiz = student_quiz(request.user, pk=pk)
    back = reverse("quizzes:live_join", args=[quiz.pk])
    session = open_live_session(quiz)
    try:
        if session is None:
            raise QuizError("Es läuft keine Live-Runde.", "No live round is running.")
        if live.join_live(session=session, student=request.user):
            _announce(quiz.pk, ANSWERS)
    except QuizError as exc:
        return render_error(request, exc, links=[(back, _("Zurück zur Live-Runde"))])
    return redirect(back)


@login_required
@require_GET
def enter(request: QuizRequest) -> HttpResponse:
    """The join code typed in (``?code=``): on to the round's page; without a code, the form."""
    code = request.GET.get("code", "")[:20]
    if not code:
        return render(request, "quizzes/live_enter.html", {})
    session = open_live_by_code(code=code)
    if session is None:
        return render(request, "quizzes/live_enter.html", {"code": code.strip(), "error": True}, status=404)
    quiz = student_quiz(request.user, pk=session.quiz.pk)  # NotFound: not in the class
    return redirect("quizzes:live_join", pk=quiz.pk)

"""Puzzle pages under /ueben/aufgaben/. Thin: reads in ``selectors``, the answer in ``services``.

A card is answered with a plain form (one form per card, POST); bad input (no card, not the
mover's, not allowed, unknown mode) is a 400 with the position shown again. The answer and its
explanation appear only in the response to an answer.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from skatschule.core.errors import message_in, render_error
from skatschule.core.language import current_lang
from skatschule.core.security import client_ip
from skatschule.engine.glicko2 import DEFAULT
from skatschule.engine.numbers import plain_number
from skatschule.engine.puzzles import Theme
from skatschule.exercises.base import AnswerError
from skatschule.jobs.selectors import job_for
from skatschule.jobs.services import LimitReached
from skatschule.learners.selectors import choices_for, local_today
from skatschule.owners import Owner, owner_for
from skatschule.table.selectors import games_of
from skatschule.training.presenters import present_feedback, present_question

from . import own as own_puzzles
from . import own_questions, selectors, services
from .charts import rating_svg
from .models import OwnQuestion, Puzzle, PuzzleAttempt
from .presenters import present_hints, present_position, present_solution

MODES = {m.value for m in PuzzleAttempt.Mode}
CHART_POINTS = 30
"""The overview's chart: the learner's last rated answers."""


def _theme(slug: str) -> Theme:
    try:
        return Theme(slug)
    except ValueError:
        raise Http404("unknown theme") from None


def _page(  # noqa: PLR0913 - over the budget since issue 27; to be split
    request: HttpRequest,
    owner: Owner,
    row: Puzzle,
    mode: str,
    *,
    status: int = 200,
    error: str = "",
    extra: dict[str, Any] | None = None,
) -> HttpResponse:
    lang = current_lang()
    puzzle = selectors.engine_puzzle(row)
    rating = selectors.rating_of(owner=owner)
    level = selectors.hint_level(owner=owner, puzzle=row)
    context = {
        "p": present_position(puzzle, lang),
        "hints": present_hints(puzzle, level),
        "more_hints": level < services.HINT_LEVELS and mode != PuzzleAttempt.Mode.STREAK,
        "mode": mode,
        "error": error,
        "rating": round(rating.rating),
        "puzzle_rating": round(row.rating),
        "action": reverse("puzzles:puzzle", kwargs={"puzzle_id": row.pk}),
        **(extra or {}),
    }
    return render(request, "puzzles/puzzle.html", context, status=status)


@require_GET
def index(request: HttpRequest) -> HttpResponse:
    owner = owner_for(request, create=False)
    standing = selectors.standing(owner=owner)
    attempts, answered = selectors.recent_history(owner=owner, last=CHART_POINTS)
    zone = choices_for(request=request).time_zone
    today = local_today(zone=zone)  # the learner's day, as the daily puzzle's
    daily_done = selectors.daily_attempt(owner=owner, day=today)
    return render(
        request,
        "puzzles/index.html",
        {
            "daily_done": daily_done,
            "daily_today": daily_done is not None and local_today(zone=zone, now=daily_done.created) == today,
            "rating": round(standing.rating.rating),
            "deviation": round(standing.rating.deviation),
            "best_streak": standing.best_streak,
            "answered": answered,
            "chart": rating_svg(
                [(a.created, a.rating_after) for a in attempts],
                title=_("Deine Wertung"),
                empty=_("Noch keine gewertete Aufgabe."),
                start=attempts[0].rating_before if attempts else DEFAULT.rating,
            ),
            "count": selectors.visible(owner=owner).count(),
        },
    )


@require_GET
def next_one(request: HttpRequest) -> HttpResponse:
    owner = owner_for(request)
    slug = request.GET.get("thema", "")
    theme = _theme(slug) if slug else None
    row = selectors.next_puzzle(owner=owner, theme=theme)
    if row is None:
        return render(request, "puzzles/none_left.html", {"theme": theme.title.get(current_lang()) if theme else ""})
    url = reverse("puzzles:puzzle", kwargs={"puzzle_id": row.pk})
    return redirect(f"{url}?modus=thema" if theme else url)


def _owner_and_puzzle(request: HttpRequest, puzzle_id: str, *, create: bool = True) -> tuple[Owner, Puzzle]:
    """Who asks and the puzzle they may see (404 for an unknown or someone else's own puzzle)."""
    owner = owner_for(request, create=create)
    row = selectors.puzzle_for(owner=owner, puzzle_id=puzzle_id)
    if row is None:
        raise Http404("no such puzzle")
    return owner, row


@require_http_methods(["GET", "POST"])
def puzzle(request: HttpRequest, puzzle_id: str) -> HttpResponse:
    owner, row = _owner_and_puzzle(request, puzzle_id, create=request.method == "POST")
    source = request.POST if request.method == "POST" else request.GET
    mode = source.get("modus", PuzzleAttempt.Mode.RATED)
    if mode not in MODES:
        return _page(request, owner, row, PuzzleAttempt.Mode.RATED, status=400, error=_("Unbekannte Übungsart."))
    if request.method == "GET":
        return _page(request, owner, row, mode)
    try:
        done = services.answer(owner=owner, puzzle=row, card=request.POST.get("karte", ""), mode=mode)
    except AnswerError as exc:
        return _page(request, owner, row, mode, status=400, error=message_in(exc))
    row.refresh_from_db()
    return _page(request, owner, row, mode, extra={"done": done, **_result(row, done.attempt, mode)})


@require_POST
def hint(request: HttpRequest, puzzle_id: str) -> HttpResponse:
    """The next hint (the themes, then where the solution lies); the page shows it after a reload."""
    owner, row = _owner_and_puzzle(request, puzzle_id)
    mode = request.POST.get("modus", PuzzleAttempt.Mode.RATED)
    try:
        services.take_hint(owner=owner, puzzle=row, mode=mode)
    except AnswerError as exc:
        return _page(
            request, owner, row, mode if mode in MODES else PuzzleAttempt.Mode.RATED, status=400, error=message_in(exc)
        )
    url = reverse("puzzles:puzzle", kwargs={"puzzle_id": row.pk})
    return redirect(f"{url}?modus={mode}#tipps")


@require_POST
def solution(request: HttpRequest, puzzle_id: str) -> HttpResponse:
    """ "Lösung zeigen": the solution and its derivation, counted as not solved."""
    owner, row = _owner_and_puzzle(request, puzzle_id)
    mode = request.POST.get("modus", PuzzleAttempt.Mode.RATED)
    try:
        done = services.show_solution(owner=owner, puzzle=row, mode=mode)
    except AnswerError as exc:
        return _page(request, owner, row, PuzzleAttempt.Mode.RATED, status=400, error=message_in(exc))
    row.refresh_from_db()
    return _page(request, owner, row, mode, extra={"done": done, **_result(row, done.attempt, mode)})


@require_GET
def retry(request: HttpRequest) -> HttpResponse:
    """Puzzles not solved alone come back, spaced out (selectors.RETRY_DAYS); retries are not rated."""
    owner = owner_for(request, create=False)
    now = timezone.now()
    queue = selectors.retries(owner=owner, now=now)
    return render(
        request,
        "puzzles/retry.html",
        {"due": [r for r in queue if r.due <= now], "later": [r for r in queue if r.due > now][:20]},
    )


def _result(row: Puzzle, attempt: PuzzleAttempt, mode: str) -> dict[str, Any]:
    """What the page shows after an answer (now or before): the attempt, the solution, where to go on."""
    next_url = {
        PuzzleAttempt.Mode.STREAK.value: reverse("puzzles:streak"),
        PuzzleAttempt.Mode.DAILY.value: reverse("puzzles:index"),
    }.get(mode, reverse("puzzles:next"))
    return {
        "attempt": attempt,
        "solution": present_solution(selectors.engine_puzzle(row), current_lang()),
        "given": attempt.card,
        "change": round(attempt.rating_after - attempt.rating_before),
        "rating_after": round(attempt.rating_after),
        "next_url": next_url,
    }


@require_GET
def daily(request: HttpRequest) -> HttpResponse:
    owner = owner_for(request, create=False)
    zone = choices_for(request=request).time_zone
    today = local_today(zone=zone)  # the learner's day, as the daily goal's
    row = selectors.daily(day=today)
    if row is None:
        return render(request, "puzzles/none_left.html", {"theme": ""})
    extra: dict[str, Any] = {"daily": True}
    past = selectors.first_attempt(owner=owner, puzzle=row)
    if past is not None:
        # answered before: the result and the solution again, no cards to play
        extra |= _result(row, past, PuzzleAttempt.Mode.DAILY.value)
        extra |= {"past": past, "past_today": local_today(zone=zone, now=past.created) == today}
    return _page(request, owner, row, PuzzleAttempt.Mode.DAILY, extra=extra)


@require_GET
def streak(request: HttpRequest) -> HttpResponse:
    owner = owner_for(request, create=False)
    current, best = selectors.streak_of(owner=owner)
    row = selectors.streak_puzzle(owner=owner)
    if row is None:
        return render(request, "puzzles/none_left.html", {"theme": "", "best_streak": best})
    return _page(request, owner, row, PuzzleAttempt.Mode.STREAK, extra={"streak": current, "best_streak": best})


@require_GET
def themes(request: HttpRequest) -> HttpResponse:
    owner = owner_for(request, create=False)
    return render(request, "puzzles/themes.html", {"themes": selectors.theme_stats(owner=owner)})


@require_GET
def theme(request: HttpRequest, slug: str) -> HttpResponse:
    owner = owner_for(request, create=False)
    chosen = _theme(slug)
    stats = next(s for s in selectors.theme_stats(owner=owner) if s.theme is chosen)
    lang = current_lang()
    return render(
        request,
        "puzzles/theme.html",
        {"stats": stats, "title": chosen.title.get(lang), "about": chosen.about.get(lang)},
    )


@require_GET
def history(request: HttpRequest) -> HttpResponse:
    owner = owner_for(request, create=False)
    attempts = selectors.history(owner=owner)
    rated = [(a.created, a.rating_after) for a in attempts]
    return render(
        request,
        "puzzles/history.html",
        {
            "attempts": list(reversed(attempts[-50:])),
            "chart": rating_svg(rated, title=_("Deine Wertung"), empty=_("Noch keine gewertete Aufgabe.")),
        },
    )


def _search_own(request: HttpRequest) -> HttpResponse:
    """POST of "Aus meinen Fehlern": search one stored game (``spiel=<id>``) or the newest games
    not searched yet (``spiel=alle``) as a job, then show its progress."""
    chosen = request.POST.get("spiel", "")
    game_id = plain_number(chosen)
    if game_id is None and chosen != "alle":
        return render_error(request, _("Bitte ein Spiel wählen."), 400)
    try:
        if game_id is None:
            job = own_puzzles.check_all_games(user=request.user, address=client_ip(request))
            if job is None:
                return redirect(f"{reverse('puzzles:own')}?alle=durchsucht")
        else:
            job = own_puzzles.check_game(user=request.user, game_id=game_id, address=client_ip(request))
    except LimitReached as exc:
        return render_error(request, exc)
    if job is None:
        raise Http404("no such game")
    return redirect(f"{reverse('puzzles:own')}?auftrag={job.pk}")


@require_http_methods(["GET", "POST"])
def own(request: HttpRequest) -> HttpResponse:
    """Aus meinen Fehlern: search a stored table game for the learner's mistakes (a job), then practise them."""
    user = request.user
    if not user.is_authenticated:
        return render(request, "puzzles/own.html", {"visitor": True})
    if request.method == "POST":
        return _search_own(request)
    job = None
    found: list[Puzzle] = []
    questions: list[OwnQuestion] = []
    raw = request.GET.get("auftrag", "")
    if raw:
        try:
            job = job_for(owner=Owner.for_user(user), job_id=uuid.UUID(raw))
        except ValueError:
            job = None
        if job is None:
            raise Http404("no such job")
        found = own_puzzles.take_results(user=user, job=job)
        questions = own_puzzles.take_questions(user=user, job=job)
    return render(
        request,
        "puzzles/own.html",
        {
            "job": job,
            "found": found,
            "questions": questions,
            "games": list(games_of(user=user)[:20]),
            "mine": selectors.own_mistakes(user=user),
            "all_searched": request.GET.get("alle") == "durchsucht",
        },
    )


@require_http_methods(["GET", "POST"])
def own_question(request: HttpRequest, public_id: uuid.UUID) -> HttpResponse:
    """One of the learner's own Reizen or Drücken mistakes, to answer again: the hand and the
    form; POST asks the trainer's job to grade the answer (400 when it cannot be read); once the
    job is done, the trainer's feedback and what he did in his game."""
    row = selectors.own_question(user=request.user, public_id=public_id)
    if row is None:
        raise Http404("no such question")
    page = reverse("puzzles:own_question", kwargs={"public_id": row.public_id})
    error = ""
    if request.method == "POST":
        try:
            own_questions.answer(row=row, values=request.POST.getlist("answer")[:8], address=client_ip(request))
        except AnswerError as exc:
            error = message_in(exc)
        except LimitReached as exc:
            return render_error(request, exc)
        else:
            return redirect(page)
    lang = current_lang()
    job = row.job
    feedback = None if error else own_questions.graded(row)
    return render(
        request,
        "puzzles/own_question.html",
        {
            "row": row,
            "q": present_question(own_questions.question_of(row), lang),
            "seat": own_questions.seat_text(row).get(lang),
            "fb": present_feedback(feedback, lang) if feedback is not None else None,
            "then": own_questions.then_of(row) if feedback is not None else None,
            "job": job if job is not None and job.is_pending and not error else None,
            "failed": job is not None and not job.is_pending and feedback is None and bool(row.answer) and not error,
            "error": error,
            "page": page,
        },
        status=400 if error else 200,
    )

"""The studies' pages under ``/studien/``: thin views over :mod:`.services` and :mod:`.selectors`.

Teachers: the list, a new study (typed in, an ISS record or a stored table game), the editor
(a note at any card, stops), sharing, the results. Learners: the board at ``s/<token>/``, one
step a page (``?schritt=N``, links and forms only: it works without JavaScript), never past a
stop they have not answered; the answer is a form with one button a card.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from skatschule.classrooms.selectors import classrooms_taught, is_teacher
from skatschule.core.errors import UserError, message_in, render_error
from skatschule.core.language import current_lang
from skatschule.core.security import client_ip
from skatschule.engine import GameType
from skatschule.engine.names import game_ref
from skatschule.engine.puzzles import Spot
from skatschule.engine.seats import SEATS
from skatschule.http import AuthenticatedHttpRequest
from skatschule.jobs import services as jobs
from skatschule.owners import owner_for

from . import reading, selectors, services
from .models import Study, StudyStop

NOINDEX = "noindex, nofollow"
GAMES = {g.value for g in GameType}


def _seat(seat: int | None) -> str:
    return "" if seat is None else SEATS[seat].text.get(current_lang())


def _require_teacher(request: HttpRequest) -> HttpResponse | None:
    if not is_teacher(user=request.user):
        return render_error(request, services.NotTeacher(), 403)
    return None


@require_GET
def index(request: HttpRequest) -> HttpResponse:
    user = request.user
    context: dict[str, Any] = {"teacher": is_teacher(user=user)}
    if context["teacher"]:
        context["mine"] = list(selectors.teacher_studies(teacher=user))
    if user.is_authenticated:
        context["shared"] = list(selectors.learner_studies(user=user))
    return render(request, "studies/index.html", context)


def _new_context(request: AuthenticatedHttpRequest, data: Any = None) -> dict[str, Any]:
    lang = current_lang()
    return {
        "data": data or {},
        "games": [(g.value, game_ref(g)) for g in GameType],
        "seats": [(str(s.value), s.text.get(lang)) for s in SEATS],
        "table_games": [
            (row.pk, row.created, game_ref(GameType(row.game)) if row.game in GAMES else row.game)
            for row in selectors.table_games(teacher=request.user)
        ],
    }


@login_required
@require_http_methods(["GET", "POST"])
def create(request: AuthenticatedHttpRequest) -> HttpResponse:
    refused = _require_teacher(request)
    if refused:
        return refused
    if request.method == "GET":
        return render(request, "studies/new.html", _new_context(request))
    data = request.POST
    source = str(data.get("quelle", ""))[:10]
    try:
        title = reading.title_of(data)
        if source == Study.Source.ISS:
            spot = reading.from_iss(data)
        elif source == Study.Source.TABLE:
            spot = selectors.table_game_spot(teacher=request.user, pk=data.get("spiel_nr", ""))
        else:
            source = Study.Source.TYPED
            spot = reading.typed(data)
        study = services.create_study(teacher=request.user, title=title, spot=spot, source=source)
    except UserError as exc:
        context = _new_context(request, {k: str(v)[:5000] for k, v in data.items() if k != "csrfmiddlewaretoken"})
        context["error"] = message_in(exc)
        return render(request, "studies/new.html", context, status=exc.status)
    return redirect("studies:edit", pk=study.pk)


def _moments(study: Study) -> list[dict[str, Any]]:
    """Each moment of the game for the editor: the card about to be played, who plays it, its note."""
    spot = Spot.from_dict(study.record)
    state = Spot(spot.deal, spot.declarer, spot.game, spot.discard, ()).state()
    stops = {s.moment: s for s in study.stops.all()}
    out = []
    for n in range(len(spot.plays) + 1):
        card = spot.plays[n] if n < len(spot.plays) else None
        choice = not state.is_over() and len(state.legal_cards()) >= 2
        out.append(
            {
                "moment": n,
                "trick": n // 3 + 1,
                "seat": _seat(state.to_move),
                "card": card.code if card else "",
                "note": study.notes.get(str(n), ""),
                "stop": stops.get(n),
                "can_stop": choice,
            }
        )
        if card is not None:
            state.play(card)
    return out


def _edit_page(request: AuthenticatedHttpRequest, study: Study, status: int = 200, error: str = "") -> HttpResponse:
    job = study.job
    waiting = study.stops.filter(status=StudyStop.Status.WAITING).exists()
    context = {
        "study": study,
        "moments": _moments(study),
        "classrooms": list(classrooms_taught(request.user)),
        "link": request.build_absolute_uri(reverse("studies:study", args=[study.token])),
        "job": job if job is not None and waiting else None,
        "waiting": waiting,
        "error": error,
        "game": game_ref(GameType(study.record["game"])),
        "declarer": _seat(int(study.record["declarer"])),
    }
    return render(request, "studies/edit.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def edit(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    study = selectors.own_study(teacher=request.user, pk=pk)
    if request.method == "GET":
        return _edit_page(request, study)
    notes: dict[int, str] = {}
    stops: list[int] = []
    last = len(study.record["plays"])
    for n in range(last + 1):
        text = str(request.POST.get(f"notiz{n}", ""))
        if len(text) > services.NOTE_CHARS:
            return _edit_page(
                request,
                study,
                400,
                message_in(
                    services.StudyError(
                        f"Eine Notiz hat höchstens {services.NOTE_CHARS} Zeichen.",
                        f"A note has at most {services.NOTE_CHARS} characters.",
                    )
                ),
            )
        notes[n] = text
        if request.POST.get(f"halt{n}"):
            stops.append(n)
    try:
        services.save_annotations(teacher=request.user, study=study, notes=notes, stops=stops)
        services.grade_waiting(teacher=request.user, study=study, address=client_ip(request))
    except jobs.LimitReached as exc:
        return render_error(request, exc, 429)
    except UserError as exc:
        return _edit_page(request, study, exc.status, message_in(exc))
    messages.success(request, _("Gespeichert."))
    return redirect("studies:edit", pk=study.pk)


@login_required
@require_POST
def regrade(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    study = selectors.own_study(teacher=request.user, pk=pk)
    try:
        services.grade_waiting(teacher=request.user, study=study, address=client_ip(request))
    except jobs.LimitReached as exc:
        return render_error(request, exc, 429)
    return redirect("studies:edit", pk=study.pk)


@login_required
@require_POST
def share(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    study = selectors.own_study(teacher=request.user, pk=pk)
    if request.POST.get("neuer_link"):
        services.new_link(teacher=request.user, study=study)
    else:
        services.share(
            teacher=request.user,
            study=study,
            classroom_pk=str(request.POST.get("klasse", ""))[:12],
            link=bool(request.POST.get("link")),
        )
    messages.success(request, _("Gespeichert."))
    return redirect(reverse("studies:edit", args=[study.pk]) + "#teilen")


@login_required
@require_POST
def delete(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    study = selectors.own_study(teacher=request.user, pk=pk)
    services.delete_study(teacher=request.user, study=study)
    return redirect("studies:index")


@login_required
@require_GET
def results(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    study = selectors.own_study(teacher=request.user, pk=pk)
    rows = selectors.study_results(study=study)
    return render(request, "studies/results.html", {"study": study, "rows": rows})


def _board_context(request: HttpRequest, study: Study, step: object) -> dict[str, Any]:
    sees_all = request.user.is_authenticated and study.teacher_id == request.user.pk
    board = selectors.board(study=study, step=step, owner=owner_for(request, create=False), sees_all=sees_all)
    return {
        "study": study,
        "b": board,
        "sees_all": sees_all,
        "game": game_ref(GameType(board.game)),
        "declarer": _seat(board.declarer),
        "mover": _seat(board.mover),
        "hands": [{"seat": _seat(s), "declarer": s == board.declarer, "cards": cards} for s, cards in board.hands],
        "trick": [{"seat": _seat(s), "card": c} for s, c in board.trick],
        "played": [{"number": n, "seat": _seat(s), "card": c} for n, s, c in board.played],
        "at_stop": board.stop is not None and board.answer is None and not sees_all,
        "values": [{"card": c, "value": v, "right": c in board.right} for c, v in board.values],
        "prev": board.step - 1 if board.step > 0 else None,
        "next": board.step + 1 if board.step < board.limit else None,
    }


def _board_page(request: HttpRequest, context: dict[str, Any], status: int = 200) -> HttpResponse:
    response = render(request, "studies/study.html", context, status=status)
    response["X-Robots-Tag"] = NOINDEX
    return response


@require_GET
def study(request: HttpRequest, token: str) -> HttpResponse:
    found = selectors.study_by_token(token=token, user=request.user)
    return _board_page(request, _board_context(request, found, request.GET.get("schritt", "0")))


@require_POST
def answer(request: HttpRequest, token: str, moment: int) -> HttpResponse:
    found = selectors.study_by_token(token=token, user=request.user)
    try:
        services.answer(
            owner=owner_for(request), study=found, moment=moment, card=str(request.POST.get("karte", ""))[:4]
        )
    except UserError as exc:
        context = _board_context(request, found, moment)
        context["error"] = message_in(exc)
        return _board_page(request, context, exc.status)
    return redirect(reverse("studies:study", args=[found.token]) + f"?schritt={moment}#antwort")

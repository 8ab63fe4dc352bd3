"""Das Blatt der Woche: thin views over :mod:`.services` and :mod:`.selectors`."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from skatschule.cards.context_processors import current_deck
from skatschule.classrooms.selectors import classrooms_taught
from skatschule.core.errors import render_error
from skatschule.core.language import current_lang
from skatschule.core.notfound import NotFound
from skatschule.core.security import client_ip
from skatschule.engine import SkatError
from skatschule.jobs import services as jobs
from skatschule.owners import owner_for
from skatschule.table import services as table_services
from skatschule.table.presenter import Speech

from . import selectors, services, work
from .deals import DEALS_PER_SET
from .models import DealSet


def _speech(request: HttpRequest) -> Speech:
    return Speech(current_lang(), current_deck(request))


def _set_page(request: HttpRequest, deal_set: DealSet, *, current: bool) -> HttpResponse:
    lines = selectors.deal_lines(user=request.user, deal_set=deal_set)
    before = selectors.week_before(deal_set=deal_set)
    user = request.user
    return render(
        request,
        "weekly/index.html",
        {
            "deal_set": deal_set,
            "current": current,
            "lines": lines,
            "playable": selectors.can_play(user=user, deal_set=deal_set),
            "total": sum(line.entry.points for line in lines if line.entry is not None and line.finished),
            "tournaments": selectors.tournaments_for(user=user),
            "classes": list(classrooms_taught(user)) if user.is_authenticated else [],
            "deals": DEALS_PER_SET,
            "before": before,
        },
    )


@require_GET
def index(request: HttpRequest) -> HttpResponse:
    """This week's six deals, the learner's tries, the class tournaments."""
    return _set_page(request, services.week_set(), current=True)


@require_GET
def deal_set(request: HttpRequest, key: str) -> HttpResponse:
    """Another week's deals, or a class tournament's."""
    found = selectors.deal_set(user=request.user, key=key)
    return _set_page(request, found, current=False)


@login_required
@require_POST
def play(request: HttpRequest, key: str, number: int) -> HttpResponse:
    """Open a deal at the table (one try: a started deal goes on where it stood, a finished one
    shows its comparison)."""
    found = selectors.deal_set(user=request.user, key=key)
    if not selectors.can_play(user=request.user, deal_set=found) or not 1 <= number <= DEALS_PER_SET:
        raise NotFound("no such deal to play")
    running = table_services.from_session(session=request.session)
    if running is not None and not request.POST.get("confirm"):
        table, state = running
        if table.running and not state.is_over() and table.contest == 0:  # a practice game of one's own
            return render(request, "weekly/confirm.html", {"deal_set": found, "number": number})
    entry = services.open_deal(user=request.user, deal_set=found, number=number)
    if entry.is_finished:
        return redirect("weekly:compare", key=found.key, number=number)
    table_services.keep(session=request.session, table=services.table_for(entry=entry))
    return redirect("table:play")


@login_required
@require_GET
def entry(request: HttpRequest, entry: int) -> HttpResponse:
    """From the table of a contest game: to the comparison of that deal."""
    found = selectors.entry_of(user=request.user, entry_id=entry)
    return redirect("weekly:compare", key=found.deal_set.key, number=found.number)


def _par(request: HttpRequest, entry: Any) -> tuple[dict[str, Any] | None, Any]:
    """The par of the learner's game (a job; its result once done), None when passed in."""
    if entry.contract is None:
        return None, None
    payload = work.par_payload(seed=entry.seed, seat=entry.seat, moves=entry.moves)
    job = jobs.submit(
        owner=owner_for(request),
        kind=work.PAR,
        key=work.par_key(payload),
        payload=payload,
        address=client_ip(request),
    )
    return (job.data if job.is_done else None), job


@login_required
@require_GET
def compare(request: HttpRequest, key: str, number: int) -> HttpResponse:
    """The learner's result beside everyone's on the deal, and beside the solver's par."""
    found = selectors.deal_set(user=request.user, key=key)
    try:
        seen = selectors.comparison(user=request.user, deal_set=found, number=number)
    except NotFound:
        return redirect("weekly:set", key=found.key) if found.classroom_id else redirect("weekly:index")
    try:
        par, job = _par(request, seen.entry)
    except jobs.LimitReached as exc:
        return render_error(request, exc, 429, links=[(reverse("weekly:index"), gettext("Zum Blatt der Woche"))])
    speech = _speech(request)
    stored = selectors.stored_game(entry=seen.entry)
    rows = [
        {
            "contract": speech.contract(r.contract),
            "learner_declared": r.learner_declared,
            "augen": r.declarer_augen,
            "won": r.won,
            "points": r.points,
            "mine": r.mine,
        }
        for r in seen.results
    ]
    return render(
        request,
        "weekly/compare.html",
        {
            "deal_set": found,
            "number": number,
            "seen": seen,
            "rows": rows,
            "mine": rows[[r.mine for r in seen.results].index(True)],
            "par": par,
            "job": job,
            "here": request.path,
            "stored": stored,
        },
    )


@require_GET
def standings(request: HttpRequest, key: str) -> HttpResponse:
    """A set's ranking by Seeger-Fabian points over its deals."""
    found = selectors.deal_set(user=request.user, key=key)
    return render(
        request,
        "weekly/standings.html",
        {"deal_set": found, "lines": selectors.ranking(deal_set=found), "deals": DEALS_PER_SET},
    )


@login_required
@require_POST
def new_tournament(request: HttpRequest) -> HttpResponse:
    """A teacher sets a class tournament (six deals of its own for one class)."""
    try:
        made = services.create_tournament(
            teacher=request.user,
            classroom_id=request.POST.get("classroom", ""),
            title=str(request.POST.get("title", ""))[: services.TITLE_LENGTH * 2],
        )
    except ValueError:
        exc = SkatError("Bitte gib dem Turnier einen Namen", "Please give the tournament a name")
        return render_error(request, exc, 400, links=[(reverse("weekly:index"), gettext("Zum Blatt der Woche"))])
    return redirect("weekly:set", key=made.key)

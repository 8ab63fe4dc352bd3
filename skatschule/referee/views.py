"""The calculator's page, ``/schiedsrichter/abkuerzung/``: one thin view.

- GET shows the form, filled from the query (a casebook case links here with its position);
  with ``pruefen=1`` it also shows the answer: computed at once for small positions, else the
  stored result of the job (the address a finished job sends the referee to);
- POST checks the entered position: a clear 400 with everything typed kept when it is
  impossible; small positions are answered at once, larger ones by a job (:mod:`.work`)
  whose progress the page shows (htmx polls; without JavaScript a link reloads).
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from skatschule.cards.render import PICKER_CODES
from skatschule.core.errors import message_in, render_error
from skatschule.core.language import current_lang
from skatschule.core.security import client_ip
from skatschule.engine import GameType
from skatschule.engine.claims import Claim, ClaimVerdict, Goal, Side, check_claim, goals_for
from skatschule.engine.names import game_ref
from skatschule.engine.seats import SEATS
from skatschule.engine.text import Text
from skatschule.jobs import services as jobs
from skatschule.jobs.models import Result
from skatschule.owners import owner_for

from . import reading, work


def _context(values: reading.Values) -> dict[str, Any]:
    lang = current_lang()
    return {
        "values": values,
        "games": [(g.value, game_ref(g)) for g in GameType],
        "seats": [(str(seat.value), seat.text.get(lang)) for seat in SEATS],
        "all_cards": PICKER_CODES,
        "goals": [(goal.value, _goal_text(goal, lang)) for goal in goals_for(GameType.GRAND)],
        "hand_fields": [(name, SEATS[i].text.get(lang), values.hands[name]) for i, name in enumerate(reading.HANDS)],
    }


def _goal_text(goal: Goal, lang: str) -> str:
    return {
        Goal.REST: Text("alle restlichen Stiche", "every remaining trick"),
        Goal.WIN: Text(
            "das Spiel (Alleinspieler 61, Gegenpartei 60 Augen; im Null: Null gewonnen bzw. verloren)",
            "the game (declarer 61, defenders 60 card points; in Null: the Null won or lost)",
        ),
        Goal.SCHNEIDER: Text("Schneider (90 Augen)", "Schneider (90 card points)"),
        Goal.OUT_OF_SCHNEIDER: Text("aus dem Schneider (31 Augen)", "out of Schneider (31 card points)"),
        Goal.SCHWARZ: Text("Schwarz (jeder Stich des Spiels)", "Schwarz (every trick of the game)"),
        Goal.TRICK: Text("noch einen Stich", "one more trick"),
    }[goal].get(lang)


def _present(verdict: ClaimVerdict) -> dict[str, Any]:
    lang = current_lang()
    position = verdict.position
    tricks = []
    for number, trick in enumerate(verdict.tricks(), start=1):
        plays = [
            {
                "seat": SEATS[(trick.leader + k) % 3].text.get(lang),
                "declarer": (trick.leader + k) % 3 == position.declarer,
                "code": card.code,
                "shown": k < trick.shown,
            }
            for k, card in enumerate(trick.cards)
        ]
        winner = None if trick.winner is None else SEATS[trick.winner].text.get(lang)
        tricks.append({"number": number, "plays": plays, "winner": winner})
    return {
        "holds": verdict.holds,
        "summary": verdict.summary().get(lang),
        "claim": verdict.claim.text(position.game).get(lang),
        "side": verdict.claim.side.value,
        "tricks": tricks,
        "best_augen": verdict.best_augen,
        "defender_rest": verdict.claim.side is Side.DEFENDERS and verdict.claim.goal is Goal.REST,
    }


def _page(request: HttpRequest, context: dict[str, Any], status: int = 200) -> HttpResponse:
    return render(request, "referee/claim.html", context, status=status)


@require_http_methods(["GET", "POST"])
def claim(request: HttpRequest) -> HttpResponse:
    data = request.POST if request.method == "POST" else request.GET
    values = reading.values_of(data)
    context = _context(values)
    if request.method == "GET" and "pruefen" not in request.GET:
        return _page(request, context)
    if "iss" in request.POST:  # open an ISS record at a chosen card: fill the form, check nothing yet
        return _from_iss(request, context)
    try:
        position, claimed = reading.read(values)
    except reading.ClaimInputError as exc:
        context["error"] = message_in(exc)
        return _page(request, context, 400)
    if work.at_once(position):
        context["verdict"] = _present(check_claim(position, claimed))
        return _page(request, context)
    result_url = f"{reverse('referee:claim')}?{reading.query_of(position, claimed)}&pruefen=1"
    key = work.key_of(position, claimed)
    if request.method == "GET":  # where a finished job sends the referee: the stored result only
        stored = Result.objects.filter(kind=work.CLAIM_JOB, key=key).first()
        if stored is None:
            context["not_yet"] = True
            return _page(request, context)
        return _with_result(request, context, stored.data)
    try:
        job = jobs.submit(
            owner=owner_for(request),
            kind=work.CLAIM_JOB,
            key=key,
            payload=work.payload_of(position, claimed),
            address=client_ip(request),
        )
    except jobs.LimitReached as exc:
        return render_error(request, exc, 429)
    if job.is_done and job.result is not None:
        return _with_result(request, context, job.result.data)
    context.update(job=job, next=result_url)
    return _page(request, context)


def _from_iss(request: HttpRequest, context: dict[str, Any]) -> HttpResponse:
    context["iss"] = {
        "text": str(request.POST.get("iss", ""))[: reading.ISS_LIMIT],
        "karten": request.POST.get("karten", ""),
    }
    try:
        position = reading.from_iss(request.POST)
    except reading.ClaimInputError as exc:
        context["iss_error"] = message_in(exc)
        return _page(request, context, 400)
    filled = QueryDict(reading.query_of(position, Claim(Side.DECLARER, Goal.REST)))
    context.update(_context(reading.values_of(filled)), iss_opened=True)
    return _page(request, context)


def _with_result(request: HttpRequest, context: dict[str, Any], data: dict[str, Any]) -> HttpResponse:
    verdict = work.verdict_from(data)
    if verdict is None:
        context["too_big"] = True
    else:
        context["verdict"] = _present(verdict)
    return _page(request, context)

"""From a finished game's board: sharing a stored game's board (the owner publishes it, opt-in,
or revokes it; anyone with the link sees the deal and the analysis, without user names, and no
search engine indexes it), and playing it again ("Dasselbe Blatt noch einmal", "Ab hier
weiterspielen")."""

from __future__ import annotations

import json
import uuid

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from skatschule.core.errors import render_error
from skatschule.engine import SkatError

from . import presenter, reviews, selectors, services, views, work
from .forms import AgainForm
from .models import TableGame


@login_required
@require_POST
def share(request: HttpRequest, pk: int) -> HttpResponse:
    """Publish the board of one's own stored game (``teilen=aus``: revoke it); 404 for anyone else's."""
    row = selectors.game_of(user=request.user, pk=pk)
    if row is None:
        raise Http404
    if request.POST.get("teilen") == "aus":
        reviews.revoke_share(row=row)
    else:
        try:
            reviews.share_game(row=row)
        except SkatError as exc:
            links = [(reverse("table:stored_board", args=[row.pk]), gettext("Analysebrett"))]
            return render_error(request, exc, 400, links=links)
    return redirect(reverse("table:stored_board", args=[row.pk]) + "#teilen")


@require_GET
def shared(request: HttpRequest, token: uuid.UUID) -> HttpResponse:
    """A shared board, for anyone with the link; 404 once revoked. Marked noindex."""
    row = TableGame.objects.filter(share=token).first()
    if row is None:
        raise Http404
    table = services.Table(int(row.seed), int(row.seat), list(row.moves), None, row.took_back)
    table.level = services.level_of(value=row.level)
    state = services.replay(table=table)
    if not state.is_over() or state.contract is None:
        raise Http404
    game = presenter.BoardGame(state, services.plays_of(state=state), table.seat)
    payload = work.table_payload(table)
    extra = {"stored": None, "back_query": "", "shared": True}
    response = views._board(request, game, json.dumps(payload), payload, link="?", back="table:play", extra=extra)
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


def _again(request: HttpRequest, table: services.Table, *, back: str) -> HttpResponse:
    """Start the new game (:func:`services.play_again`) in the visitor's session; a running
    game there is only given up after asking."""
    form = AgainForm(request.POST)
    if not form.is_valid():
        return render(request, "table/again.html", {"error": True, "back": back}, status=400)
    step = form.cleaned_data["schritt"]
    try:
        again = services.play_again(table=table, step=step)
    except SkatError as exc:
        return render(request, "table/again.html", {"message": views._error_text(exc), "back": back}, status=400)
    running = services.from_session(session=request.session)
    if running is not None and running[0].running and not running[1].is_over() and not form.cleaned_data["confirm"]:
        return render(request, "table/again.html", {"step": step, "back": back, "action": request.path})
    services.keep(session=request.session, table=again)
    return redirect("table:play")


@require_POST
def play_again(request: HttpRequest) -> HttpResponse:
    """The game at the table, once over, again from the deal or from one of its cards."""
    loaded = services.from_session(session=request.session)
    if loaded is None:
        raise Http404
    return _again(request, loaded[0], back=reverse("table:board"))


@login_required
@require_POST
def stored_play_again(request: HttpRequest, pk: int) -> HttpResponse:
    """One's own stored game again from the deal or from one of its cards; 404 for anyone else's."""
    _row, table, _state = views._stored_table(request, pk)
    return _again(request, table, back=reverse("table:stored_board", args=[pk]))

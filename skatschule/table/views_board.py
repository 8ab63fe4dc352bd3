"""Sharing a stored game's board: the owner publishes it (opt-in) or revokes it; anyone with
the link sees the deal and the analysis, without user names, and no search engine indexes it."""

from __future__ import annotations

import json
import uuid

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from . import presenter, reviews, selectors, services, views, work
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
        reviews.share_game(row=row)
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

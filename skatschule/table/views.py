"""The table at /ueben/spiel/: thin views over services (writes) and selectors (reads)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import get_language
from django.views.decorators.http import require_GET, require_http_methods

from skatschule.cards.context_processors import current_deck
from skatschule.engine import (
    CARDS,
    SEAT_NAMES_DE,
    SEAT_NAMES_EN,
    CardSet,
    GameState,
    GameType,
    Phase,
    SkatError,
    parse_cards,
    sort_hand,
)
from skatschule.engine.bidding import BID_VALUES
from skatschule.engine.iss import IssGame, parse_records, split_records
from skatschule.engine.names import render as render_names
from skatschule.engine.ouvert import check_ouvert
from skatschule.home.errors import message_in
from skatschule.home.limits import TooLarge, bounded
from skatschule.http import HtmxHttpRequest

from . import moments, selectors, services
from .models import TableGame

_KEY = "table_game"
_ISS_KEY = "table_iss"
_GAMES = ("clubs", "spades", "hearts", "diamonds", "grand", "null")


def _lang() -> str:
    return "en" if (get_language() or "de").startswith("en") else "de"


def _error_text(exc: SkatError) -> str:
    return exc.message_en if _lang() == "en" else exc.message_de


def _seat_name(seat: int) -> str:
    return (SEAT_NAMES_EN if _lang() == "en" else SEAT_NAMES_DE)[seat]


def _trick_rows(state: GameState) -> list[dict[str, Any]]:
    rows = []
    for n, trick in enumerate(state.tricks, 1):
        rows.append(
            {
                "number": n,
                "cards": [{"seat": _seat_name(trick.seat_of(i)), "code": c.code} for i, c in enumerate(trick.cards)],
                "winner": _seat_name(trick.winner),
                "points": trick.points,
            }
        )
    return rows


def _outcome_lines(state: GameState, deck: str) -> list[str]:
    outcome = state.outcome()
    if outcome is None:
        return []
    return [render_names(line, _lang(), deck) for line in outcome.explain(_lang())]


def _context(request: HttpRequest, table: services.Table) -> dict[str, Any]:
    state = services.replay(table)
    seat = table.seat
    game = state.contract.game if state.contract else None
    my_turn = not state.is_over() and state.to_move == seat
    legal = {c.code for c in state.legal_cards()} if my_turn and state.phase is Phase.PLAY else set()
    auction = state.auction
    steps = []
    for m in auction.moves:
        said = getattr(m, "value", None)
        text = str(said) if said is not None else ("ja" if type(m).__name__ == "Hold" else "passe")
        steps.append({"seat": _seat_name(m.seat), "said": text, "mine": m.seat == seat})
    options: list[int] = []
    if my_turn and state.phase is Phase.AUCTION and not auction.pending:
        options = [v for v in BID_VALUES if v > auction.value][:8]
    over = state.is_over()
    deck = current_deck(request)
    context: dict[str, Any] = {
        "table": table,
        "state": state,
        "seat_name": _seat_name(seat),
        "phase": state.phase.value,
        "my_turn": my_turn,
        "hand": [{"code": c.code, "legal": c.code in legal} for c in sort_hand(state.hand(seat), game)],
        "steps": steps,
        "auction_pending": auction.pending,
        "auction_value": auction.value,
        "options": options,
        "declarer": None if state.declarer is None else _seat_name(state.declarer),
        "i_declare": state.declarer == seat,
        "contract": state.contract.name(_lang()) if state.contract else "",
        "trick": [{"seat": _seat_name((state.leader + i) % 3), "code": c.code} for i, c in enumerate(state.trick)],
        "tricks": _trick_rows(state),
        "to_move": None if state.to_move is None else _seat_name(state.to_move),
        "games": _GAMES,
        "over": over,
        "passed_in": state.passed_in,
        "result": _outcome_lines(state, deck) if over else [],
        "outcome": state.outcome() if over else None,
        "others": [
            {"seat": _seat_name(s), "cards": [c.code for c in sort_hand(state.deal.hand(s), game)]}
            for s in range(3)
            if s != seat
        ]
        if over
        else [],
        "skat": [c.code for c in state.deal.skat] if over or (state.picked_up and state.declarer == seat) else [],
        "pickup_hand": [c.code for c in sort_hand(state.hand(seat), game)] if state.phase is Phase.DISCARD else [],
    }
    return context


def _load(request: HttpRequest) -> services.Table:
    table = services.Table.from_session(request.session.get(_KEY))
    if table is None:
        table = services.new_table()
        request.session[_KEY] = table.as_session()
    return table


@require_http_methods(["GET", "POST"])
def table_view(request: HtmxHttpRequest) -> HttpResponse:
    """GET shows the table; POST makes one move (or deals again, or asks for a hint)."""
    table = _load(request)
    error = ""
    hint_text = ""
    status = 200
    if request.method == "POST":
        action = str(request.POST.get("action", ""))[:12]
        if action == "new":
            table = services.new_table()
        elif action == "hint":
            try:
                choice = services.hint(table=table)
                hint_text = render_names(choice.reason(_lang()), _lang(), current_deck(request))
            except SkatError as exc:
                error, status = _error_text(exc), 400
        else:
            flags = {f for f in ("ouvert", "schneider", "schwarz") if request.POST.get(f)}
            value = str(request.POST.get("value", ""))[:10]
            if action.startswith("bid:"):
                action, value = "bid", action[4:]
            try:
                services.play(
                    table=table,
                    action=action,
                    value=value,
                    cards=[str(c)[:3] for c in request.POST.getlist("cards")][:3],
                    flags=flags,
                )
            except SkatError as exc:
                error, status = _error_text(exc), 400
        if services.replay(table).is_over():
            services.save_finished(table=table, user=request.user)
        request.session[_KEY] = table.as_session()
        if status == 200 and not hint_text and not request.htmx:
            return redirect("table:play")
    context = _context(request, table)
    context.update(error=error, hint=hint_text)
    template = "table/partials/board.html" if request.htmx else "table/table.html"
    return render(request, template, context, status=status)


@require_GET
def analysis(request: HttpRequest) -> HttpResponse:
    """ "Hätte ich gewinnen können?" for the game at the table, once it is over."""
    table = services.Table.from_session(request.session.get(_KEY))
    return _analysis_page(request, table)


def _analysis_page(request: HttpRequest, table: services.Table | None, stored: TableGame | None = None) -> HttpResponse:
    """The analysis of ``table`` (cached by :func:`.services.analyse`); 409 when it is not over or
    was passed in."""
    found = None if table is None else services.analyse(table=table)
    if table is None or found is None:
        passed_in = table is not None and services.replay(table).passed_in
        return render(
            request, "table/analysis.html", {"not_over": True, "passed_in": passed_in, "stored": stored}, status=409
        )
    state = services.replay(table)
    assert state.contract is not None and state.declarer is not None
    return render(
        request,
        "table/analysis.html",
        {
            "analysis": found,
            "not_over": False,
            "contract": state.contract.name(_lang()),
            "declarer": _seat_name(state.declarer),
            "stored": stored,
        },
    )


@require_GET
def export(request: HttpRequest) -> HttpResponse:
    """The finished game as an ISS record (plain text, one line)."""
    table = services.Table.from_session(request.session.get(_KEY))
    if table is None or not services.replay(table).is_over():
        return HttpResponse("Das Spiel ist noch nicht beendet.\n", status=409, content_type="text/plain; charset=utf-8")
    response = HttpResponse(services.iss_line(table) + "\n", content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="skatschule-{table.seed}.sgf"'
    return response


def _stored_table(request: HttpRequest, pk: int) -> tuple[TableGame, services.Table]:
    """The signed-in user's own stored game; 404 for anyone else's (or none)."""
    row = selectors.game_of(request.user, pk)
    if row is None:
        raise Http404
    return row, services.Table(int(row.seed), int(row.seat), list(row.moves), row.pk)


@login_required
@require_GET
def stored(request: HttpRequest, pk: int) -> HttpResponse:
    """A stored game of the signed-in user, reachable afterwards."""
    row, table = _stored_table(request, pk)
    context = _context(request, table)
    context["stored"] = row
    return render(request, "table/table.html", context)


@login_required
@require_GET
def stored_analysis(request: HttpRequest, pk: int) -> HttpResponse:
    """ "Hätte ich gewinnen können?" for a stored game of the signed-in user (only the owner's)."""
    row, table = _stored_table(request, pk)
    return _analysis_page(request, table, stored=row)


@login_required
@require_GET
def stored_export(request: HttpRequest, pk: int) -> HttpResponse:
    """A stored game of the signed-in user as an ISS record (plain text, one line)."""
    row, table = _stored_table(request, pk)
    response = HttpResponse(services.iss_line(table) + "\n", content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="skatschule-{table.seed}.sgf"'
    return response


@require_http_methods(["GET", "POST"])
def iss_import(request: HttpRequest) -> HttpResponse:
    """Paste ISS records; step through them. A POST with ``exercise`` answers an exercise at
    the moment shown (:mod:`.moments`), graded by the engine from the record in the session."""
    error = ""
    status = 200
    if request.method == "POST" and "exercise" not in request.POST:
        try:  # the size first (home.limits): the games read in before stay when this is refused
            text = bounded(request.POST.get("records"))
            games = parse_records(text)
            request.session[_ISS_KEY] = split_records(text)[:20]
            del games
            return redirect("table:iss")
        except TooLarge as exc:
            error, status = message_in(exc), exc.status
        except SkatError as exc:
            error, status = _error_text(exc), 400
    records = request.session.get(_ISS_KEY) or []
    asking = request.method == "POST" and "exercise" in request.POST
    if asking and not records:
        error, status = _error_text(SkatError("Es ist kein Spiel eingelesen", "No game has been read in")), 409
    viewer: dict[str, Any] = {}
    exercise: dict[str, Any] = {}
    if records and status in (200, TooLarge.status):
        source = request.POST if asking else request.GET
        index = min(max(_number(source.get("spiel")), 0), len(records) - 1)
        step = _number(source.get("schritt"))
        try:
            game = parse_records(records[index])[0]
        except SkatError:
            request.session[_ISS_KEY] = []
            return render(request, "table/iss.html", {"error": "", "viewer": {}})
        if asking:
            try:
                exercise = _grade_moment(request, game, step)
            except SkatError as exc:
                error, status = _error_text(exc), 400
        viewer = _viewer(game, step, request, show_result=_shows_result(request, exercise))
        # once the Augen (or the result) are on the page, the last trick's taker follows from
        # them: the end asks no more for it, nor again for the Augen
        viewer["revealed"] = viewer["show_result"] or exercise.get("kind") == "augen"
        viewer["index"] = index
        viewer["count"] = len(records)
    return render(request, "table/iss.html", {"error": error, "viewer": viewer, "exercise": exercise}, status=status)


def _number(value: object) -> int:
    """A game or step number from the query or the form (0 when it is none)."""
    try:
        return int(str(value)[:4])
    except ValueError:
        return 0


def _shows_result(request: HttpRequest, exercise: dict[str, Any]) -> bool:
    """The result (with the list entry and the Augen) only when asked for, or once the list entry
    was answered: never on a page that asks for it."""
    return request.GET.get("ergebnis") == "1" or exercise.get("kind") == "liste"


def _grade_moment(request: HttpRequest, game: IssGame, step: int) -> dict[str, Any]:
    """One exercise at a moment of the record (:func:`.moments.grade`): the engine's verdict
    and its steps, for the template."""
    kind = str(request.POST.get("exercise", ""))[:10]
    answer = [str(a)[:12] for a in request.POST.getlist("cards" if kind == "legal" else "antwort")][:10]
    graded = moments.grade(game, step, kind, answer)
    lang = _lang()

    def shown(values: tuple[str, ...]) -> list[str]:
        return [_seat_name(int(v)) for v in values] if kind == "stich" else list(values)

    return {
        "asked": True,
        "kind": graded.kind,
        "correct": graded.correct,
        "right": shown(graded.right),
        "given": shown(graded.given),
        "steps": [s.text(lang) for s in graded.steps],
    }


def _viewer(game: IssGame, step: int, request: HttpRequest, *, show_result: bool = False) -> dict[str, Any]:
    state = game.state
    plays = game.plays
    step = min(max(step, 0), len(plays))
    probe = game.position(step)
    game_type = state.contract.game if state.contract else None
    kinds = moments.kinds_at(game, step)
    done = moments.trick_done(game, step)
    tricks = _trick_rows(probe)
    if done:
        # the trick just completed still lies on the table; who takes it is the exercise
        last = probe.tricks[-1]
        on_table = [{"seat": _seat_name(last.seat_of(i)), "code": c.code} for i, c in enumerate(last.cards)]
        tricks = tricks[:-1]
    else:
        on_table = [{"seat": _seat_name((probe.leader + i) % 3), "code": c.code} for i, c in enumerate(probe.trick)]
    answer = game.answer()
    deck = current_deck(request)
    return {
        "step": step,
        "total": len(plays),
        "players": game.players,
        "contract": state.contract.name(_lang()) if state.contract else "",
        "declarer": None if state.declarer is None else _seat_name(state.declarer),
        "bid": state.bid,
        "hands": [
            {"seat": _seat_name(s), "cards": [c.code for c in sort_hand(probe.hand(s), game_type)]} for s in range(3)
        ],
        "skat": [c.code for c in state.deal.skat],
        "put_away": [c.code for c in sort_hand(CardSet(state.skat), game_type)] if state.picked_up else [],
        "trick": on_table,
        "trick_done": done,
        "tricks": tricks,
        "to_move": None if probe.to_move is None else _seat_name(probe.to_move),
        "kinds": kinds,
        "seats": [{"value": s, "name": _seat_name(s)} for s in range(3)],
        "mover_hand": [c.code for c in sort_hand(probe.hand(probe.to_move), game_type)]
        if "legal" in kinds and probe.to_move is not None
        else [],
        "show_result": show_result,
        "answer": answer if show_result else {},
        "result": [render_names(s.text(_lang()), _lang(), deck) for s in moments.result_steps(game)]
        if show_result
        else [],
        "prev": max(step - 1, 0),
        "next": min(step + 1, len(plays)),
    }


OUVERT_SAMPLES = 20
"""Distributions the ouvert check solves per request (a seeded sample)."""


@require_GET
def ouvert(request: HttpRequest) -> HttpResponse:
    """ "Ist mein Null ouvert / Grand ouvert sicher?": a GET form (the check changes nothing)."""
    chosen = [str(c)[:3] for c in request.GET.getlist("cards")][:12]
    skat = [str(c)[:3] for c in request.GET.getlist("skat")][:3]
    game_name = str(request.GET.get("game", "null"))
    context: dict[str, Any] = {
        "all_cards": [c.code for c in sort_hand(CARDS)],
        "chosen": chosen,
        "skat_chosen": skat,
        "game": game_name,
        "result": None,
        "error": "",
    }
    status = 200
    if chosen:
        try:
            game = GameType.NULL if game_name == "null" else GameType.GRAND
            result = check_ouvert(game, parse_cards(chosen), skat=parse_cards(skat), samples=OUVERT_SAMPLES)
            counter = None
            if result.counter is not None:
                counter = [
                    {"seat": _seat_name(s), "cards": [c.code for c in sort_hand(result.counter[s], game)]}
                    for s in range(3)
                ] + [{"seat": "Skat", "cards": [c.code for c in result.counter[3]]}]
            context.update(result=result, counter=counter)
        except SkatError as exc:
            context["error"], status = _error_text(exc), 400
    return render(request, "table/ouvert.html", context, status=status)

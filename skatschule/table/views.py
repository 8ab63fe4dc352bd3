"""The table at /ueben/spiel/: thin views. Forms read the input, services write, selectors read,
the presenter builds what a page shows from one replay of the game."""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods

from skatschule.cards.context_processors import current_deck
from skatschule.core.errors import message_in, render_error
from skatschule.core.language import current_lang
from skatschule.core.limits import TooLarge, bounded
from skatschule.core.security import client_ip
from skatschule.engine import CARDS, GameState, SkatError, parse_cards, sort_hand
from skatschule.engine.iss import IssGame
from skatschule.http import HtmxHttpRequest
from skatschule.jobs import selectors as job_selectors
from skatschule.jobs import services as jobs
from skatschule.jobs.models import Job
from skatschule.owners import owner_for

from . import moments, presenter, selectors, services, work
from .analysis import Analysis
from .forms import LEVELS, GamesFilter, IssExerciseForm, IssPasteForm, MoveForm, OuvertForm, number
from .models import TableGame
from .reviews import record_review
from .signals import records_imported

_ISS_KEY = "table_iss"
ISS_GAMES = 20
"""Records kept from one paste."""


def _speech(request: HttpRequest) -> presenter.Speech:
    return presenter.Speech(current_lang(), current_deck(request))


def _error_text(exc: SkatError) -> str:
    return message_in(exc)


def _ask(request: HttpRequest, kind: str, key: str, payload: dict[str, Any]) -> Job:
    """Submit heavy work as a job (:mod:`.work`); raises :class:`jobs.LimitReached` (429)."""
    return jobs.submit(
        owner=owner_for(request), kind=kind, key=work.key_of(kind, key), payload=payload, address=client_ip(request)
    )


def _mine(request: HttpRequest, job_id: str) -> Job | None:
    if not job_id:
        return None
    try:
        return job_selectors.job_for(owner=owner_for(request, create=False), job_id=uuid.UUID(job_id))
    except ValueError:
        return None


def _too_much(request: HttpRequest, exc: jobs.LimitReached) -> HttpResponse:
    return render_error(request, exc, 429, links=[(reverse("table:play"), gettext("Zum Spieltisch"))])


def _load(request: HttpRequest) -> tuple[services.Table, GameState]:
    loaded = services.from_session(session=request.session)
    if loaded is None:
        table = services.new_table()
        services.keep(session=request.session, table=table)
        return table, services.replay(table=table)
    return loaded


def _bots_move(request: HttpRequest, table: services.Table, state: GameState) -> tuple[GameState, Job | None]:
    """The bots answer. The rule bot and the club bot think within the request; the strong
    level's cards that need thinking come from jobs (:func:`.work.run_bots`), one card each: a
    job still running is kept in the session and shown (its end is pushed to the page); a failed
    or lost one, or none allowed (the asker's limit of pending work), gives way to quick moves."""
    if not services.thinks_on_worker(level=table.level):
        table.waiting = ""
        if not services.bots_to_move(table=table, state=state):
            return state, None
        return services.add_bot_moves(table=table, state=state, moves=services.bot_moves(table=table)), None
    while services.bots_to_move(table=table, state=state):
        key = json.dumps(work.table_payload(table))
        job = _mine(request, table.waiting) if table.waiting else None
        if job is None or job.key != work.key_of(work.BOTS, key):  # none yet, or for another position
            try:
                job = _ask(request, work.BOTS, key, work.table_payload(table))
            except jobs.LimitReached:  # the game goes on: the asker's analyses wait, the bots play quickly
                quick = services.bot_moves(table=table, time_cap=services.BOT_FALLBACK_CAP)
                table.waiting = ""
                return services.add_bot_moves(table=table, state=state, moves=quick), None
        if job.is_pending:
            table.waiting = str(job.pk)
            return state, job
        table.waiting = ""
        moves = (job.data or {}).get("moves") if job.is_done else None
        try:
            if not isinstance(moves, list) or not moves:
                raise SkatError("Der Computer hat nicht geantwortet", "The computer did not answer")
            state = services.add_bot_moves(table=table, state=state, moves=moves)
        except SkatError:
            quick = services.bot_moves(table=table, time_cap=services.BOT_FALLBACK_CAP)
            return services.add_bot_moves(table=table, state=state, moves=quick), None
    table.waiting = ""
    return state, None


def _hint(request: HttpRequest, table: services.Table, state: GameState, *, ask: bool) -> tuple[str, Job | None]:
    """The hint for the position as it stands: asked for now (``ask``), or the one asked before."""
    key = json.dumps(work.table_payload(table))
    job = _ask(request, work.HINT, key, work.table_payload(table)) if ask else _mine(request, table.hint_job)
    if job is None or job.key != work.key_of(work.HINT, key):
        table.hint_job = ""
        return "", None
    table.hint_job = str(job.pk)
    if job.is_done and job.data:
        return _speech(request).names(str(job.data.get(current_lang(), ""))), None
    return "", job if job.is_pending else None


@require_http_methods(["GET", "POST"])
def table_view(request: HtmxHttpRequest) -> HttpResponse:  # noqa: C901 - over the budget since issue 27; to be split
    """GET shows the table; POST makes one move, takes one back, deals again (asking first
    while a game runs) or asks for a hint. The bots' cards and hints are jobs (:mod:`.work`)."""
    table, state = _load(request)
    speech = _speech(request)
    error, status, confirm_new, asked_hint = "", 200, False, False
    confirm_level = ""
    chosen: dict[str, Any] = {}  # a refused discard or declaration: the learner's choice, shown again
    try:
        if request.method == "POST":
            form = MoveForm(request.POST)
            if not form.is_valid():
                error, status = _error_text(SkatError("Unbekannter Zug", "Unknown move")), 400
            else:
                move = form.move()
                try:
                    if move.action == "new":
                        if table.running and not state.is_over() and not move.confirm:
                            confirm_new, confirm_level = True, move.level.value
                        else:
                            table = services.new_table(level=move.level)
                            state = services.replay(table=table)
                    elif move.action == "takeback":
                        state = services.take_back(table=table)
                    elif move.action == "hint":
                        services.ask_hint(table=table, state=state)
                        asked_hint = True
                    else:
                        state = services.play(
                            table=table,
                            action=move.action,
                            value=move.value,
                            cards=move.cards,
                            flags=move.flags,
                            state=state,
                            think=not services.thinks_on_worker(level=table.level),  # quick bots answer here
                        )
                except SkatError as exc:
                    error, status = _error_text(exc), 400
                    chosen = {"cards": list(move.cards), "game": move.value, "flags": sorted(move.flags)}
        state, waiting = _bots_move(request, table, state)
        hint_text, hint_job = _hint(request, table, state, ask=asked_hint) if not waiting else ("", None)
    except jobs.LimitReached as exc:
        services.keep(session=request.session, table=table)
        return _too_much(request, exc)
    if state.is_over():
        services.save_finished(table=table, user=request.user, state=state)
    services.report_contest(table=table, user=request.user, state=state)
    services.keep(session=request.session, table=table)
    if request.method == "POST" and status == 200 and not asked_hint and not confirm_new and not request.htmx:
        return redirect("table:play")
    context = presenter.table_page(table, state, speech)
    context.update(
        error=error,
        hint=hint_text,
        hint_job=hint_job,
        waiting=waiting,
        confirm_new=confirm_new,
        here=reverse("table:play"),
        levels=LEVELS,
        level=table.level.value,
        confirm_level=confirm_level,
        chosen=chosen,
    )
    template = "table/partials/board.html" if request.htmx else "table/table.html"
    return render(request, template, context, status=status)


@login_required
@require_GET
def games(request: HttpRequest) -> HttpResponse:
    """ "Meine Spiele": the signed-in user's finished games, filtered by result and game."""
    form = GamesFilter(request.GET)
    won, game = form.filters()
    mistakes = form.mistakes()
    rows = selectors.games_of(user=request.user, won=won, game=game, mistakes=mistakes)
    return render(
        request,
        "table/games.html",
        {
            "rows": rows,
            "won": won,
            "game": game,
            "games": _speech(request).games(),
            "levels": LEVELS,
            "mistakes": mistakes,
            "filtered": won is not None or game or mistakes is not None,
            "query": form.query(),  # carried to each game's page and back (its "Zurück" link)
        },
    )


# -- analysis and the board -------------------------------------------------------------------


def _session_table(request: HttpRequest) -> tuple[services.Table, GameState] | None:
    return services.from_session(session=request.session)


def _stored_table(request: HttpRequest, pk: int) -> tuple[TableGame, services.Table, GameState]:
    """The signed-in user's own stored game; 404 for anyone else's (or none)."""
    row = selectors.game_of(user=request.user, pk=pk)
    if row is None:
        raise Http404
    table = services.Table(int(row.seed), int(row.seat), list(row.moves), row.pk, row.took_back)
    table.level = services.level_of(value=row.level)
    return row, table, services.replay(table=table)


def _games_query(request: HttpRequest) -> str:
    """The filter of "Meine Spiele" a stored game's pages carry along, for the way back to the
    list (:meth:`.forms.GamesFilter.query`: only known values, only this site's own list)."""
    return GamesFilter(request.GET).query()


def _not_over(request: HttpRequest, state: GameState | None, stored: TableGame | None) -> HttpResponse:
    passed_in = state is not None and state.passed_in
    back_query = _games_query(request) if stored else ""
    context = {"not_over": True, "passed_in": passed_in, "stored": stored, "back_query": back_query}
    return render(request, "table/analysis.html", context, status=409)


def _analysed(request: HttpRequest, key: str, payload: dict[str, Any]) -> tuple[Analysis | None, Job]:
    """The analysis job of a finished game (:func:`.work.run_analysis`) and, once done, its result."""
    job = _ask(request, work.ANALYSIS, key, payload)
    found = (job.data or {}).get("analysis") if job.is_done else None
    return (Analysis.from_json(found) if isinstance(found, dict) else None), job


def _analysis_page(
    request: HttpRequest, table: services.Table, state: GameState, stored: TableGame | None = None
) -> HttpResponse:
    """ "Hätte ich gewinnen können?" for a finished game; 409 when it is not over or was passed in."""
    if not state.is_over() or state.contract is None or state.declarer is None:
        return _not_over(request, state, stored)
    try:
        found, job = _analysed(request, json.dumps(work.table_payload(table)), work.table_payload(table))
    except jobs.LimitReached as exc:
        return _too_much(request, exc)
    speech = _speech(request)
    return render(
        request,
        "table/analysis.html",
        {
            "analysis": found,
            # "Gewonnen hätten": every card that kept the game won where it was given away
            "given_winners": ()
            if found is None or found.first_given_away is None
            else found.winners(found.first_given_away),
            "job": job,
            "not_over": False,
            "contract": speech.contract(state.contract),
            "declarer": speech.seat(state.declarer),
            "verdict": presenter.verdict(state, table.seat),
            "stored": stored,
            "back_query": _games_query(request) if stored else "",
        },
    )


@require_GET
def analysis(request: HttpRequest) -> HttpResponse:
    """ "Hätte ich gewinnen können?" for the game at the table, once it is over."""
    loaded = _session_table(request)
    if loaded is None:
        return _not_over(request, None, None)
    return _analysis_page(request, *loaded)


@login_required
@require_GET
def stored_analysis(request: HttpRequest, pk: int) -> HttpResponse:
    """ "Hätte ich gewinnen können?" for a stored game of the signed-in user (only the owner's)."""
    row, table, state = _stored_table(request, pk)
    return _analysis_page(request, table, state, stored=row)


def _board(  # noqa: PLR0913 - over the budget since issue 27; to be split
    request: HttpRequest,
    game: presenter.BoardGame,
    key: str,
    payload: dict[str, Any],
    *,
    link: str,
    back: str,
    extra: dict[str, Any],
) -> HttpResponse:
    try:
        found, job = _analysed(request, key, payload)
    except jobs.LimitReached as exc:
        return _too_much(request, exc)
    stored = extra.get("stored")
    if found is not None and stored is not None and stored.mistakes is None:  # analysed before it was stored
        record_review(seed=stored.seed, seat=stored.seat, moves=stored.moves, analysis=found)
    step = number(request.GET.get("schritt"))
    context = presenter.board_page(game, step, found, _speech(request), link=link).context()
    context.update(back=back, job=job, **extra)
    return render(request, "table/analysis_board.html", context)


def _table_board(  # noqa: PLR0913 - over the budget since issue 27; to be split
    request: HttpRequest,
    table: services.Table,
    state: GameState,
    *,
    link: str,
    back: str,
    stored: TableGame | None,
    back_query: str = "",
) -> HttpResponse:
    if not state.is_over() or state.contract is None:
        return _not_over(request, state, stored)
    game = presenter.BoardGame(state, services.plays_of(state=state), table.seat)
    payload = work.table_payload(table)
    again = reverse("table:again") if stored is None else reverse("table:stored_again", args=[stored.pk])
    extra = {"stored": stored, "back_query": back_query, "again_url": again}
    return _board(request, game, json.dumps(payload), payload, link=link, back=back, extra=extra)


@require_GET
def board(request: HttpRequest) -> HttpResponse:
    """The analysis board of the game at the table, once it is over."""
    loaded = _session_table(request)
    if loaded is None:
        return _not_over(request, None, None)
    table, state = loaded
    return _table_board(request, table, state, link="?", back="table:play", stored=None)


@login_required
@require_GET
def stored_board(request: HttpRequest, pk: int) -> HttpResponse:
    """The analysis board of a stored game of the signed-in user."""
    row, table, state = _stored_table(request, pk)
    query = _games_query(request)
    link = f"?{query}&" if query else "?"
    return _table_board(request, table, state, link=link, back="table:games", stored=row, back_query=query)


@require_GET
def export(request: HttpRequest) -> HttpResponse:
    """The finished game as an ISS record (plain text, one line)."""
    loaded = _session_table(request)
    if loaded is None or not loaded[1].is_over():
        return HttpResponse("Das Spiel ist noch nicht beendet.\n", status=409, content_type="text/plain; charset=utf-8")
    return _record_download(*loaded)


def _record_download(table: services.Table, state: GameState) -> HttpResponse:
    response = HttpResponse(
        services.iss_line(table=table, state=state) + "\n", content_type="text/plain; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="skatschule-{table.seed}.sgf"'
    return response


@login_required
@require_GET
def stored(request: HttpRequest, pk: int) -> HttpResponse:
    """A stored game of the signed-in user, reachable afterwards."""
    row, table, state = _stored_table(request, pk)
    context = presenter.table_page(table, state, _speech(request))
    context["stored"] = row
    context["back_query"] = _games_query(request)
    return render(request, "table/table.html", context)


@login_required
@require_GET
def stored_export(request: HttpRequest, pk: int) -> HttpResponse:
    """A stored game of the signed-in user as an ISS record (plain text, one line)."""
    row, table, state = _stored_table(request, pk)
    return _record_download(table, state)


# -- ISS records ------------------------------------------------------------------------------


def _over_limit(text: str | None) -> TooLarge | None:
    try:
        bounded(text)
    except TooLarge as exc:
        return exc
    return None


@dataclass
class _Paste:
    """What a POST of ISS records came to: the message and status, the paste kept in the box,
    the records that broke (number and error), whether any was read, and whether all were."""

    error: str = ""
    status: int = 200
    paste: str = ""
    broken: list[dict[str, Any]] = field(default_factory=list)
    read_any: bool = False
    complete: bool = False


def _read_paste(request: HttpRequest) -> _Paste:
    """Read the pasted records; the good ones go into the session (and to the puzzles)."""
    form = IssPasteForm(request.POST)
    large = _over_limit(request.POST.get("records"))
    if large is not None:  # the size first (core.limits): the games read in before stay
        return _Paste(message_in(large), large.status)
    if not form.is_valid():
        return _Paste(_error_text(SkatError("Bitte ISS-Datensätze einfügen", "Please paste ISS records")), 400)
    paste = form.cleaned_data["records"]
    read = services.read_records(text=paste, most=ISS_GAMES)
    out = _Paste(paste=paste, broken=[{"number": n, "error": _error_text(exc)} for n, exc in read.broken])
    out.read_any = bool(read.good)
    if read.good:
        request.session[_ISS_KEY] = read.good
        # every imported game is a source of puzzles (the puzzles app queues a job for it)
        records_imported.send(sender=None, owner=owner_for(request), records=read.good, address=client_ip(request))
        out.complete = not out.broken and not read.cut
    else:
        out.status = 400
    if read.cut:
        out.error = _error_text(
            SkatError(
                f"Nur die ersten {ISS_GAMES} Datensätze wurden eingelesen",
                f"Only the first {ISS_GAMES} records were read",
            )
        )
    return out


def _iss_viewer(
    request: HttpRequest, records: list[str], exercise: dict[str, Any], index: int, step: int
) -> dict[str, Any] | None:
    """The viewer at record ``index``, card ``step`` (None when the record no longer reads)."""
    game = services.iss_game(record=records[index])
    if game is None:
        return None
    shows = request.GET.get("ergebnis") == "1" or exercise.get("kind") == "liste"
    viewer = presenter.iss_viewer(game, step, _speech(request), show_result=shows).context()
    # once the Augen (or the result) are on the page, the last trick's taker follows from
    # them: the end asks no more for it, nor again for the Augen
    viewer["revealed"] = viewer["show_result"] or exercise.get("kind") == "augen"
    viewer["index"] = index
    viewer["count"] = len(records)
    viewer["games"] = [{"index": i, "number": i + 1, "current": i == index} for i in range(len(records))]
    return viewer


@require_http_methods(["GET", "POST"])
def iss_import(request: HttpRequest) -> HttpResponse:
    """Paste ISS records; step through them, game by game. The good records of a paste are
    kept, a broken one is named by its number and move (the paste stays in the box). A POST
    with ``exercise`` answers an exercise at the moment shown (:mod:`.moments`)."""
    asking = request.method == "POST" and "exercise" in request.POST
    pasted = _read_paste(request) if request.method == "POST" and not asking else _Paste()
    if pasted.complete:
        return redirect("table:iss")
    error, status = pasted.error, pasted.status
    records = request.session.get(_ISS_KEY) or []
    viewer: dict[str, Any] = {}
    exercise: dict[str, Any] = {}
    if asking and not records:
        error, status = _error_text(SkatError("Es ist kein Spiel eingelesen", "No game has been read in")), 409
    if records and status != 409:
        source = request.POST if asking else request.GET
        index = min(number(source.get("spiel")), len(records) - 1)
        step = number(source.get("schritt"))
        if asking:
            game = services.iss_game(record=records[index])
            try:
                exercise = {} if game is None else _grade_moment(request, game, step)
            except SkatError as exc:
                error, status = _error_text(exc), 400
        found = _iss_viewer(request, records, exercise, index, step)
        if found is None:
            request.session[_ISS_KEY] = []
            return render(request, "table/iss.html", {"error": "", "viewer": {}})
        viewer = found
    context = {
        "error": error,
        "viewer": viewer,
        "exercise": exercise,
        "paste": pasted.paste,
        "broken": pasted.broken,
        "read_any": pasted.read_any,
    }
    return render(request, "table/iss.html", context, status=status)


@require_GET
def iss_board(request: HttpRequest) -> HttpResponse:
    """The analysis board of a game read in at /ueben/spiel/iss/ (``spiel``; ``platz``: whose
    decisions are marked, the declarer's by default)."""
    records = request.session.get(_ISS_KEY) or []
    if not records:
        return redirect("table:iss")
    index = min(number(request.GET.get("spiel")), len(records) - 1)
    game = services.iss_game(record=records[index])
    if game is None or game.state.contract is None or game.state.declarer is None or not game.plays:
        return _not_over(request, None if game is None else game.state, None)
    seat = number(request.GET.get("platz"), game.state.declarer)
    seat = seat if seat in (0, 1, 2) else game.state.declarer
    board_game = presenter.BoardGame(game.state, game.plays, seat, game.players)
    extra = {"iss_index": index, "seats": [{"value": s, "name": _speech(request).seat(s)} for s in range(3)]}
    payload = {"record": records[index], "seat": seat}
    key = json.dumps([services.game_key(state=game.state), seat])  # the game, not the names in its record
    link = f"?spiel={index}&platz={seat}&"
    return _board(request, board_game, key, payload, link=link, back="table:iss", extra=extra)


def _grade_moment(request: HttpRequest, game: IssGame, step: int) -> dict[str, Any]:
    """One exercise at a moment of the record (:func:`.moments.grade`): the engine's verdict
    and its steps, for the template."""
    form = IssExerciseForm(request.POST)
    if not form.is_valid():
        raise SkatError("Unbekannte Übung", "Unknown exercise")
    kind = form.cleaned_data["exercise"]
    graded = moments.grade(game, step, kind, form.answer())
    speech = _speech(request)

    def shown(values: tuple[str, ...]) -> list[str]:
        return [speech.seat(int(v)) for v in values] if kind == "stich" else list(values)

    return {
        "asked": True,
        "kind": graded.kind,
        "correct": graded.correct,
        "right": shown(graded.right),
        "given": shown(graded.given),
        "steps": [s.text(speech.lang) for s in graded.steps],
    }


# -- the ouvert check -------------------------------------------------------------------------


@require_GET
def ouvert(request: HttpRequest) -> HttpResponse:
    """ "Ist mein Null ouvert / Grand ouvert sicher?": a GET form (the check changes nothing)."""
    game_name, chosen, skat = OuvertForm(request.GET).chosen()
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
            kind, hand, known = services.ouvert_hand(game=game_name, cards=chosen, skat=skat)
            payload = {"game": kind.value, "cards": [c.code for c in hand], "skat": [c.code for c in known]}
            job = _ask(request, work.OUVERT, json.dumps(payload), payload)
            context["job"] = job
            if job.is_done and job.data:
                speech = _speech(request)
                result = job.data
                counter = result.get("counter")
                context.update(
                    result=result,
                    exhaustive=result["tried"] == result["possible"],
                    counter=None
                    if counter is None
                    else [
                        {"seat": speech.seat(s), "cards": presenter.codes(parse_cards(counter[s]), kind)}
                        for s in range(3)
                    ]
                    + [{"seat": "Skat", "cards": counter[3]}],
                )
        except SkatError as exc:
            context["error"], status = _error_text(exc), 400
        except jobs.LimitReached as exc:
            return _too_much(request, exc)
    return render(request, "table/ouvert.html", context, status=status)

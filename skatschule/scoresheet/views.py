"""Score sheet pages under /liste/. Thin: writes in ``services``, reads in ``selectors``."""

from __future__ import annotations

import csv
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from skatschule.cards.context_processors import current_deck
from skatschule.home.errors import render_error
from skatschule.home.language import current_lang

from . import selectors, services
from .forms import ChangeForm, ExampleForm, GameForm, NewSheetForm, ProfileForm, RamschForm
from .services import SheetError, SheetStore


def _context(request: HttpRequest, store: SheetStore) -> dict[str, Any]:
    data = store.load()
    system = request.GET.get("system", "isko")
    limit = request.GET.get("bierlachs")
    ctx = selectors.sheet_view(
        data,
        system=system,
        lang=current_lang(),
        deck=current_deck(request),
        bierlachs_limit=401 if limit == "401" else 301 if limit == "301" else None,
    )
    ctx["store"] = store
    ctx["key"] = store.key
    ctx["editable"] = store.editable
    if store.sheet is not None:
        ctx["share_url"] = request.build_absolute_uri(reverse("scoresheet:shared", args=[store.sheet.share_id]))
    return ctx


def _back(request: HttpRequest, key: str) -> list[tuple[str, str]]:
    return [(reverse("scoresheet:detail", args=[key]), _("Zurück zur Liste"))]


@require_GET
def index(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "scoresheet/index.html",
        {
            "form": NewSheetForm(),
            "sheets": selectors.sheets_of(request),
            "session_sheet": bool(request.session.get(services.SESSION_KEY)),
        },
    )


def index_post(request: HttpRequest) -> HttpResponse:
    form = NewSheetForm(request.POST)
    if not form.is_valid():
        return render(
            request, "scoresheet/index.html", {"form": form, "sheets": selectors.sheets_of(request)}, status=400
        )
    try:
        store = services.create_sheet(
            user=request.user,
            session=request.session,
            players=form.players(),
            dealer=form.cleaned_data["dealer"],
            pub=form.cleaned_data["pub"],
            profile=form.profile(),
            cents=form.cleaned_data["cents"],
        )
    except SheetError as err:
        return render_error(request, err, 400, links=[(reverse("scoresheet:index"), _("Alle Listen"))])
    return redirect("scoresheet:detail", key=store.key)


def index_view(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        return index_post(request)
    return index(request)


@require_GET
def detail(request: HttpRequest, key: str) -> HttpResponse:
    store = selectors.store_for(request, key)
    ctx = _context(request, store)
    ctx["game_form"] = GameForm(players=ctx.get("players", []), deck=current_deck(request))
    ctx["ramsch_form"] = RamschForm()
    ctx["change_form"] = ChangeForm(players=ctx.get("players", []))
    return render(request, "scoresheet/sheet.html", ctx)


@require_GET
def shared(request: HttpRequest, share_id: str) -> HttpResponse:
    store = selectors.shared_store(share_id)
    return render(request, "scoresheet/sheet.html", _context(request, store))


def _write(request: HttpRequest, key: str, form: Any, action: Any) -> HttpResponse:
    store = selectors.store_for(request, key)
    if form is not None and not form.is_valid():
        ctx = _context(request, store)
        ctx["game_form"] = (
            form if isinstance(form, GameForm) else GameForm(players=ctx.get("players", []), deck=current_deck(request))
        )
        ctx["ramsch_form"] = form if isinstance(form, RamschForm) else RamschForm()
        ctx["change_form"] = form if isinstance(form, ChangeForm) else ChangeForm(players=ctx.get("players", []))
        return render(request, "scoresheet/sheet.html", ctx, status=400)
    try:
        action(store)
    except SheetError as err:
        return render_error(request, err, 400, links=_back(request, key))
    return redirect(reverse("scoresheet:detail", args=[key]) + "#liste")


@require_POST
def add_game(request: HttpRequest, key: str) -> HttpResponse:
    store = selectors.store_for(request, key)
    form = GameForm(request.POST, players=selectors.current_players(store.load()), deck=current_deck(request))
    return _write(request, key, form, lambda s: services.add_entry(store=s, entry=form.entry()))


@require_POST
def add_ramsch(request: HttpRequest, key: str) -> HttpResponse:
    form = RamschForm(request.POST)
    return _write(request, key, form, lambda s: services.add_entry(store=s, entry=form.entry()))


@require_POST
def change_player(request: HttpRequest, key: str) -> HttpResponse:
    store = selectors.store_for(request, key)
    players = selectors.current_players(store.load())
    form = ChangeForm(request.POST, players=players)
    return _write(request, key, form, lambda s: services.add_entry(store=s, entry=form.entry()))


@require_POST
def add_passed(request: HttpRequest, key: str) -> HttpResponse:
    return _write(request, key, None, lambda s: services.add_entry(store=s, entry={"kind": "passed"}))


@require_POST
def undo(request: HttpRequest, key: str) -> HttpResponse:
    return _write(request, key, None, lambda s: services.undo_last(store=s))


@require_POST
def stake(request: HttpRequest, key: str) -> HttpResponse:
    try:
        cents = int(request.POST.get("cents", ""))
    except ValueError:
        return render_error(
            request,
            SheetError("Cent je Punkt: eine ganze Zahl", "Cents per point: a whole number"),
            400,
            links=_back(request, key),
        )
    return _write(request, key, None, lambda s: services.set_cents(store=s, cents=cents))


@require_http_methods(["GET", "POST"])
def correct(request: HttpRequest, key: str, number: int) -> HttpResponse:
    store = selectors.store_for(request, key)
    data = store.load()
    entries = data.get("entries", [])
    if not 1 <= number <= len(entries):
        return render_error(
            request, SheetError("Dieses Spiel gibt es nicht", "There is no such game"), 404, links=_back(request, key)
        )
    entry = entries[number - 1]
    if entry["kind"] not in ("game", "ramsch"):
        return render_error(
            request,
            SheetError(
                "Hier gibt es nichts zu korrigieren; streiche den Eintrag",
                "There is nothing to correct here; strike the entry",
            ),
            400,
            links=_back(request, key),
        )
    players = selectors.current_players(data)
    form: Any
    if request.method == "POST":
        if entry["kind"] == "game":
            form = GameForm(request.POST, players=players, deck=current_deck(request))
        else:
            form = RamschForm(request.POST)
        if form.is_valid():
            try:
                services.correct_entry(store=store, number=number, entry=form.entry())
            except SheetError as err:
                return render_error(request, err, 400, links=_back(request, key))
            return redirect(reverse("scoresheet:detail", args=[key]) + "#liste")
        status = 400
    else:
        status = 200
        if entry["kind"] == "game":
            form = GameForm(initial=GameForm.initial_from(entry), players=players, deck=current_deck(request))
        elif entry["kind"] == "ramsch":
            form = RamschForm(
                initial={
                    **{f"augen{i + 1}": a for i, a in enumerate(entry["augen"])},
                    **{f"tricks{i + 1}": t for i, t in enumerate(entry["tricks"])},
                    "schieben": entry.get("schieben", 0),
                    "broken_by": entry.get("broken_by"),
                }
            )
    return render(
        request,
        "scoresheet/correct.html",
        {"form": form, "number": number, "key": key, "kind": entry["kind"]},
        status=status,
    )


@require_GET
def csv_export(request: HttpRequest, key: str) -> HttpResponse:
    store = selectors.store_for(request, key)
    ctx = _context(request, store)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="spielliste.csv"'
    writer = csv.writer(response)
    players = ctx["players"]
    writer.writerow(["Nr", "Geber", "Art", "Spiel", "Alleinspieler", *players, *[f"Summe {p}" for p in players]])
    for row in ctx["rows"]:
        writer.writerow(
            [
                row.number,
                row.dealer,
                row.deal,
                row.label,
                row.declarer,
                *["" if c is None else c for c in row.cells],
                *row.totals,
            ]
        )
    return response


@require_GET
def game_log(request: HttpRequest, key: str) -> HttpResponse:
    store = selectors.store_for(request, key)
    text = selectors.game_log(store.load(), lang=current_lang())
    return HttpResponse(text, content_type="text/plain; charset=utf-8")


@require_GET
def print_view(request: HttpRequest, key: str) -> HttpResponse:
    store = selectors.store_for(request, key)
    return render(request, "scoresheet/print.html", _context(request, store))


@require_GET
def house_rules(request: HttpRequest) -> HttpResponse:
    """Compose a profile and compare an example game's entry with the ISkO."""
    profile_form = ProfileForm(request.GET or None)
    example_form = ExampleForm(request.GET or None, deck=current_deck(request))
    ctx: dict[str, Any] = {
        "profile_form": profile_form,
        "example_form": example_form,
        "presets": selectors.profile_presets(),
    }
    if request.GET and profile_form.is_valid() and example_form.is_valid():
        ctx.update(
            selectors.compare_example(
                profile_form.profile(), example_form.cleaned_data, lang=current_lang(), deck=current_deck(request)
            )
        )
    elif not request.GET:
        ctx.update(
            selectors.compare_example(
                {},
                {"game": "clubs", "matadors": 2, "bid": 18, "points": 70, "tricks": 6},
                lang=current_lang(),
                deck=current_deck(request),
            )
        )
        ctx["profile_form"] = ProfileForm()
        ctx["example_form"] = ExampleForm(deck=current_deck(request))
    return render(request, "scoresheet/house_rules.html", ctx, status=200 if ctx.get("ok", True) else 400)

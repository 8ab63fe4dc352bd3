"""Score sheet pages under /liste/. Thin: writes in ``services``, reads in ``selectors``."""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import replace
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from skatschule.cards.context_processors import current_deck
from skatschule.core.errors import message_in, render_error
from skatschule.core.language import current_lang
from skatschule.core.spreadsheets import table_csv_bytes

from . import selectors, services
from .forms import (
    DEFAULT_EXAMPLE,
    DEFAULT_PROFILE,
    ChangeForm,
    ExampleForm,
    GameForm,
    NewSheetForm,
    ProfileForm,
    RamschForm,
)
from .rows_html import rows_html
from .services import SheetError, SheetStore


def _context(request: HttpRequest, store: SheetStore, *, all_rows: bool = False) -> dict[str, Any]:
    query = selectors.SheetQuery.of(request.GET)
    if all_rows:
        query = replace(query, page=selectors.ALL_ROWS)
    ctx = selectors.sheet_view(data=store.read(), query=query, lang=current_lang(), deck=current_deck(request))
    ctx["store"] = store
    ctx["key"] = store.key
    ctx["editable"] = store.editable
    ctx["rows_html"] = rows_html(ctx["rows"], editable=store.editable, key=store.key)
    sheet = store.sheet
    if store.editable:
        ctx["print_url"] = reverse("scoresheet:print", args=[store.key])
        ctx["csv_url"] = reverse("scoresheet:csv", args=[store.key])
        ctx["log_url"] = reverse("scoresheet:log", args=[store.key])
        if sheet is not None and sheet.share_id is not None:
            ctx["share_url"] = request.build_absolute_uri(reverse("scoresheet:shared", args=[sheet.share_id]))
    elif sheet is not None and sheet.share_id is not None:
        # a viewer of the shared link gets the read-only print and CSV under the same link
        ctx["print_url"] = reverse("scoresheet:shared_print", args=[sheet.share_id])
        ctx["csv_url"] = reverse("scoresheet:shared_csv", args=[sheet.share_id])
    return ctx


FIELDS_KEPT = 256
"""Rendered empty entry forms a process keeps (a few kB each)."""
_fields: OrderedDict[tuple[Any, ...], SafeString] = OrderedDict()
_fields_lock = threading.Lock()


def _empty_fields(key: tuple[Any, ...], form: Any, pub: bool) -> SafeString:
    """The fields of an empty entry form as HTML, rendered once per process for the same players,
    deck, house rules and language (dozens of widget templates a view otherwise); a form the
    visitor sent, with its values and errors, is always rendered anew."""
    with _fields_lock:
        found = _fields.get(key)
        if found is not None:
            _fields.move_to_end(key)
            return found
    html = mark_safe(render_to_string("scoresheet/fields.html", {"form": form, "pub": pub}))  # noqa: S308 - a template's output
    with _fields_lock:
        _fields[key] = html
        while len(_fields) > FIELDS_KEPT:
            _fields.popitem(last=False)
    return html


def _forms(request: HttpRequest, ctx: dict[str, Any], store: SheetStore, form: Any = None) -> None:
    """The sheet's entry forms; ``form`` (one the visitor just sent) keeps what was entered."""
    players = ctx.get("players", [])
    rules, pub = selectors.entry_rules(data=store.read())
    deck, lang, shown_pub = current_deck(request), current_lang(), bool(ctx.get("pub"))
    if isinstance(form, GameForm):
        ctx["game_form"] = form
    else:
        ctx["game_form"] = GameForm(players=players, deck=deck, rules=rules, pub=pub)
        key = ("game", tuple(players), deck, lang, repr(rules), pub, shown_pub)
        ctx["game_fields"] = _empty_fields(key, ctx["game_form"], shown_pub)
    if isinstance(form, RamschForm):
        ctx["ramsch_form"] = form
    else:
        ctx["ramsch_form"] = RamschForm()
        ctx["ramsch_fields"] = _empty_fields(("ramsch", lang), ctx["ramsch_form"], True)
    ctx["change_form"] = form if isinstance(form, ChangeForm) else ChangeForm(players=players)


def _back(request: HttpRequest, key: str) -> list[tuple[str, str]]:
    return [(reverse("scoresheet:detail", args=[key]), _("Zurück zur Liste"))]


@require_GET
def index(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "scoresheet/index.html",
        {
            "form": NewSheetForm(deck=current_deck(request)),
            "sheets": selectors.sheets_of(request),
            "session_sheet": bool(request.session.get(services.SESSION_KEY)),
        },
    )


def index_post(request: HttpRequest) -> HttpResponse:
    form = NewSheetForm(request.POST, deck=current_deck(request))
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
    store = selectors.store_for(request, key=key)
    ctx = _context(request, store)
    _forms(request, ctx, store)
    return render(request, "scoresheet/sheet.html", ctx)


@require_GET
def shared(request: HttpRequest, share_id: str) -> HttpResponse:
    store = selectors.shared_store(share_id=share_id)
    return render(request, "scoresheet/sheet.html", _context(request, store))


def _write(request: HttpRequest, key: str, form: Any, action: Any) -> HttpResponse:
    """Run ``action`` if ``form`` is valid; otherwise, or if the engine refuses the entry, show
    the sheet again with the entered game and its error in the form (400)."""
    store = selectors.store_for(request, key=key)
    if form is None or form.is_valid():
        try:
            action(store)
        except SheetError as err:
            if form is None:
                return render_error(request, err, 400, links=_back(request, key))
            form.add_error(None, message_in(err, current_lang()))
        else:
            return redirect(reverse("scoresheet:detail", args=[key]) + "#liste")
    ctx = _context(request, store)
    _forms(request, ctx, store, form)
    return render(request, "scoresheet/sheet.html", ctx, status=400)


def _game_form(request: HttpRequest, data: dict[str, Any], **kwargs: Any) -> GameForm:
    rules, pub = selectors.entry_rules(data=data)
    return GameForm(
        request.POST,
        players=selectors.current_players(data=data),
        deck=current_deck(request),
        rules=rules,
        pub=pub,
        **kwargs,
    )


@require_POST
def add_game(request: HttpRequest, key: str) -> HttpResponse:
    store = selectors.store_for(request, key=key)
    form = _game_form(request, store.load())
    return _write(request, key, form, lambda s: services.add_entry(store=s, entry=form.entry()))


@require_POST
def add_ramsch(request: HttpRequest, key: str) -> HttpResponse:
    form = RamschForm(request.POST)
    return _write(request, key, form, lambda s: services.add_entry(store=s, entry=form.entry()))


@require_POST
def change_player(request: HttpRequest, key: str) -> HttpResponse:
    store = selectors.store_for(request, key=key)
    players = selectors.current_players(data=store.load())
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
    cents = request.POST.get("cents", "")
    return _write(request, key, None, lambda s: services.set_cents(store=s, cents=cents))


@require_http_methods(["GET", "POST"])
def correct(request: HttpRequest, key: str, number: int) -> HttpResponse:
    store = selectors.store_for(request, key=key)
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
    players = selectors.current_players(data=data)
    rules, pub = selectors.entry_rules(data=data)
    form: Any
    if request.method == "POST":
        if entry["kind"] == "game":
            form = _game_form(request, data)
        else:
            form = RamschForm(request.POST)
        if form.is_valid():
            try:
                services.correct_entry(store=store, number=number, entry=form.entry())
            except SheetError as err:
                form.add_error(None, message_in(err, current_lang()))
            else:
                return redirect(reverse("scoresheet:detail", args=[key]) + "#liste")
        status = 400
    else:
        status = 200
        if entry["kind"] == "game":
            form = GameForm(
                initial=GameForm.initial_from(entry), players=players, deck=current_deck(request), rules=rules, pub=pub
            )
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


def _csv(request: HttpRequest, store: SheetStore) -> HttpResponse:
    """The sheet as CSV like the site's other exports: UTF-8 with BOM, semicolons under German,
    the one formula guard (core/spreadsheets.py) on every cell."""
    ctx = _context(request, store, all_rows=True)
    players = ctx["players"]
    table: list[list[object]] = [
        [_("Nr."), _("Geber"), _("Art"), _("Spiel"), _("Alleinspieler"), *players]
        + [_("Summe %(name)s") % {"name": p} for p in players]
    ]
    for row in ctx["rows"]:
        table.append(
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
    response = HttpResponse(table_csv_bytes(table, current_lang()), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="spielliste.csv"'
    return response


@require_GET
def csv_export(request: HttpRequest, key: str) -> HttpResponse:
    return _csv(request, selectors.store_for(request, key=key))


@require_GET
def shared_csv(request: HttpRequest, share_id: str) -> HttpResponse:
    return _csv(request, selectors.shared_store(share_id=share_id))


@require_POST
def share(request: HttpRequest, key: str) -> HttpResponse:
    """Revoke the read-only link or replace it by a new one."""
    store = selectors.store_for(request, key=key)
    try:
        services.share(store=store, action=request.POST.get("aktion", ""))
    except SheetError as err:
        return render_error(request, err, 400, links=_back(request, key))
    return redirect(reverse("scoresheet:detail", args=[key]) + "#export-title")


@require_GET
def game_log(request: HttpRequest, key: str) -> HttpResponse:
    store = selectors.store_for(request, key=key)
    text = selectors.game_log(data=store.load(), lang=current_lang())
    return HttpResponse(text, content_type="text/plain; charset=utf-8")


@require_GET
def print_view(request: HttpRequest, key: str) -> HttpResponse:
    store = selectors.store_for(request, key=key)
    return render(request, "scoresheet/print.html", _context(request, store, all_rows=True))


@require_GET
def shared_print(request: HttpRequest, share_id: str) -> HttpResponse:
    store = selectors.shared_store(share_id=share_id)
    return render(request, "scoresheet/print.html", _context(request, store, all_rows=True))


@require_GET
def house_rules(request: HttpRequest) -> HttpResponse:
    """Compose a profile and compare an example game's entry with the ISkO. The example is
    checked like an entered game; its errors stand at its fields, with everything kept."""
    deck = current_deck(request)
    if request.GET:
        profile_form, example_form = ProfileForm(request.GET, deck=deck), ExampleForm(request.GET, deck=deck)
        shown = (profile_form, example_form)
    else:
        profile_form, example_form = ProfileForm(DEFAULT_PROFILE, deck=deck), ExampleForm(DEFAULT_EXAMPLE, deck=deck)
        shown = (ProfileForm(deck=deck), ExampleForm(deck=deck))
    ctx: dict[str, Any] = {"profile_form": shown[0], "example_form": shown[1], "presets": selectors.profile_presets()}
    status = 400
    if profile_form.is_valid() and example_form.is_valid():
        rules = profile_form.rules()
        example_form.check(rules)
        if example_form.is_valid():
            ctx.update(
                selectors.compare_example(rules=rules, example=example_form.entry(), lang=current_lang(), deck=deck)
            )
            status = 200
    return render(request, "scoresheet/house_rules.html", ctx, status=status)

"""Own questions (issue 18): the builder with the card picker, the list and the preview.
Thin: the logic is in ``own_items``."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from skatschule.classrooms.services import is_teacher
from skatschule.core.errors import message_in, render_error
from skatschule.core.language import current_lang
from skatschule.engine import BID_VALUES, SEATS, GameType, Text
from skatschule.engine.names import game_ref
from skatschule.exercises import REGISTRY
from skatschule.exercises.base import AnswerError
from skatschule.exercises.helpers import game_en
from skatschule.training.presenters import present_feedback, present_question

from . import own_input, own_items, own_rulings, presenters
from .errors import QuizError
from .imports import MAX_BYTES
from .requests import QuizRequest
from .selectors.teaching import own_item, own_items_of, owned_quiz_or_none, quizzes_open_for_items
from .services import importing

ALL_CARDS = own_input.ALL_CODES
FLAG_LABELS = (
    ("hand", Text("Hand (Skat nicht aufgenommen)", "Hand (skat not picked up)")),
    ("ouvert", Text("ouvert (offen)", "ouvert (open)")),
    ("schneider_announced", Text("Schneider angesagt", "Schneider announced")),
    ("schwarz_announced", Text("Schwarz angesagt", "Schwarz announced")),
)
RESULT_LABELS = (
    ("einfach", Text("einfach gewonnen (61 bis 89 Augen)", "simple win (61 to 89 card points)")),
    ("schneider", Text("mit Schneider (90 Augen oder mehr)", "with Schneider (90 card points or more)")),
    ("schwarz", Text("Schwarz (alle Stiche)", "Schwarz (every trick)")),
)
QUESTION_LABELS = (
    ("gewinner", Text("Wer gewinnt das Spiel?", "Who wins the game?")),
    ("liste", Text("Was wird für den Alleinspieler notiert?", "What is written down for the declarer?")),
)
PLAY_SLOTS = own_rulings.MAX_PLAYS
"""Selects for the cards played so far: nine tricks and two cards of the tenth."""


def _require_teacher(request: QuizRequest) -> None:
    if not is_teacher(user=request.user):
        raise Http404("not a teacher")


def _choices(lang: str) -> dict[str, Any]:
    return {
        "kinds": [(k, REGISTRY[k].title(lang)) for k in own_items.OWN_KINDS],
        "games": [(g.value, Text(game_ref(g), game_en(g)).get(lang)) for g in GameType],
        "seats": [(str(seat.value), seat.text.get(lang)) for seat in SEATS],
        "all_cards": ALL_CARDS,
        "flags": [(f, label.get(lang)) for f, label in FLAG_LABELS],
        "results": [(r, label.get(lang)) for r, label in RESULT_LABELS],
        "bids": BID_VALUES,
        "events": [(e.value, Text(e.name_de, e.name_en).get(lang)) for e in own_rulings.EVENTS],
        "questions": [(q, label.get(lang)) for q, label in QUESTION_LABELS],
    }


def _tricks(plays: list[str]) -> list[list[tuple[int, str]]]:
    """The play selects by trick: (number of the select, chosen code)."""
    slots = [(n, plays[n - 1] if n <= len(plays) else "") for n in range(1, PLAY_SLOTS + 1)]
    return [slots[i : i + 3] for i in range(0, PLAY_SLOTS, 3)]


def _situation(kind: str, values: dict[str, Any]) -> dict[str, Any]:
    """The keywords for ``create_own_item`` from the builder's fields (only those of the kind)."""
    if kind == "regelverstoss":
        return {
            "game": values["game"],
            "flags": values["flags"],
            "declarer": values["declarer"],
            "bid": values["bid"],
            "hand": values["hand"],
            "skat": values["skat"],
            "plays": own_input.read_sequence(values["plays"]),
            "event": {"kind": values["event_kind"], "seat": values["event_seat"], "card": values["event_card"]},
            "question": values["question"],
        }
    situation: dict[str, Any] = {
        "game": values["game"],
        "leader": values["leader"],
        "trick": [code for code in values["trick"][: 3 if kind == "stich" else 2] if code],
    }
    if kind != "stich":
        situation["hand"] = values["hand"]
    if kind == "spielwert":
        situation.update(skat=values["skat"], flags=values["flags"], result=values["result"])
    return situation


@login_required
@require_GET
def own_list(request: QuizRequest) -> HttpResponse:
    _require_teacher(request)
    lang = current_lang()
    items = [(item, own_items.kind_title(item, lang)) for item in own_items_of(request.user)]
    return render(request, "quizzes/own_list.html", {"items": items, **_choices(lang)})


@login_required
@require_http_methods(["GET", "POST"])
def own_create(request: QuizRequest) -> HttpResponse:
    _require_teacher(request)
    lang = current_lang()
    source = request.POST if request.method == "POST" else request.GET
    kind = source.get("art", "stich")
    if kind not in own_items.OWN_KINDS:
        kind = "stich"
    values: dict[str, Any] = {
        "title": source.get("title", ""),
        "game": source.get("game", "clubs"),
        "leader": source.get("leader", "0"),
        "trick": [source.get(f"trick{n}", "") for n in (1, 2, 3)],
        "hand": source.getlist("hand"),
        "skat": source.getlist("skat"),
        "flags": source.getlist("flags"),
        "result": source.get("result", "einfach"),
        "declarer": source.get("declarer", "0"),
        "bid": source.get("bid", "18"),
        "plays": [source.get(f"play{n}", "") for n in range(1, PLAY_SLOTS + 1)],
        "event_kind": source.get("event_kind", ""),
        "event_seat": source.get("event_seat", ""),
        "event_card": source.get("event_card", ""),
        "question": source.get("question", "gewinner"),
    }
    context = {
        "kind": kind,
        "kind_title": REGISTRY[kind].title(lang),
        "values": values,
        "tricks": _tricks(values["plays"]),
        **_choices(lang),
    }
    if request.method == "POST":
        try:
            item = own_items.create_own_item(
                owner=request.user, kind=kind, title=values["title"], **_situation(kind, values)
            )
        except own_items.OwnItemError as exc:
            context["error"] = exc.message(lang)
            return render(request, "quizzes/own_builder.html", context, status=400)
        messages.success(request, _("Die Aufgabe ist gespeichert. Die Antwort hat die Engine berechnet."))
        return redirect("quizzes:own_detail", pk=item.pk)
    return render(request, "quizzes/own_builder.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def own_detail(request: QuizRequest, pk: int) -> HttpResponse:
    """The item as students would see it, the engine's answer, and a try-out form."""
    _require_teacher(request)
    item = own_item(request.user, pk=pk)
    lang = current_lang()
    question, right = own_items.own_question(item)
    context = {
        "item": item,
        "kind_title": own_items.kind_title(item, lang),
        "q": present_question(question, lang),
        "right": present_feedback(right, lang),
        "tried": None,
        "quizzes": quizzes_open_for_items(request.user),
        "as_template": reverse("quizzes:own_create") + "?" + urlencode(own_items.builder_fields(item), doseq=True),
    }
    status = 200
    if request.method == "POST":
        try:
            context["tried"] = present_feedback(own_items.grade_own(item, request.POST.getlist("answer")), lang)
        except AnswerError as exc:
            context["error"] = message_in(exc, lang)
            status = 400
    return render(request, "quizzes/own_detail.html", context, status=status)


@login_required
@require_POST
def own_add(request: QuizRequest, pk: int) -> HttpResponse:
    """Append the own item to one of the teacher's quizzes (not yet started)."""
    _require_teacher(request)
    item = own_item(request.user, pk=pk)
    quiz = owned_quiz_or_none(request.user, raw=request.POST.get("quiz", ""))
    if quiz is None:
        return render_error(
            request, own_items.OwnItemError("Bitte wähle eines deiner Quizze.", "Please choose one of your quizzes.")
        )
    try:
        own_items.add_to_quiz(owner=request.user, item=item, quiz=quiz)
    except own_items.OwnItemError as exc:
        return render_error(request, exc)
    messages.success(request, _("Die Aufgabe ist im Quiz „%(title)s“ als letzte Aufgabe.") % {"title": quiz.title})
    return redirect("quizzes:detail", pk=quiz.pk)


@login_required
@require_POST
def own_delete(request: QuizRequest, pk: int) -> HttpResponse:
    """Delete an own item that no quiz asks."""
    _require_teacher(request)
    item = own_item(request.user, pk=pk)
    try:
        own_items.delete_own_item(owner=request.user, item=item)
    except own_items.OwnItemError as exc:
        return render_error(request, exc, links=[(reverse("quizzes:own_detail", args=[item.pk]), _("Zur Aufgabe"))])
    messages.success(request, _("Die Aufgabe ist gelöscht."))
    return redirect("quizzes:own_list")


IMPORT_FORMATS = (("gift", "GIFT"), ("moodle_xml", "Moodle-XML"))


@login_required
@require_http_methods(["GET", "POST"])
def own_import(request: QuizRequest) -> HttpResponse:
    """Import questions from a GIFT or Moodle XML file (or pasted text) into the teacher's own
    items in two steps: a preview of every question as learners will see it, with every change
    and refusal by line; then (``confirm``) the accepted questions are saved (``services.importing``).
    The preview carries the file's text in the form, so the confirmation saves what was shown."""
    _require_teacher(request)
    lang = current_lang()
    context: dict[str, Any] = {"formats": IMPORT_FORMATS, "fmt": "gift", "text": "", "problems": []}
    if request.method == "GET":
        return render(request, "quizzes/own_import.html", context)
    fmt = request.POST.get("format", "")
    upload = request.FILES.get("file")
    if upload is not None and upload.size is not None and upload.size > MAX_BYTES:
        data = b"x" * (MAX_BYTES + 1)  # refused by the service without reading the upload
    else:
        data = upload.read(MAX_BYTES + 1) if upload is not None else request.POST.get("text", "").encode()
    context.update(fmt=fmt, text=request.POST.get("text", "")[:MAX_BYTES])
    try:
        if request.POST.get("confirm"):
            result = importing.import_questions(owner=request.user, data=data, fmt=fmt)
            parsed = None
        else:
            parsed = importing.read_file(owner=request.user, data=data, fmt=fmt)
    except QuizError as exc:
        context["error"] = exc.message(lang)
        return render(request, "quizzes/own_import.html", context, status=exc.status)
    if parsed is not None:  # the preview
        context.update(
            text=data.decode("utf-8-sig"),
            problems=[(p.line, p.text.get(lang)) for p in parsed.problems],
            preview=presenters.import_preview(parsed, lang),
            can_save=bool(parsed.questions) and not any(p.line == 0 for p in parsed.problems),
        )
        return render(request, "quizzes/own_import.html", context, status=200 if parsed.questions else 400)
    if not result.items:
        context["problems"] = [(p.line, p.text.get(lang)) for p in result.problems]
        return render(request, "quizzes/own_import.html", context, status=400)
    done = _("%(n)d Fragen importiert.") % {"n": len(result.items)}
    if result.problems:
        lines = ", ".join(str(p.line) for p in result.problems if p.line)
        done += " " + _("Nicht importiert: die Fragen in den Zeilen %(lines)s.") % {"lines": lines}
    messages.success(request, done)
    return redirect("quizzes:own_list")

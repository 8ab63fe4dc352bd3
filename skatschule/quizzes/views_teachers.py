"""Teacher pages of issue 18: publish, copy and export a quiz. Thin; logic in ``publishing``
and ``exports``."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from skatschule.classrooms.models import Classroom
from skatschule.core.errors import render_error
from skatschule.core.language import current_lang

from . import exports, publishing
from .errors import QuizError
from .requests import QuizRequest
from .selectors.teaching import classes_of, item_at, own_quiz, quiz_attempt
from .services import grading

_DATETIME = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")


class PublishForm(forms.Form):
    at = forms.DateTimeField(
        label=gettext_lazy("Veröffentlichen am"),
        required=False,
        widget=_DATETIME,
        help_text=gettext_lazy("Leer lassen, um sofort zu veröffentlichen."),
    )


class CopyForm(forms.Form):
    title = forms.CharField(label=gettext_lazy("Titel der Kopie"), max_length=120)
    classroom = forms.ModelChoiceField(
        label=gettext_lazy("Für die Klasse"), queryset=Classroom.objects.none(), empty_label=None
    )

    def __init__(self, *args: Any, teacher: User, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast("forms.ModelChoiceField[Classroom]", self.fields["classroom"]).queryset = classes_of(teacher)


def _back(request: QuizRequest, pk: int, error: QuizError) -> HttpResponse:
    return render_error(request, error, links=[(f"/quiz/{pk}/", _("Zurück zum Quiz"))])


@login_required
@require_POST
def publish(request: QuizRequest, pk: int) -> HttpResponse:
    quiz = own_quiz(request.user, pk=pk)
    form = PublishForm(request.POST)
    if not form.is_valid():
        return _back(request, quiz.pk, QuizError("Bitte gib Datum und Uhrzeit an.", "Please give a date and time."))
    try:
        quiz = publishing.publish(quiz=quiz, owner=request.user, at=form.cleaned_data["at"])
    except QuizError as exc:
        return _back(request, quiz.pk, exc)
    if publishing.publication_state(quiz) == publishing.SCHEDULED:
        messages.success(request, _("Das Quiz wird zur gewählten Zeit veröffentlicht."))
    else:
        messages.success(request, _("Das Quiz ist veröffentlicht: Die Klasse sieht es jetzt."))
    return redirect("quizzes:detail", pk=quiz.pk)


@login_required
@require_POST
def unpublish(request: QuizRequest, pk: int) -> HttpResponse:
    quiz = own_quiz(request.user, pk=pk)
    try:
        publishing.unpublish(quiz=quiz, owner=request.user)
    except QuizError as exc:
        return _back(request, quiz.pk, exc)
    messages.success(request, _("Das Quiz ist wieder ein Entwurf."))
    return redirect("quizzes:detail", pk=quiz.pk)


@login_required
@require_http_methods(["GET", "POST"])
def copy(request: QuizRequest, pk: int) -> HttpResponse:
    quiz = own_quiz(request.user, pk=pk)
    initial = {"title": publishing.copy_title(quiz.title, current_lang()), "classroom": quiz.classroom_id}
    form = CopyForm(request.POST if request.method == "POST" else None, teacher=request.user, initial=initial)
    if request.method == "POST":
        if form.is_valid():
            try:
                copied = publishing.copy_quiz(
                    quiz=quiz,
                    owner=request.user,
                    classroom=form.cleaned_data["classroom"],
                    title=form.cleaned_data["title"],
                )
            except QuizError as exc:
                form.add_error(None, exc.message(current_lang()))
            else:
                messages.success(request, _("Die Kopie ist als Entwurf angelegt, mit neuen Aufgabenvarianten."))
                return redirect("quizzes:detail", pk=copied.pk)
        return render(request, "quizzes/copy.html", {"quiz": quiz, "form": form}, status=400)
    return render(request, "quizzes/copy.html", {"quiz": quiz, "form": form})


def _download(content: bytes | str, content_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
@require_GET
def export_csv(request: QuizRequest, pk: int) -> HttpResponse:
    """``?trenner=komma`` or ``semikolon``; default: semicolon under German, comma under English.

    The older address ``quizzes:results_csv`` (``/quiz/<pk>/ergebnisse.csv``) stays and always
    gives the comma file, streamed; byte for byte what ``?trenner=komma`` gives here."""
    quiz = own_quiz(request.user, pk=pk)
    lang = current_lang()
    choice = request.GET.get("trenner", "")
    delimiter = {"komma": ",", "semikolon": ";"}.get(choice)
    if choice and delimiter is None:
        error = QuizError(
            "Unbekannter Trenner: möglich sind „semikolon“ und „komma“.",
            "Unknown separator: the choices are “semikolon” and “komma”.",
        )
        return render_error(request, error, links=[(reverse("quizzes:exports", args=[quiz.pk]), _("Alle Formate"))])
    name = slugify(quiz.title) or "quiz"
    return _download(exports.csv_bytes(quiz, lang, delimiter), "text/csv; charset=utf-8", f"{name}-ergebnisse.csv")


@login_required
@require_GET
def export_xlsx(request: QuizRequest, pk: int) -> HttpResponse:
    quiz = own_quiz(request.user, pk=pk)
    name = slugify(quiz.title) or "quiz"
    return _download(
        exports.xlsx_bytes(quiz, current_lang()),
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        f"{name}-ergebnisse.xlsx",
    )


@login_required
@require_GET
def export_items(request: QuizRequest, pk: int, fmt: str) -> HttpResponse:
    """The item analysis (facility, discrimination, common wrong answers) as ``csv`` or ``xlsx``."""
    quiz = own_quiz(request.user, pk=pk)
    name = slugify(quiz.title) or "quiz"
    if fmt == "xlsx":
        return _download(
            exports.item_analysis_xlsx(quiz, current_lang()),
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            f"{name}-aufgabenanalyse.xlsx",
        )
    csv = exports.item_analysis_csv(quiz, current_lang())
    return _download(csv, "text/csv; charset=utf-8", f"{name}-aufgabenanalyse.csv")


@login_required
@require_GET
def export_moodle(request: QuizRequest, pk: int) -> HttpResponse:
    quiz = own_quiz(request.user, pk=pk)
    name = slugify(quiz.title) or "quiz"
    return _download(exports.moodle_xml(quiz, current_lang()), "application/xml; charset=utf-8", f"{name}-moodle.xml")


@login_required
@require_GET
def exports_page(request: QuizRequest, pk: int) -> HttpResponse:
    """The download formats with what each one is for (and what Moodle cannot do)."""
    quiz = own_quiz(request.user, pk=pk)
    lang = current_lang()
    context = {
        "quiz": quiz,
        "skipped": exports.skipped_positions(quiz),
        "moodle_note": exports.moodle_note(lang),
        "default_csv": "komma" if exports.default_delimiter(lang) == "," else "semikolon",
        "stable_csv": reverse("quizzes:results_csv", args=[quiz.pk]),
    }
    return render(request, "quizzes/exports.html", context)


class OverrideForm(forms.Form):
    credit = forms.FloatField(min_value=0, max_value=1)
    comment = forms.CharField(required=False, max_length=grading.MAX_COMMENT)


@login_required
@require_POST
def override(request: QuizRequest, pk: int, attempt_pk: int, position: int) -> HttpResponse:
    """Set one item's points by hand with a comment the student sees (``services.grading``), for
    an answered item or one the student left unanswered."""
    quiz = own_quiz(request.user, pk=pk)
    attempt = quiz_attempt(quiz, pk=attempt_pk)
    item = item_at(quiz, position=position)
    back = reverse("quizzes:attempt_detail", args=[quiz.pk, attempt.pk])
    form = OverrideForm(request.POST)
    if not form.is_valid():
        message = _("Bitte gib Punkte zwischen 0 und 1 an (Kommentar höchstens 1000 Zeichen).")
        return render_error(request, message, 400, links=[(back, _("Zurück"))])
    try:
        grading.override_item_score(
            attempt=attempt,
            item=item,
            teacher=request.user,
            credit=form.cleaned_data["credit"],
            comment=form.cleaned_data["comment"],
        )
    except QuizError as exc:
        return render_error(request, exc, links=[(back, _("Zurück"))])
    messages.success(request, _("Die Punkte wurden gespeichert."))
    return redirect(f"{back}#item-{position}")

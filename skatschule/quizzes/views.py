"""Quiz pages. Thin: the logic is in ``services``.

Everything needs a login. Teachers reach only their own quizzes, students only quizzes of
their classes and their own attempts; anything else is a 404. Unreadable answers get a 400,
late ones (submitted, time up, quiz closed) a 409, both with the message; with htmx the
message is a partial that ``static/quizzes/quiz.js`` lets htmx swap in.
"""

from __future__ import annotations

import csv
import functools
import time
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import OperationalError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from skatschule.classrooms.services import classrooms_taught, is_teacher
from skatschule.home.errors import render_error
from skatschule.exercises.base import AnswerError
from skatschule.home.language import current_lang

from . import services
from .forms import LOCKED_NOTE_ID, QuizForm
from .models import Quiz, QuizAnswer, QuizAttempt
from .presenters import present_item, saved_values
from .services import QuizError


def _error(request: HttpRequest, error: Any, status: int | None = None, back: str = "") -> HttpResponse:
    """The error page, or for htmx the message as a partial (``quiz.js`` lets htmx swap it in)."""
    if request.htmx:
        lead = _("Nicht gespeichert.")
        return render_error(request, error, status, template="training/partials/answer_error.html", lead=lead)
    return render_error(request, error, status, links=[(back or reverse("quizzes:index"), _("Zurück"))])


def _retry_when_locked(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Run a writing view again when SQLite reports a lock (concurrent double submits).

    A safety net: settings make SQLite writers queue (BEGIN IMMEDIATE, a 20 s busy timeout),
    so a lock error should not reach here any more.

    The services are idempotent (one answer row per item, submit once), so a retry is safe.
    If the database stays locked the visitor gets a 503 with a message, not a 500.
    """

    @functools.wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        for pause in (0.05, 0.1, 0.2, 0.4, 0.8):
            try:
                return view(request, *args, **kwargs)
            except OperationalError as exc:
                if "locked" not in str(exc):
                    raise
                time.sleep(pause)
        return _error(request, _("Gerade ist viel los. Bitte versuche es gleich noch einmal."), 503)

    return wrapper


def _require_teacher(request: HttpRequest) -> None:
    if not is_teacher(request.user):
        raise Http404("not a teacher")


# --- overview ---------------------------------------------------------------------------------


@login_required
@require_GET
def index(request: HttpRequest) -> HttpResponse:
    now = timezone.now()
    teaching = []
    if is_teacher(request.user):
        for quiz in Quiz.objects.filter(owner=request.user).select_related("classroom"):
            teaching.append({"quiz": quiz, "state": services.quiz_state(quiz, now), **services.quiz_summary(quiz)})
    mine = []
    for quiz in services.quizzes_for_student(request.user):
        attempts = list(quiz.attempts.filter(student=request.user).order_by("number"))
        mine.append(
            {
                "quiz": quiz,
                "state": services.quiz_state(quiz, now),
                "attempts": attempts,
                "left": max(0, quiz.max_attempts - len(attempts)),
            }
        )
    context = {"teaching": teaching, "mine": mine, "is_teacher": is_teacher(request.user)}
    return render(request, "quizzes/index.html", context)


# --- building (teachers) ----------------------------------------------------------------------


def _builder_page(request: HttpRequest, form: QuizForm, status: int = 200) -> HttpResponse:
    """The builder form, for a new quiz (``form.quiz`` is None) or for editing one."""
    context = {"form": form, "quiz": form.quiz, "locked": form.locked, "locked_note_id": LOCKED_NOTE_ID}
    return render(request, "quizzes/builder.html", context, status=status)


def _posted(request: HttpRequest) -> Any:
    return request.POST if request.method == "POST" else None


@login_required
@require_http_methods(["GET", "POST"])
def create(request: HttpRequest) -> HttpResponse:
    _require_teacher(request)
    lang = current_lang()
    classes = classrooms_taught(request.user)
    if not classes.exists():
        messages.info(request, _("Lege zuerst eine Klasse an."))
        return redirect("classrooms:index")
    initial: dict[str, Any] = {}
    wanted = request.GET.get("klasse", "")
    if wanted.isdigit() and classes.filter(pk=wanted).exists():
        initial["classroom"] = int(wanted)
    form = QuizForm(_posted(request), teacher=request.user, lang=lang, initial=initial)
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            try:
                quiz = services.create_quiz(
                    request.user,
                    data["classroom"],
                    data["title"],
                    form.pool,
                    data["item_count"],
                    difficulty=data["difficulty"],
                    variants=data["variants"],
                    opens_at=data["opens_at"],
                    closes_at=data["closes_at"],
                    time_limit_minutes=data["time_limit_minutes"],
                    max_attempts=data["max_attempts"],
                    show_answers=data["show_answers"],
                    sources={"kinds": data["kinds"], "lessons": data["lessons"], "rules": data["rules"]},
                )
            except QuizError as exc:
                form.add_error(None, exc.message(lang))
            else:
                messages.success(request, _("Das Quiz ist angelegt."))
                return redirect("quizzes:detail", pk=quiz.pk)
        return _builder_page(request, form, status=400)
    return _builder_page(request, form)


@login_required
@require_http_methods(["GET", "POST"])
@_retry_when_locked
def edit(request: HttpRequest, pk: int) -> HttpResponse:
    """The builder filled in with the quiz; ``services.update_quiz`` decides what may change."""
    quiz = services.own_quiz(request.user, pk)
    lang = current_lang()

    def make_form(locked: bool) -> QuizForm:
        return QuizForm(_posted(request), teacher=request.user, lang=lang, quiz=quiz, locked=locked)

    form = make_form(services.has_attempts(quiz))
    if request.method != "POST":
        return _builder_page(request, form)
    status = 400
    if form.is_valid():
        try:
            services.update_quiz(quiz, request.user, **form.changes())
        except QuizError as exc:
            if isinstance(exc, services.QuizLocked) and not form.locked:
                # Someone started while the teacher was editing: show the locked form now.
                form = make_form(True)
                form.is_valid()
            form.add_error(None, exc.message(lang))
            status = exc.status
        else:
            messages.success(request, _("Die Änderungen sind gespeichert."))
            return redirect("quizzes:detail", pk=quiz.pk)
    return _builder_page(request, form, status=status)


@login_required
@require_GET
def detail(request: HttpRequest, pk: int) -> HttpResponse:
    quiz = services.own_quiz(request.user, pk)
    lang = current_lang()
    items = [{"item": item, "title": services._kind_title(item.kind, lang)} for item in quiz.items.all()]
    context = {"quiz": quiz, "items": items, "state": services.quiz_state(quiz), **services.quiz_summary(quiz)}
    return render(request, "quizzes/detail.html", context)


@login_required
@require_POST
def close_now(request: HttpRequest, pk: int) -> HttpResponse:
    quiz = services.own_quiz(request.user, pk)
    services.close_quiz(quiz)
    messages.success(request, _("Das Quiz ist beendet."))
    return redirect("quizzes:detail", pk=quiz.pk)


@login_required
@require_GET
def preview(request: HttpRequest, pk: int) -> HttpResponse:
    """The quiz as a student sees it (the variant of the teacher's own id). Nothing is stored."""
    quiz = services.own_quiz(request.user, pk)
    lang = current_lang()
    items = [present_item(quiz, item, request.user.pk, lang) for item in quiz.items.all()]
    for entry in items:
        entry["save_url"] = _url("quizzes:preview_answer", pk=quiz.pk, position=entry["position"])
    return render(request, "quizzes/take.html", {"quiz": quiz, "items": items, "preview": True, "answered": 0})


@login_required
@require_POST
def preview_answer(request: HttpRequest, pk: int, position: int) -> HttpResponse:
    quiz = services.own_quiz(request.user, pk)
    item = services.item_at(quiz, position)
    lang = current_lang()
    try:
        feedback = services.grade_for_display(quiz, item, request.user.pk, request.POST.getlist("answer"))
    except AnswerError as exc:
        return _error(request, exc)
    entry = present_item(quiz, item, request.user.pk, lang, feedback=feedback)
    return render(request, "quizzes/partials/saved.html", {**entry, "preview": True, "show": True})


def _url(name: str, **kwargs: Any) -> str:
    return reverse(name, kwargs=kwargs)


# --- results (teachers) -----------------------------------------------------------------------


@login_required
@require_GET
def results(request: HttpRequest, pk: int) -> HttpResponse:
    quiz = services.own_quiz(request.user, pk)
    lang = current_lang()
    rows = services.student_results(quiz)
    items = list(quiz.items.all())
    table = [
        {"row": row, "cells": [row.answers.get(item.position) for item in items]} for row in rows
    ]
    context = {"quiz": quiz, "items": items, "table": table, "stats": services.item_stats(quiz, lang)}
    return render(request, "quizzes/results.html", context)


@login_required
@require_GET
def results_csv(request: HttpRequest, pk: int) -> HttpResponse:
    quiz = services.own_quiz(request.user, pk)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    name = slugify(quiz.title) or "quiz"
    response["Content-Disposition"] = f'attachment; filename="{name}-ergebnisse.csv"'
    response.write("\ufeff")  # so spreadsheet programs read UTF-8
    writer = csv.writer(response)
    writer.writerows(services.csv_rows(quiz, current_lang()))
    return response


def _attempt_items(attempt: QuizAttempt, lang: str, with_answers: bool) -> list[dict[str, Any]]:
    """Each item with the student's answer; grades and right answers only if ``with_answers``."""
    quiz = attempt.quiz
    answers = {a.item_id: a for a in attempt.answers.all()}
    entries = []
    for item in quiz.items.all():
        answer = answers.get(item.pk)
        feedback = None
        given = ""
        if answer is not None:
            feedback = services.grade_for_display(quiz, item, attempt.student_id, answer.values, attempt.number)
            given = feedback.given_en if lang == "en" else feedback.given_de
        entry = present_item(
            quiz, item, attempt.student_id, lang, saved=saved_values(answer), feedback=feedback if with_answers else None,
            attempt=attempt.number,
        )
        entry["answer"] = answer
        entry["given"] = given
        if with_answers and answer is None:
            entry["right_answer"] = services.right_answer(quiz, item, attempt.student_id, lang, attempt.number)
        entries.append(entry)
    return entries


@login_required
@require_GET
def attempt_detail(request: HttpRequest, pk: int, attempt_pk: int) -> HttpResponse:
    quiz = services.own_quiz(request.user, pk)
    attempt = services.quiz_attempt(quiz, attempt_pk)
    services.finalize_expired(quiz.attempts.filter(pk=attempt.pk))
    attempt.refresh_from_db()
    context = {
        "quiz": quiz,
        "attempt": attempt,
        "row": services.ResultRow(attempt, {}, quiz.items.count()),
        "entries": _attempt_items(attempt, current_lang(), True),
        "show_answers": True,
        "teacher_view": True,
    }
    return render(request, "quizzes/result.html", context)


@login_required
@require_GET
def print_sheet(request: HttpRequest, pk: int) -> HttpResponse:
    quiz = services.own_quiz(request.user, pk)
    lang = current_lang()
    key = services.answer_key(quiz, lang)
    from skatschule.training.presenters import present_question

    entries = [{"entry": e, "q": present_question(e.question, lang)} for e in key]
    return render(request, "quizzes/print.html", {"quiz": quiz, "entries": entries})


# --- taking (students) ------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
@_retry_when_locked
def start(request: HttpRequest, pk: int) -> HttpResponse:
    quiz = services.student_quiz(request.user, pk)
    if request.method == "POST":
        try:
            attempt = services.start_attempt(quiz, request.user)
        except QuizError as exc:
            return _error(request, exc)
        return redirect("quizzes:take", public_id=attempt.public_id)
    services.finalize_expired(quiz.attempts.filter(student=request.user))
    attempts = list(quiz.attempts.filter(student=request.user).order_by("number"))
    context = {
        "quiz": quiz,
        "state": services.quiz_state(quiz),
        "attempts": attempts,
        "open_attempt": next((a for a in attempts if a.submitted_at is None), None),
        "left": max(0, quiz.max_attempts - len(attempts)),
        "item_count": quiz.items.count(),
    }
    return render(request, "quizzes/start.html", context)


@login_required
@require_GET
def take(request: HttpRequest, public_id: Any) -> HttpResponse:
    attempt = services.own_attempt(request.user, public_id)
    services.finalize_expired(QuizAttempt.objects.filter(pk=attempt.pk))
    attempt.refresh_from_db()
    if attempt.submitted_at is not None:
        return redirect("quizzes:my_result", public_id=attempt.public_id)
    quiz = attempt.quiz
    lang = current_lang()
    answers = {a.item_id: a for a in attempt.answers.all()}
    immediate = quiz.show_answers == Quiz.ShowAnswers.IMMEDIATELY
    items = []
    for item in quiz.items.all():
        answer = answers.get(item.pk)
        feedback = None
        if immediate and answer is not None:
            feedback = services.grade_for_display(quiz, item, attempt.student_id, answer.values, attempt.number)
        entry = present_item(
            quiz, item, attempt.student_id, lang, saved=saved_values(answer), feedback=feedback, attempt=attempt.number
        )
        entry["save_url"] = _url("quizzes:save", public_id=attempt.public_id, position=item.position)
        entry["answer"] = answer
        items.append(entry)
    context = {
        "quiz": quiz,
        "attempt": attempt,
        "items": items,
        "cutoff": services.cutoff(attempt),
        "answered": len(answers),
        "preview": False,
    }
    return render(request, "quizzes/take.html", context)


@login_required
@require_POST
@_retry_when_locked
def save(request: HttpRequest, public_id: Any, position: int) -> HttpResponse:
    attempt = services.own_attempt(request.user, public_id)
    quiz = attempt.quiz
    item = services.item_at(quiz, position)
    lang = current_lang()
    take_url = _url("quizzes:take", public_id=attempt.public_id)
    try:
        saved = services.save_answer(attempt, item, request.POST.getlist("answer"))
    except (AnswerError, QuizError) as exc:
        return _error(request, exc, back=take_url)
    if not request.htmx:
        messages.success(request, _("Antwort gespeichert."))
        return redirect(take_url + f"#item-{item.position}")
    show = quiz.show_answers == Quiz.ShowAnswers.IMMEDIATELY
    entry = present_item(
        quiz, item, attempt.student_id, lang, saved=saved.answer.values, feedback=saved.feedback if show else None,
        attempt=attempt.number,
    )
    context = {
        **entry,
        "show": show,
        "changed": saved.changed,
        "given": saved.feedback.given_en if lang == "en" else saved.feedback.given_de,
        "answered": QuizAnswer.objects.filter(attempt=attempt).count(),
        "total": quiz.items.count(),
        "oob": True,
    }
    return render(request, "quizzes/partials/saved.html", context)


@login_required
@require_POST
@_retry_when_locked
def submit(request: HttpRequest, public_id: Any) -> HttpResponse:
    attempt = services.own_attempt(request.user, public_id)
    attempt, done = services.submit(attempt)
    if done:
        messages.success(request, _("Abgegeben. Danke!"))
    return redirect("quizzes:my_result", public_id=attempt.public_id)


@login_required
@require_GET
def my_result(request: HttpRequest, public_id: Any) -> HttpResponse:
    attempt = services.own_attempt(request.user, public_id)
    services.finalize_expired(QuizAttempt.objects.filter(pk=attempt.pk))
    attempt.refresh_from_db()
    if attempt.submitted_at is None:
        return redirect("quizzes:take", public_id=attempt.public_id)
    quiz = attempt.quiz
    show = services.answers_visible(attempt)
    context = {
        "quiz": quiz,
        "attempt": attempt,
        "row": services.ResultRow(attempt, {}, quiz.items.count()),
        "entries": _attempt_items(attempt, current_lang(), show),
        "show_answers": show,
        "teacher_view": False,
        "left": services.attempts_left(quiz, request.user) if services.quiz_state(quiz) == "open" else 0,
    }
    return render(request, "quizzes/result.html", context)

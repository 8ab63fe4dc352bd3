"""Quiz pages. Thin: the logic is in ``services``.

Everything needs a login. Teachers reach only their own quizzes, students only quizzes of
their classes and their own attempts; anything else is a 404. Unreadable answers get a 400,
late ones (submitted, time up, quiz closed) a 409, both with the message; with htmx the
message is a partial that ``static/quizzes/quiz.js`` lets htmx swap in.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from skatschule.classrooms.services import is_teacher
from skatschule.core.db import retry_when_locked
from skatschule.core.errors import render_error
from skatschule.core.language import current_lang
from skatschule.core.spreadsheets import csv_cells
from skatschule.exercises.base import AnswerError
from skatschule.training.presenters import present_question

from . import errors, publishing, questions, take_page
from .errors import QuizError
from .exports import csv_lines
from .forms import LOCKED_NOTE_ID, QuizForm
from .models import QuizAttempt
from .presenters import earned, present_item, result_cells, saved_values, shown_item_stats
from .questions import answers_visible, immediate_feedback, teacher_item_title
from .requests import QuizRequest
from .selectors.analysis import item_stats
from .selectors.live import in_open_live_session, open_live_session
from .selectors.results import ResultRow, grades_page, overrides_of, results_page
from .selectors.taking import (
    answer_key,
    answered_count,
    answers_by_item,
    attempts_left,
    classes_with_quizzes,
    grades_by_item,
    item_count,
    own_attempt,
    quiz_items,
    quizzes_for_student_with_attempts,
    right_answer,
    student_attempts,
    student_quiz,
)
from .selectors.teaching import (
    has_attempts,
    item_at,
    item_positions,
    own_quiz,
    quiz_attempt,
    quiz_summary,
    quizzes_taught_with_counts,
    taught_class_pk,
    teaches_a_class,
)
from .services import attempts, authoring


def _error(request: QuizRequest, error: Any, status: int | None = None, back: str = "") -> HttpResponse:
    """The error page, or for htmx the message as a partial (``quiz.js`` lets htmx swap it in)."""
    if request.htmx:
        lead = _("Nicht gespeichert.")
        return render_error(request, error, status, template="training/partials/answer_error.html", lead=lead)
    return render_error(request, error, status, links=[(back or reverse("quizzes:index"), _("Zurück"))])


def _busy(request: QuizRequest) -> HttpResponse:
    return _error(request, _("Gerade ist viel los. Bitte versuche es gleich noch einmal."), 503)


# The attempt services are idempotent (one answer row per item, submit once), so a retry is safe.
_retry_when_locked = retry_when_locked(_busy)


def _require_teacher(request: QuizRequest) -> None:
    if not is_teacher(user=request.user):
        raise Http404("not a teacher")


# --- overview ---------------------------------------------------------------------------------


@login_required
@require_GET
def index(request: QuizRequest) -> HttpResponse:
    now = timezone.now()
    teaching = []
    if is_teacher(user=request.user):
        for taught in quizzes_taught_with_counts(request.user):  # one annotated query
            teaching.append(
                {
                    "quiz": taught.quiz,
                    "state": questions.quiz_state(taught.quiz, now),
                    "started": taught.started,
                    "submitted": taught.submitted,
                }
            )
    mine = []
    for found in quizzes_for_student_with_attempts(request.user):  # two queries in all
        quiz, tries = found.quiz, found.attempts
        mine.append(
            {
                "quiz": quiz,
                "state": questions.quiz_state(quiz, now),
                "attempts": tries,
                "left": max(0, quiz.max_attempts - len(tries)),
            }
        )
    context = {"teaching": teaching, "mine": mine, "is_teacher": is_teacher(user=request.user)}
    context["my_classes"] = classes_with_quizzes(request.user)  # "noch keins" per class
    return render(request, "quizzes/index.html", context)


# --- building (teachers) ----------------------------------------------------------------------


def _builder_page(request: QuizRequest, form: QuizForm, status: int = 200) -> HttpResponse:
    """The builder form, for a new quiz (``form.quiz`` is None) or for editing one."""
    context = {"form": form, "quiz": form.quiz, "locked": form.locked, "locked_note_id": LOCKED_NOTE_ID}
    return render(request, "quizzes/builder.html", context, status=status)


def _posted(request: QuizRequest) -> Any:
    return request.POST if request.method == "POST" else None


@login_required
@require_http_methods(["GET", "POST"])
def create(request: QuizRequest) -> HttpResponse:
    _require_teacher(request)
    lang = current_lang()
    if not teaches_a_class(request.user):
        messages.info(request, _("Lege zuerst eine Klasse an."))
        return redirect("classrooms:index")
    initial: dict[str, Any] = {}
    wanted = taught_class_pk(request.user, wanted=request.GET.get("klasse", ""))
    if wanted is not None:
        initial["classroom"] = wanted
    form = QuizForm(_posted(request), teacher=request.user, lang=lang, initial=initial)
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            try:
                quiz = authoring.create_quiz(
                    owner=request.user,
                    classroom=data["classroom"],
                    title=data["title"],
                    pool=form.pool,
                    item_count=data["item_count"],
                    difficulty=data["difficulty"],
                    variants=data["variants"],
                    opens_at=data["opens_at"],
                    closes_at=data["closes_at"],
                    time_limit_minutes=data["time_limit_minutes"],
                    max_attempts=data["max_attempts"],
                    show_answers=data["show_answers"],
                    partial_credit=data["partial_credit"],
                    grading_policy=data["grading_policy"],
                    sources={"kinds": data["kinds"], "lessons": data["lessons"], "rules": data["rules"]},
                    draft=True,
                )
            except QuizError as exc:
                form.add_error(None, exc.message(lang))
            else:
                messages.success(
                    request,
                    _("Das Quiz ist als Entwurf angelegt. Sieh es dir in der Vorschau an und veröffentliche es dann."),
                )
                return redirect("quizzes:detail", pk=quiz.pk)
        return _builder_page(request, form, status=400)
    return _builder_page(request, form)


@login_required
@require_http_methods(["GET", "POST"])
@_retry_when_locked
def edit(request: QuizRequest, pk: int) -> HttpResponse:
    """The builder filled in with the quiz; ``authoring.update_quiz`` decides what may change."""
    quiz = own_quiz(request.user, pk=pk)
    lang = current_lang()

    def make_form(locked: bool) -> QuizForm:
        return QuizForm(_posted(request), teacher=request.user, lang=lang, quiz=quiz, locked=locked)

    form = make_form(has_attempts(quiz))
    if request.method != "POST":
        return _builder_page(request, form)
    status = 400
    if form.is_valid():
        try:
            authoring.update_quiz(quiz=quiz, editor=request.user, changes=form.changes())
        except QuizError as exc:
            if isinstance(exc, errors.QuizLocked) and not form.locked:
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
def detail(request: QuizRequest, pk: int) -> HttpResponse:
    quiz = own_quiz(request.user, pk=pk)
    lang = current_lang()
    items = [{"item": item, "title": teacher_item_title(item.kind, lang)} for item in quiz_items(quiz)]
    context = {"quiz": quiz, "items": items, "state": questions.quiz_state(quiz), **quiz_summary(quiz)}
    context["publication"] = publishing.publication_state(quiz)
    return render(request, "quizzes/detail.html", context)


@login_required
@require_POST
def close_now(request: QuizRequest, pk: int) -> HttpResponse:
    quiz = own_quiz(request.user, pk=pk)
    authoring.close_quiz(quiz=quiz)
    messages.success(request, _("Das Quiz ist beendet."))
    return redirect("quizzes:detail", pk=quiz.pk)


@login_required
@require_GET
def preview(request: QuizRequest, pk: int) -> HttpResponse:
    """The quiz as a student sees it (the variant of the teacher's own id). Nothing is stored."""
    quiz = own_quiz(request.user, pk=pk)
    lang = current_lang()
    items = [present_item(quiz, item, request.user.pk, lang) for item in quiz_items(quiz)]
    for entry in items:
        entry["save_url"] = _url("quizzes:preview_answer", pk=quiz.pk, position=entry["position"])
    context = {"quiz": quiz, "items": items, "preview": True, "answered": 0, "total": len(items)}
    return render(request, "quizzes/take.html", context)


@login_required
@require_POST
def preview_answer(request: QuizRequest, pk: int, position: int) -> HttpResponse:
    quiz = own_quiz(request.user, pk=pk)
    item = item_at(quiz, position=position)
    lang = current_lang()
    try:
        feedback = questions.grade_for_display(quiz, item, request.user.pk, request.POST.getlist("answer"))
    except AnswerError as exc:
        return _error(request, exc)
    entry = present_item(quiz, item, request.user.pk, lang, feedback=feedback)
    return render(request, "quizzes/partials/saved.html", {**entry, "preview": True, "show": True})


def _url(name: str, **kwargs: Any) -> str:
    return reverse(name, kwargs=kwargs)


# --- results (teachers) -----------------------------------------------------------------------


@login_required
@require_GET
def results(request: QuizRequest, pk: int) -> HttpResponse:
    quiz = own_quiz(request.user, pk=pk)
    lang = current_lang()
    page, lines = results_page(quiz, page=request.GET.get("seite", 1))
    items = item_positions(quiz)
    rows = [(line, result_cells(line.cells)) for line in lines]
    stats = shown_item_stats(quiz, item_stats(quiz, lang=lang), lang)
    grade_pages, grades = grades_page(quiz, page=request.GET.get("noten", 1))
    context = {
        "quiz": quiz,
        "items": items,
        "rows": rows,
        "page": page,
        "stats": stats,
        "grades": grades,
        "grades_page": grade_pages,
    }
    return render(request, "quizzes/results.html", context)


@login_required
@require_GET
def results_csv(request: QuizRequest, pk: int) -> StreamingHttpResponse:
    """The results as comma CSV at the first, stable address ``/quiz/<pk>/ergebnisse.csv``.

    Always commas (whatever the language; the export page offers it as "CSV mit Komma
    (international)"), UTF-8 with a byte-order mark, CRLF line ends, column heads in the page's
    language, scores as numbers with a decimal point, formula-guarded cells (``csv_lines``).
    Streamed in chunks of attempts, so a large class costs constant memory. The same bytes as
    ``quizzes:export_csv?trenner=komma``.
    """
    quiz = own_quiz(request.user, pk=pk)
    lines = csv_lines(quiz, current_lang())
    writer = csv.writer(_Echo())

    def body() -> Iterator[str]:
        yield "\ufeff"  # so spreadsheet programs read UTF-8
        for line in lines:
            yield writer.writerow(csv_cells(line, ","))

    response = StreamingHttpResponse(body(), content_type="text/csv; charset=utf-8")  # constant memory
    name = slugify(quiz.title) or "quiz"
    response["Content-Disposition"] = f'attachment; filename="{name}-ergebnisse.csv"'
    return response


class _Echo:
    """A file for csv.writer that hands each written line back instead of storing it."""

    def write(self, value: str) -> str:
        return value


def _attempt_items(attempt: QuizAttempt, lang: str, with_answers: bool, teacher: bool = False) -> list[dict[str, Any]]:
    """Each item with the student's answer and its grade row (``grade``: the answer, or the
    teacher's grade of an item left unanswered); grades and right answers only if ``with_answers``."""
    quiz = attempt.quiz
    grades = grades_by_item(attempt)
    entries = []
    for item in quiz_items(quiz):
        grade = grades.get(item.pk)
        answer = grade if grade is not None and grade.answered else None
        feedback = None
        given = ""
        if answer is not None:
            feedback = questions.grade_for_display(quiz, item, attempt.student_id, answer.values, attempt.number)
            given = feedback.given.get(lang)
        entry = present_item(
            quiz,
            item,
            attempt.student_id,
            lang,
            saved=saved_values(answer),
            feedback=feedback if with_answers else None,
            attempt=attempt.number,
            earned=earned(grade),
        )
        entry["answer"] = answer
        entry["grade"] = grade
        entry["given"] = given
        entry["overrides"] = overrides_of(grade) if teacher and grade is not None else []
        if with_answers and answer is None:
            entry["right_answer"] = right_answer(
                quiz, item=item, student_id=attempt.student_id, lang=lang, attempt=attempt.number
            )
        entries.append(entry)
    return entries


@login_required
@require_GET
def attempt_detail(request: QuizRequest, pk: int, attempt_pk: int) -> HttpResponse:
    quiz = own_quiz(request.user, pk=pk)
    attempt = quiz_attempt(quiz, pk=attempt_pk)
    attempt = attempts.finalize_if_expired(attempt=attempt)
    context = {
        "quiz": quiz,
        "attempt": attempt,
        "row": ResultRow(attempt, {}, item_count(quiz)),
        "entries": _attempt_items(attempt, current_lang(), True, teacher=True),
        "show_answers": True,
        "teacher_view": True,
    }
    return render(request, "quizzes/result.html", context)


@login_required
@require_GET
def print_sheet(request: QuizRequest, pk: int) -> HttpResponse:
    quiz = own_quiz(request.user, pk=pk)
    lang = current_lang()
    key = answer_key(quiz, lang=lang)

    entries = [{"entry": e, "q": present_question(e.question, lang)} for e in key]
    return render(request, "quizzes/print.html", {"quiz": quiz, "entries": entries})


# --- taking (students) ------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
@_retry_when_locked
def start(request: QuizRequest, pk: int) -> HttpResponse:
    quiz = student_quiz(request.user, pk=pk)
    if request.method == "POST":
        try:
            attempt = attempts.start_attempt(quiz=quiz, student=request.user)
        except QuizError as exc:
            return _error(request, exc)
        return redirect("quizzes:take", public_id=attempt.public_id)
    attempts.finalize_students_attempts(quiz=quiz, student=request.user)
    tries = student_attempts(quiz, student=request.user)
    context = {
        "quiz": quiz,
        "state": questions.quiz_state(quiz),
        "attempts": tries,
        "open_attempt": next((a for a in tries if a.submitted_at is None), None),
        "left": max(0, quiz.max_attempts - len(tries)),
        "item_count": item_count(quiz),
    }
    return render(request, "quizzes/start.html", context)


@login_required
@require_GET
def take(request: QuizRequest, public_id: Any) -> HttpResponse:
    attempt = own_attempt(request.user, public_id=public_id)
    attempt = attempts.finalize_if_expired(attempt=attempt)
    if attempt.submitted_at is not None:
        return redirect("quizzes:my_result", public_id=attempt.public_id)
    if open_live_session(attempt.quiz) is not None:  # answered one item at a time, on the live page
        return redirect("quizzes:live_join", pk=attempt.quiz_id)
    quiz = attempt.quiz
    answers = answers_by_item(attempt)
    items = list(quiz_items(quiz))
    context = {
        "quiz": quiz,
        "attempt": attempt,
        "items_html": take_page.items_html(
            request,
            attempt=attempt,
            items=items,
            answers=answers,
            immediate=immediate_feedback(quiz),
        ),
        "total": len(items),
        "cutoff": questions.cutoff(attempt),
        "answered": len(answers),
        "preview": False,
    }
    return render(request, "quizzes/take.html", context)


@login_required
@require_POST
@_retry_when_locked
def save(request: QuizRequest, public_id: Any, position: int) -> HttpResponse:
    attempt = own_attempt(request.user, public_id=public_id)
    quiz = attempt.quiz
    item = item_at(quiz, position=position)
    lang = current_lang()
    take_url = _url("quizzes:take", public_id=attempt.public_id)
    if in_open_live_session(attempt):
        live = errors.QuizClosed(
            "Diese Aufgaben werden gerade live beantwortet.", "These items are being answered live."
        )
        return _error(request, live, back=_url("quizzes:live_join", pk=quiz.pk))
    try:
        saved = attempts.save_answer(attempt=attempt, item=item, values=request.POST.getlist("answer"))
    except (AnswerError, QuizError) as exc:
        return _error(request, exc, back=take_url)
    if not request.htmx:
        messages.success(request, _("Antwort gespeichert."))
        return redirect(take_url + f"#item-{item.position}")
    show = immediate_feedback(quiz)
    entry = present_item(
        quiz,
        item,
        attempt.student_id,
        lang,
        saved=saved.answer.values,
        feedback=saved.feedback if show else None,
        attempt=attempt.number,
        earned=earned(saved.answer),
    )
    context = {
        **entry,
        "show": show,
        "changed": saved.changed,
        "given": saved.feedback.given.get(lang),
        "answered": answered_count(attempt),
        "total": item_count(quiz),
        "oob": True,
    }
    return render(request, "quizzes/partials/saved.html", context)


@login_required
@require_POST
@_retry_when_locked
def submit(request: QuizRequest, public_id: Any) -> HttpResponse:
    attempt = own_attempt(request.user, public_id=public_id)
    attempt, done = attempts.submit(attempt=attempt)
    if done:
        messages.success(request, _("Abgegeben. Danke!"))
    return redirect("quizzes:my_result", public_id=attempt.public_id)


@login_required
@require_GET
def my_result(request: QuizRequest, public_id: Any) -> HttpResponse:
    attempt = own_attempt(request.user, public_id=public_id)
    attempt = attempts.finalize_if_expired(attempt=attempt)
    if attempt.submitted_at is None:
        return redirect("quizzes:take", public_id=attempt.public_id)
    quiz = attempt.quiz
    show = answers_visible(attempt)
    context = {
        "quiz": quiz,
        "attempt": attempt,
        "row": ResultRow(attempt, {}, item_count(quiz)),
        "entries": _attempt_items(attempt, current_lang(), show),
        "show_answers": show,
        "teacher_view": False,
        "left": attempts_left(quiz, student=request.user) if questions.quiz_state(quiz) == "open" else 0,
    }
    return render(request, "quizzes/result.html", context)

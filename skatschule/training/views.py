"""Training pages. Thin: the logic is in ``services``.

Errors never become a 500:

- unknown exercise type or lesson, a uuid that is not the visitor's: 404;
- a bad ``?stufe=``: 400 with the message on the page;
- an answer that cannot be read: without htmx a 400 page with the form and the message;
  **with htmx a 200** carrying the error partial and ``HX-Reswap: innerHTML``, because htmx
  does not swap 4xx responses by default. The message lands in the exercise's feedback area.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from skatschule.cards.context_processors import current_deck
from skatschule.core.errors import message_in
from skatschule.core.language import current_lang
from skatschule.engine import SkatError
from skatschule.engine.numbers import plain_number
from skatschule.exercises.base import AnswerError
from skatschule.http import HtmxHttpRequest
from skatschule.owners import Owner, owner_for

from .lessons import Lesson, get_activity, get_lesson, lesson_for_exercise, render_lesson
from .models import Attempt, IssuedExercise
from .presenters import given_again, present_feedback, present_marks, present_question
from .registry import exercise_types, get_type
from .selectors import LessonProgress, Suggestion, lesson_progress_for, next_step, progress
from .services import auction_play, review, variants
from .services.issuing import (
    BadDifficulty,
    Submitted,
    clean_answer,
    exercise_type,
    get_issued,
    issue,
    question_for,
    submit,
)


def _deck(request: HttpRequest) -> str:
    return current_deck(request)


def _bad_request(request: HttpRequest, message: str) -> HttpResponse:
    return render(request, "training/error.html", {"message": message}, status=400)


def lesson_of(issued: IssuedExercise) -> Lesson | None:
    """The exercise's lesson, or the lesson that has this step."""
    lesson = get_lesson(issued.lesson) if issued.lesson else None
    return lesson or lesson_for_exercise(issued.kind, issued.difficulty)


def progress_for(owner: Owner, issued: IssuedExercise, state: dict[str, Any] | None = None) -> LessonProgress | None:
    """The progress bar shown with an exercise (``state``: the progress just written with an
    answer, saves reading it again)."""
    lesson = lesson_of(issued)
    return lesson_progress_for(owner=owner, lesson=lesson, state=state) if lesson else None


def _marks(issued: IssuedExercise, attempt: Attempt) -> dict[str, Any] | None:
    """The cards of the answered question marked right, wrong or missed (only after the answer)."""
    question = question_for(issued)
    if question.widget not in ("cards", "order"):
        return None
    right = exercise_type(kind=issued.kind).correct_answer(question)
    return present_marks(question, clean_answer(question=question, values=attempt.answer), right)


def _next_url(issued: IssuedExercise) -> str:
    if issued.mode == IssuedExercise.Mode.REVIEW:
        return reverse("training:review")
    if issued.lesson and get_lesson(issued.lesson):
        return reverse("training:lesson", kwargs={"slug": issued.lesson})
    return reverse("training:exercise", kwargs={"kind": issued.kind}) + f"?stufe={issued.difficulty}"


def exercise_context(
    issued: IssuedExercise,
    lesson_progress: LessonProgress | None = None,
    submitted: Submitted | None = None,
    error: str = "",
    next_thing: Suggestion | None = None,
) -> dict[str, Any]:
    lang = current_lang()
    kind = exercise_type(kind=issued.kind)
    return {
        "issued": issued,
        "exercise_title": kind.title(lang),
        "exercise_description": kind.description.get(lang),
        "levels": kind.levels,
        "q": present_question(question_for(issued), lang),
        "fb": present_feedback(submitted.feedback, lang) if submitted is not None else None,
        "attempt": submitted.attempt if submitted is not None else None,
        "attempt_created": submitted.created if submitted is not None else True,
        "error": error,
        "lesson_progress": lesson_progress,
        "next_url": _next_url(issued),
        "next_thing": next_thing,
        "marks": _marks(issued, submitted.attempt) if submitted is not None else None,
    }


@require_GET
def lessons(request: HttpRequest) -> HttpResponse:
    lang = current_lang()
    types = [
        {"slug": slug, "title": kind.title(lang), "levels": range(1, kind.levels + 1), "variant": kind.variant}
        for slug, kind in exercise_types().items()
    ]
    context = {"progress": progress(owner=owner_for(request, create=False)), "types": types}
    return render(request, "training/lessons.html", context)


def _parse_step(value: str | None, count: int) -> int | None:
    if value is None or value == "":
        return None
    step = plain_number(value.strip(), max_digits=3)
    if step is None or not 1 <= step <= count:
        raise ValueError(value)
    return step


@require_GET
def lesson(request: HttpRequest, slug: str) -> HttpResponse:
    found: Lesson | None = get_lesson(slug)
    if found is None:
        raise Http404("no such lesson")
    owner = owner_for(request)
    lang = current_lang()
    try:
        chosen = _parse_step(request.GET.get("stufe"), len(found.steps))
    except ValueError:
        return _bad_request(request, _("Die Stufe muss zwischen 1 und %(n)d liegen.") % {"n": len(found.steps)})
    lesson_progress = lesson_progress_for(owner=owner, lesson=found)
    number = chosen or lesson_progress.current_step
    step = found.steps[number - 1]
    activity = get_activity(step.kind)
    if activity is not None:
        # a step done on another page (a game at the table): a link there, no exercise
        context: dict[str, Any] = {"activity": activity, "lesson_progress": lesson_progress}
    else:
        context = exercise_context(
            issue(kind=step.kind, difficulty=step.level, lesson=found, owner=owner), lesson_progress
        )
    context.update(
        lesson=found,
        lesson_html=render_lesson(found, lang, _deck(request)),
        step_number=number,
        step_chosen=chosen is not None,
    )
    return render(request, "training/lesson.html", context)


@require_GET
def exercise(request: HttpRequest, kind: str) -> HttpResponse:
    if get_type(kind) is None:
        raise Http404("no such exercise type")
    owner = owner_for(request)
    try:
        issued = issue(kind=kind, difficulty=request.GET.get("stufe", "1"), owner=owner)
    except BadDifficulty as exc:
        return _bad_request(request, message_in(exc))
    return render(request, "training/exercise.html", exercise_context(issued, progress_for(owner, issued)))


def answer_error(request: HtmxHttpRequest, owner: Owner, issued: IssuedExercise, exc: AnswerError) -> HttpResponse:
    """An answer that cannot be read: the message in place (htmx), else the exercise again (400)
    with the learner's own values still in the form."""
    if request.htmx:
        response = render(request, "training/partials/answer_error.html", {"message": message_in(exc)})
        response["HX-Reswap"] = "innerHTML"
        return response
    context = exercise_context(issued, progress_for(owner, issued), error=message_in(exc))
    context.update(given_again(context["q"], request.POST.getlist("answer")))
    return render(request, "training/exercise.html", context, status=400)


@require_POST
def answer(request: HtmxHttpRequest, public_id: Any) -> HttpResponse:
    owner = owner_for(request)
    issued = get_issued(public_id=public_id, owner=owner)
    if exercise_type(kind=issued.kind).graded_by_job:  # seconds of grading: never in this request
        refused = AnswerError(
            "Diese Aufgabe wird auf ihrer eigenen Seite bewertet.", "This exercise is graded on its own page."
        )
        return answer_error(request, owner, issued, refused)
    try:
        submitted = submit(issued=issued, owner=owner, values=request.POST.getlist("answer"))
    except AnswerError as exc:
        return answer_error(request, owner, issued, exc)
    state = submitted.progress_state
    practice = issued.mode == IssuedExercise.Mode.PRACTICE
    following = next_step(owner=owner, lesson=lesson_of(issued), state=state, practice=practice)
    context = exercise_context(issued, progress_for(owner, issued, state), submitted, next_thing=following)
    if request.htmx:
        return render(request, "training/partials/answer_result.html", context)
    return render(request, "training/exercise.html", context)


@require_GET
def review_next(request: HttpRequest) -> HttpResponse:
    owner = owner_for(request, create=False)
    # at most a few rows: the first due item of a type that still exists (a level that no longer
    # exists is skipped); the badge counts with COUNT
    for item in review.due_items(owner=owner).filter(kind__in=list(exercise_types()))[:10]:
        if get_type(item.kind) is None:
            continue  # an exercise type that no longer exists
        try:
            issued = variants.issued_for_review(owner=owner, item=item)
        except BadDifficulty:
            continue  # a level that no longer exists
        context = exercise_context(issued, progress_for(owner, issued))
        context["due"] = review.due_count(owner=owner)
        return render(request, "training/exercise.html", context)
    context = {"next_item": review.next_scheduled(owner=owner), "lessons_url": reverse("training:lessons")}
    return render(request, "training/review_empty.html", context)


@require_GET
def dashboard(request: HttpRequest) -> HttpResponse:
    return render(request, "training/dashboard.html", {"progress": progress(owner=owner_for(request, create=False))})


__all__ = ["lessons", "lesson", "exercise", "answer", "review_next", "dashboard"]


# --- Reizen am Tisch: the auction as one seat against the engine ------------------------------

_TABLE_KEY = "auction_table"


def auction_table(request: HttpRequest) -> HttpResponse:
    """GET shows the table; POST ``action=new`` deals again, ``action=<bid>|y|p`` is a step."""
    table = auction_play.Table.from_session(request.session.get(_TABLE_KEY))
    error = ""
    status = 200
    if request.method == "POST":
        action = str(request.POST.get("action", ""))[:10]
        if action == "custom":
            action = str(request.POST.get("custom", ""))[:10]
        if action == "new" or table is None:
            table = auction_play.new_table()
        else:
            try:
                auction_play.play_user_move(table=table, action=action)
            except SkatError as exc:
                error = message_in(exc)
                status = 400
        request.session[_TABLE_KEY] = table.as_session()
    elif table is None:
        table = auction_play.new_table()
        request.session[_TABLE_KEY] = table.as_session()
    context = auction_play.table_context(table=table, lang=current_lang())
    context["error"] = error
    return render(request, "training/auction.html", context, status=status)

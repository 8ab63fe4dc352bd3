"""Casebook pages and the referee exam. Thin: the logic is in :mod:`.services`.

Bad input never becomes a 500: an unknown case, exam or question is a 404; a bad filter or
exam size is a 400 with the message on the page; an answer after the time limit is a 403
with a clear message; an unreadable answer is a 400 with the question shown again.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from skatschule.core.errors import UserError, message_in, render_error
from skatschule.core.language import current_lang
from skatschule.exercises.base import AnswerError
from skatschule.http import HtmxHttpRequest
from skatschule.owners import owner_for
from skatschule.referee.reading import query_of
from skatschule.training.presenters import present_feedback, present_question

from . import cases as casebook
from . import exam_history, group_exams, selectors, services


def _error(request: HttpRequest, error: UserError, exam: Any = None) -> HttpResponse:
    """The error page with the way back: the exam's review if there is one, the casebook, a new exam."""
    links = [(reverse("casebook:index"), _("Zur Fallsammlung")), (reverse("casebook:exam_start"), _("Neue Prüfung"))]
    if exam is not None:
        links.insert(0, (reverse("casebook:exam_review", kwargs={"public_id": exam.public_id}), _("Zur Auswertung")))
    return render_error(request, error, links=links)


@require_GET
def index(request: HtmxHttpRequest) -> HttpResponse:
    category = request.GET.get("kategorie", "")
    rule_id = request.GET.get("regel", "")
    level = request.GET.get("stufe", "")
    query = request.GET.get("q", "")
    try:
        found = selectors.find_cases(category=category, rule=rule_id, level=level, query=query)
    except services.BadFilter as exc:
        return _error(request, exc)
    context = {
        "cases": found,
        "categories": casebook.CATEGORIES,
        "category": category.strip(),
        "rule_id": rule_id.strip(),
        "level": level.strip(),
        "levels": selectors.LEVELS,
        "query": " ".join(query.split()),
        "max_query": selectors.MAX_QUERY_LENGTH,
        "solved": selectors.solved_states(user=request.user),
        "total": len(casebook.load_cases()),
    }
    if request.htmx:
        return render(request, "casebook/partials/case_list.html", context)
    return render(request, "casebook/index.html", context)


def _case_context(request: HttpRequest, case: casebook.Case) -> dict[str, Any]:
    """What a case page shows before an answer: situation, question and the answer form."""
    lang = current_lang()
    return {
        "case": case,
        "category": case.category_obj,
        "q": present_question(services.case_question(case=case), lang),
        "solved_state": selectors.solved_states(user=request.user).get(case.id, ""),
    }


@require_GET
def case_detail(request: HttpRequest, case_id: str) -> HttpResponse:
    case = casebook.get_case(case_id)
    if case is None:
        raise Http404("no such case")
    return render(request, "casebook/case.html", _case_context(request, case))


@require_POST
def case_answer(request: HtmxHttpRequest, case_id: str) -> HttpResponse:
    """Grade the reader's answer; then (and only then) the page shows the ruling.

    Without JavaScript the whole page comes back; with htmx only the result section."""
    case = casebook.get_case(case_id)
    if case is None:
        raise Http404("no such case")
    context = _case_context(request, case)
    answer = request.POST.getlist("answer")
    template = "casebook/partials/case_result.html" if request.htmx else "casebook/case.html"
    context.update(saved=answer[:1], saved_number=answer[1] if len(answer) > 1 else "")
    try:
        result = services.answer_case(case=case, answer=answer, user=request.user)
    except AnswerError as exc:
        # htmx does not swap a 4xx response: it gets a 200 with the message (as in training)
        context["error"] = message_in(exc)
        return render(request, template, context, status=200 if request.htmx else 400)
    lang = current_lang()
    solution = casebook.solve(case)
    claimed = casebook.claim_of(case)
    if claimed is not None:  # shown with the ruling only: the calculator would give the answer away
        context["calculator"] = f"{reverse('referee:claim')}?{query_of(*claimed)}"
    context.update(
        result=result,
        fb=present_feedback(result.feedback, lang),
        steps=solution.steps,
        answer_rules=solution.rule_ids,
        solved_state="solved"
        if result.record is not None and result.record.solved
        else ("tried" if result.record is not None else ""),
    )
    return render(request, template, context)


# --------------------------------------------------------------------------- the exam


@require_http_methods(["GET", "POST"])
def exam_start(request: HttpRequest) -> HttpResponse:
    source = request.POST if request.method == "POST" else request.GET
    try:
        size = services.parse_size(value=source.get("fragen"))
    except services.BadFilter as exc:
        return _error(request, exc)
    if request.method == "POST":
        try:
            pass_percent = exam_history.parse_pass_percent(source.get("bestehen"))
        except UserError as exc:
            return _error(request, exc)
        exam = exam_history.start_practice_exam(owner=owner_for(request), size=size, pass_percent=pass_percent)
        return redirect("casebook:exam", public_id=exam.public_id)
    context = {
        "size": size,
        "sizes": range(services.MIN_SIZE, services.MAX_SIZE + 1),
        "minutes": size * services.SECONDS_PER_QUESTION / 60,
        "seconds_per_question": services.SECONDS_PER_QUESTION,
        "pass_percent": exam_history.DEFAULT_PASS_PERCENT,
        "sittings": group_exams.sittings_for(request.user),
    }
    return render(request, "casebook/exam_start.html", context)


def _question_context(exam: Any, item: Any, error: str = "") -> dict[str, Any]:
    lang = current_lang()
    question = services.question_of(item)
    return {
        "exam": exam,
        "item": item,
        "q": present_question(question, lang),
        "case": services.case_of(item),
        "kind_title": services.exam_type(kind=item.kind).title(lang),
        "seconds_left": services.seconds_left(exam),
        "deadline": timezone.localtime(exam.deadline),
        "answered": exam.questions.filter(answered_at__isnull=False).count(),
        "error": error,
        "open_book": exam.group_id is not None and exam.group.open_book,
    }


@require_GET
def exam(request: HttpRequest, public_id: Any) -> HttpResponse:
    found = services.get_exam(public_id=public_id, owner=owner_for(request, create=False))
    if services.is_over(found):
        return redirect("casebook:exam_review", public_id=found.public_id)
    item = services.current_question(found)
    assert item is not None  # not over, so some question is open
    return render(request, "casebook/exam.html", _question_context(found, item))


@require_POST
def exam_answer(request: HttpRequest, public_id: Any, position: int) -> HttpResponse:
    found = services.get_exam(public_id=public_id, owner=owner_for(request, create=False))
    try:
        services.answer_question(exam=found, position=position, values=request.POST.getlist("answer"))
    except services.ExamClosed as exc:
        return _error(request, exc, exam=found)
    except AnswerError as exc:
        item = found.questions.get(position=position)
        return render(request, "casebook/exam.html", _question_context(found, item, message_in(exc)), status=400)
    if services.is_over(found):
        return redirect("casebook:exam_review", public_id=found.public_id)
    return redirect("casebook:exam", public_id=found.public_id)


@require_POST
def exam_finish(request: HttpRequest, public_id: Any) -> HttpResponse:
    found = services.get_exam(public_id=public_id, owner=owner_for(request, create=False))
    services.finish_exam(exam=found)
    return redirect("casebook:exam_review", public_id=found.public_id)


@require_GET
def exam_review(request: HttpRequest, public_id: Any) -> HttpResponse:
    found = services.get_exam(public_id=public_id, owner=owner_for(request, create=False))
    locked = ""
    try:
        rows = selectors.review(found)
    except services.ReviewLocked as exc:  # a group exam before the release: the score only
        rows, locked = [], message_in(exc)
    except services.ExamNotOver as exc:
        return _error(request, exc, exam=found)
    right, total = selectors.score(found)
    context = {
        "exam": found,
        "rows": rows,
        "right": right,
        "total": total,
        "percent": round(100 * right / total) if total else 0,
        "timed_out": found.finished_at is not None and found.finished_at >= found.deadline,
        "passed": exam_history.passed(right, total, found.pass_percent),
        "locked": locked,
    }
    return render(request, "casebook/exam_review.html", context)

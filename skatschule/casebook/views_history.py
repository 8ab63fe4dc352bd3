"""Exam history, result sheet and group exams (issue 18). Thin: reads in ``exam_history``
and ``group_exams``, writes in ``group_exams``."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from skatschule.classrooms.selectors import classrooms_taught, is_teacher
from skatschule.core.errors import UserError, render_error
from skatschule.core.language import current_lang
from skatschule.http import AuthenticatedHttpRequest
from skatschule.owners import owner_for

from . import exam_history, group_exams, selectors, services


@login_required
@require_GET
def history(request: AuthenticatedHttpRequest) -> HttpResponse:
    rows = exam_history.history(request.user)
    context = {
        "rows": rows,
        "trend": exam_history.trend(rows),
        "chart": list(reversed(rows))[-20:],
    }
    return render(request, "casebook/exam_history.html", context)


@require_GET
def result_sheet(request: HttpRequest, public_id: Any) -> HttpResponse:
    """A printable sheet of one finished exam: practice, not a DSkV certificate."""
    exam = services.get_exam(public_id=public_id, owner=owner_for(request, create=False))
    if not services.is_over(exam):
        return render_error(
            request,
            services.ExamNotOver(
                "Das Ergebnisblatt gibt es erst nach der Prüfung.", "The result sheet is available only after the exam."
            ),
        )
    services.finish_exam(exam=exam)
    try:
        rows = selectors.review(exam)
    except services.ReviewLocked as exc:  # the sheet lists right answers: not before the release
        return render_error(request, exc)
    times = exam_history.question_times(exam)
    context = {
        "exam": exam,
        "summary": exam_history.summary(exam),
        "lines": list(zip(rows, times)),
        "name": request.user.get_username() if request.user.is_authenticated else "",
    }
    return render(request, "casebook/result_sheet.html", context)


# --- group exams ------------------------------------------------------------------------------


def _require_teacher(request: AuthenticatedHttpRequest) -> None:
    if not is_teacher(user=request.user):
        raise Http404("not a trainer")


@login_required
@require_http_methods(["GET", "POST"])
def group_create(request: AuthenticatedHttpRequest) -> HttpResponse:
    _require_teacher(request)
    classes = classrooms_taught(request.user)
    context: dict[str, Any] = {
        "classes": classes,
        "sizes": range(services.MIN_SIZE, services.MAX_SIZE + 1),
        "values": {"size": services.DEFAULT_SIZE, "pass_percent": exam_history.DEFAULT_PASS_PERCENT, "open_book": True},
    }
    if request.method == "POST":
        post = request.POST
        context["values"] = {
            "title": post.get("title", ""),
            "size": post.get("size", ""),
            "pass_percent": post.get("pass_percent", ""),
            "classroom": post.get("classroom", ""),
            "open_book": bool(post.get("open_book")),
        }
        try:
            classroom = (
                classes.filter(pk=int(post.get("classroom", ""))).first()
                if services.is_number(text=post.get("classroom", ""))
                else None
            )
            if classroom is None:
                raise UserError("Bitte wähle eine deiner Klassen.", "Please choose one of your classes.")
            group = group_exams.create_group_exam(
                trainer=request.user,
                classroom=classroom,
                title=post.get("title", ""),
                size=services.parse_size(value=post.get("size")),
                pass_percent=exam_history.parse_pass_percent(post.get("pass_percent")),
                open_book=bool(post.get("open_book")),
            )
        except UserError as exc:
            context["error"] = exc.message(current_lang())
            return render(request, "casebook/group_create.html", context, status=400)
        messages.success(
            request, _("Die Gruppenprüfung ist angelegt. Die Klasse findet sie unter „Schiedsrichter-Prüfung“.")
        )
        return redirect("casebook:group_results", pk=group.pk)
    return render(request, "casebook/group_create.html", context)


@login_required
@require_GET
def group_results(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    group = group_exams.own_group_exam(request.user, pk)
    people = group_exams.participants(group)
    context = {
        "group": group,
        "people": people,
        "stats": group_exams.question_stats(group),
        "passed_count": sum(1 for p in people if p.summary and p.over and p.summary.passed),
        "done_count": sum(1 for p in people if p.over),
    }
    return render(request, "casebook/group_results.html", context)


@login_required
@require_POST
def group_release(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    group = group_exams.own_group_exam(request.user, pk)
    group_exams.release_review(trainer=request.user, group=group)
    return redirect("casebook:group_results", pk=group.pk)


@login_required
@require_POST
def group_sit(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    group = group_exams.member_group_exam(request.user, pk)
    exam = group_exams.sit_group_exam(group=group, user=request.user)
    return redirect("casebook:exam", public_id=exam.public_id)

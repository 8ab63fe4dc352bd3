"""Class progress and homework pages (issue 18). Thin: reads in ``selectors``, writes in
``services``."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy
from django.views.decorators.http import require_GET, require_POST

from skatschule.core.language import current_lang
from skatschule.core.spreadsheets import table_csv_bytes, table_xlsx_bytes
from skatschule.http import AuthenticatedHttpRequest

from . import selectors, services
from .models import Classroom
from .services import ClassroomError

_DATETIME = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")


class AssignForm(forms.Form):
    task = forms.ChoiceField(label=pgettext_lazy("Hausaufgabe", "Aufgabe"))
    due_at = forms.DateTimeField(label=gettext_lazy("Fällig am"), widget=_DATETIME)

    def __init__(self, *args: Any, classroom: Classroom, lang: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        task = self.fields["task"]
        assert isinstance(task, forms.ChoiceField)
        task.choices = selectors.task_choices(classroom, lang=lang)


def _progress(request: AuthenticatedHttpRequest, pk: int) -> tuple[Classroom, selectors.ClassProgress]:
    classroom = selectors.own_classroom(request.user, pk=pk)
    return classroom, selectors.class_progress(classroom, sort=request.GET.get("sortieren", selectors.SORT_NAME))


@login_required
@require_GET
def class_progress(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    classroom, table = _progress(request, pk)
    return render(request, "classrooms/progress.html", {"classroom": classroom, "table": table})


@login_required
@require_GET
def class_progress_export(request: AuthenticatedHttpRequest, pk: int, fmt: str) -> HttpResponse:
    classroom, table = _progress(request, pk)
    lang = current_lang()
    rows = selectors.progress_table(progress=table, lang=lang)
    name = (slugify(classroom.name) or "klasse") + "-fortschritt"
    if fmt == "xlsx":
        response = HttpResponse(
            table_xlsx_bytes(rows, _("Fortschritt")),
            content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        )
        response["Content-Disposition"] = f'attachment; filename="{name}.xlsx"'
        return response
    response = HttpResponse(table_csv_bytes(rows, lang), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}.csv"'
    return response


@login_required
@require_POST
def assign(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    classroom = selectors.own_classroom(request.user, pk=pk)
    lang = current_lang()
    form = AssignForm(request.POST, classroom=classroom, lang=lang)
    if form.is_valid():
        try:
            services.assign_homework(
                teacher=request.user,
                classroom=classroom,
                task=form.cleaned_data["task"],
                due_at=form.cleaned_data["due_at"],
            )
        except ClassroomError as exc:
            form.add_error(None, exc.message(lang))
        else:
            messages.success(request, _("Die Hausaufgabe ist gestellt."))
            return redirect("classrooms:detail", pk=classroom.pk)
    context = {"classroom": classroom, "form": form}
    return render(request, "classrooms/assign_error.html", context, status=400)


@login_required
@require_GET
def assignment_detail(request: AuthenticatedHttpRequest, pk: int, assignment_pk: int) -> HttpResponse:
    classroom = selectors.own_classroom(request.user, pk=pk)
    assignment = selectors.own_assignment(request.user, pk=assignment_pk)
    if assignment.classroom_id != classroom.pk:
        raise Http404("not this class")
    title, url = selectors.title_and_url(assignment, lang=current_lang())
    context = {
        "classroom": classroom,
        "assignment": assignment,
        "title": title,
        "url": url,
        "lines": selectors.class_status(assignment),
    }
    return render(request, "classrooms/assignment.html", context)


@login_required
@require_POST
def withdraw(request: AuthenticatedHttpRequest, pk: int, assignment_pk: int) -> HttpResponse:
    classroom = selectors.own_classroom(request.user, pk=pk)
    assignment = selectors.own_assignment(request.user, pk=assignment_pk)
    services.withdraw_homework(teacher=request.user, assignment=assignment)
    messages.success(request, _("Die Hausaufgabe ist zurückgenommen."))
    return redirect("classrooms:detail", pk=classroom.pk)


def homework_context(classroom: Classroom, lang: str) -> dict[str, Any]:
    """What the class page shows of homework: the form and each assignment's count of done."""
    return {
        "assign_form": AssignForm(classroom=classroom, lang=lang),
        "assignments": selectors.class_assignments(classroom, lang=lang),
    }

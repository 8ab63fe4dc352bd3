"""Class pages. Thin: reads in ``selectors``, writes in ``services``.

Everything needs a login (anonymous visitors go to the login page with ``next``). Teacher
pages answer 404 to anyone but the class's teacher; bad input gets a 400 with the message.
Every try at a join or invitation code goes through :func:`.join_limit.attempt`; too many wrong
codes get a 429 (the error page, or for htmx the form with the message).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from skatschule.core.errors import render_error
from skatschule.core.language import current_lang
from skatschule.http import AuthenticatedHtmxHttpRequest

from . import join_limit, selectors, services
from .join_limit import TooManyAttempts
from .services import ClassroomError
from .views_teachers import homework_context


def _index_context(request: AuthenticatedHtmxHttpRequest, **extra: Any) -> dict[str, Any]:
    context = {
        "is_teacher": selectors.is_teacher(user=request.user),
        "taught": selectors.classrooms_taught_with_counts(request.user),
        "joined": selectors.classrooms_joined(request.user),
        "error": "",
        "create_error": "",
        "code": "",
    }
    context.update(extra)
    return context


@login_required
@require_GET
def index(request: AuthenticatedHtmxHttpRequest) -> HttpResponse:
    return render(request, "classrooms/index.html", _index_context(request))


@login_required
@require_http_methods(["GET", "POST"])
def create(request: AuthenticatedHtmxHttpRequest) -> HttpResponse:
    """``/klassen/neu/``: GET shows the form for a new class (like ``/quiz/neu/``), POST creates it."""
    if request.method == "GET":
        if not selectors.is_teacher(user=request.user):
            return redirect("classrooms:index")  # the class page says how to become a teacher
        return render(request, "classrooms/index.html", _index_context(request, focus_create=True))
    if not selectors.is_teacher(user=request.user):
        back = [(reverse("classrooms:index"), _("Zu den Klassen"))]
        return render_error(request, _("Nur Lehrkräfte können Klassen anlegen."), 403, links=back)
    try:
        classroom = services.create_classroom(teacher=request.user, name=request.POST.get("name", ""))
    except ClassroomError as exc:
        return render(
            request,
            "classrooms/index.html",
            _index_context(request, create_error=exc.message(current_lang())),
            status=400,
        )
    messages.success(request, _("Die Klasse ist angelegt."))
    return redirect("classrooms:detail", pk=classroom.pk)


@login_required
@require_GET
def detail(request: AuthenticatedHtmxHttpRequest, pk: int) -> HttpResponse:
    classroom = selectors.own_classroom(request.user, pk=pk)
    join_url = request.build_absolute_uri(classroom_join_path(classroom.join_code))
    return render(
        request,
        "classrooms/detail.html",
        {
            "classroom": classroom,
            "members": selectors.members_with_progress(classroom),
            "join_url": join_url,
            "quizzes": selectors.class_quizzes(classroom),
            **homework_context(classroom, current_lang()),
        },
    )


def classroom_join_path(code: str) -> str:
    return reverse("classrooms:join_code", kwargs={"code": code})


@login_required
@require_POST
def rotate(request: AuthenticatedHtmxHttpRequest, pk: int) -> HttpResponse:
    classroom = services.rotate_code(classroom=selectors.own_classroom(request.user, pk=pk))
    messages.success(request, _("Der Beitrittscode ist erneuert; der alte gilt nicht mehr."))
    return redirect("classrooms:detail", pk=classroom.pk)


@login_required
@require_POST
def remove_member(request: AuthenticatedHtmxHttpRequest, pk: int, student_id: int) -> HttpResponse:
    classroom = selectors.own_classroom(request.user, pk=pk)
    services.leave(classroom=classroom, student_id=student_id)
    messages.success(request, _("Die Person ist nicht mehr in der Klasse."))
    return redirect("classrooms:detail", pk=classroom.pk)


def _too_many(
    request: AuthenticatedHtmxHttpRequest, exc: TooManyAttempts, template: str, context: dict[str, Any]
) -> HttpResponse:
    """429 (503 while the limiter cannot count): for htmx the form's own template with the message as its error,
    else the error page."""
    if request.htmx:
        context.update(error=exc.message(current_lang()))
        response = render(request, template, context, status=exc.status)
    else:
        back = [(reverse("classrooms:index"), _("Zu den Klassen"))]
        title = _("Vorübergehend nicht möglich") if exc.status == 503 else _("Zu viele Versuche")
        response = render_error(request, exc, title=title, links=back)
    response["Retry-After"] = str(exc.retry_after)
    return response


def _join(
    request: AuthenticatedHtmxHttpRequest, code: str, template: str, context: dict[str, Any], status: int = 400
) -> HttpResponse:
    try:
        with join_limit.attempt(request):
            joined = services.join(student=request.user, raw_code=code)
    except TooManyAttempts as exc:
        context.update(code=str(code)[:40])
        return _too_many(request, exc, template, context)
    except ClassroomError as exc:
        context.update(error=exc.message(current_lang()), code=str(code)[:40])
        return render(request, template, context, status=status)
    if joined.created:
        messages.success(request, _("Du bist jetzt in der Klasse „%(name)s“.") % {"name": joined.classroom.name})
    else:
        messages.info(request, _("Du warst schon in der Klasse „%(name)s“.") % {"name": joined.classroom.name})
    return redirect("quizzes:index")


@login_required
@require_http_methods(["GET", "POST"])
def join_form(request: AuthenticatedHtmxHttpRequest) -> HttpResponse:
    if request.method == "POST":
        return _join(request, request.POST.get("code", ""), "classrooms/index.html", _index_context(request))
    return redirect("classrooms:index")


@login_required
@require_http_methods(["GET", "POST"])
def join_code(request: AuthenticatedHtmxHttpRequest, code: str) -> HttpResponse:
    """The join link: GET asks to confirm (a link alone changes nothing), POST joins."""
    if request.method == "POST":
        return _join(request, code, "classrooms/join.html", {"classroom": None}, status=404)
    try:
        with join_limit.attempt(request):  # the page shows whose class a code is: a guess, too
            classroom = services.find_by_code(raw=code)
    except TooManyAttempts as exc:
        return _too_many(request, exc, "classrooms/join.html", {"classroom": None})
    except ClassroomError as exc:
        return render(
            request, "classrooms/join.html", {"error": exc.message(current_lang()), "classroom": None}, status=404
        )
    already = selectors.is_member(classroom, user=request.user)
    return render(
        request, "classrooms/join.html", {"classroom": classroom, "code": classroom.join_code, "already": already}
    )


@login_required
@require_http_methods(["GET", "POST"])
def become_teacher(request: AuthenticatedHtmxHttpRequest) -> HttpResponse:
    error = ""
    status = 200
    if request.method == "POST":
        try:
            with join_limit.attempt(request):
                redeemed = services.redeem_invitation(user=request.user, raw_code=request.POST.get("code", ""))
            if redeemed:
                messages.success(request, _("Du bist jetzt als Lehrkraft freigeschaltet."))
            return redirect("classrooms:index")
        except TooManyAttempts as exc:
            context: dict[str, object] = {"is_teacher": selectors.is_teacher(user=request.user)}
            return _too_many(request, exc, "classrooms/become_teacher.html", context)
        except ClassroomError as exc:
            error, status = exc.message(current_lang()), 400
    context = {"is_teacher": selectors.is_teacher(user=request.user), "error": error}
    return render(request, "classrooms/become_teacher.html", context, status=status)

"""The daily goal page and the one-click unsubscribe link. Thin: the logic is in selectors/services."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from skatschule.core.language import current_lang
from skatschule.owners import owner_for

from . import selectors, services
from .forms import ChoicesForm
from .selectors import Choices


def _can_remind(request: HttpRequest) -> bool:
    user = request.user
    return bool(user.is_authenticated and getattr(user, "email", ""))


@require_http_methods(["GET", "POST"])
def goal_settings(request: HttpRequest) -> HttpResponse:
    """GET shows the goal, time zone and reminders; POST stores them (a bad value: 400, the form kept)."""
    can_remind = _can_remind(request)
    current = selectors.choices_for(request=request)
    status = 200
    if request.method == "POST":
        form = ChoicesForm(request.POST, can_remind=can_remind)
        if form.is_valid():
            data = form.cleaned_data
            services.save_choices(
                user=request.user,
                session=request.session,
                choices=Choices(
                    goal=data["goal"],
                    time_zone=data["time_zone"],
                    reminders=(data.get("reminders") or current.reminders) if can_remind else current.reminders,
                    language=current_lang(),
                ),
            )
            return redirect("learners:settings")
        status = 400
    else:
        form = ChoicesForm(
            initial={"goal": current.goal, "time_zone": current.time_zone, "reminders": current.reminders},
            can_remind=can_remind,
        )
    streak = selectors.streak_for(owner=owner_for(request, create=False), choices=current)
    context = {"form": form, "streak": streak, "choices": current, "can_remind": can_remind}
    return render(request, "learners/settings.html", context, status=status)


@csrf_exempt  # the signed token is the proof; mail programs POST here for one-click unsubscribe (RFC 8058)
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    if not services.unsubscribe(token=token):
        return render(request, "learners/unsubscribed.html", {"bad": True}, status=400)
    return render(request, "learners/unsubscribed.html", {"bad": False})

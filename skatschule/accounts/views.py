"""Sign up, log in, log out. Anonymous practice moves to the account on signup and login."""

from __future__ import annotations

from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language
from django.views.decorators.http import require_http_methods, require_safe

from skatschule.owners import Owner, anonymous_key
from skatschule.training.services.portability import (
    MAX_BYTES,
    SIGNED,
    ImportProblem,
    export_data,
    import_data,
    parse,
    sign_export,
    signature_state,
)
from skatschule.training.services.progress import adopt_session

from .forms import SignupForm


def _safe_next(request: HttpRequest) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(target, {request.get_host()}, require_https=request.is_secure()):
        return target
    return ""


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect(_safe_next(request) or "training:dashboard")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        key = anonymous_key(request, create=False)  # capture before login() rotates the session
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        adopt_session(key, user)  # the login signal did it already; this is a no-op then
        return redirect(_safe_next(request) or "training:dashboard")
    return render(request, "accounts/signup.html", {"form": form, "next": _safe_next(request)}, status=200)


class LoginView(auth_views.LoginView):
    template_name = "accounts/login.html"
    redirect_authenticated_user = True


class LogoutView(auth_views.LogoutView):
    """POST only (Django's LogoutView refuses GET)."""


# --- Export and import of one's practice (JSON); the logic is in training.services.portability ---


@login_required
@require_safe
def export_progress(request: HttpRequest) -> HttpResponse:

    owner = Owner.for_user(request.user)
    data = sign_export(export_data(owner), owner)
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False, "indent": 1})
    stamp = timezone.localdate().isoformat()
    response["Content-Disposition"] = f'attachment; filename="skatschule-{stamp}.json"'
    return response


@login_required
@require_http_methods(["GET", "POST"])
def import_progress(request: HttpRequest) -> HttpResponse:

    context: dict = {"max_mb": MAX_BYTES // (1024 * 1024)}
    if request.method == "POST":
        upload = request.FILES.get("file")
        try:
            if upload is None:
                raise ImportProblem("Bitte wähle eine Datei.", "Please choose a file.")
            if upload.size is None or upload.size > MAX_BYTES:
                raise ImportProblem("Die Datei ist größer als 5 MB.", "The file is larger than 5 MB.")
            owner = Owner.for_user(request.user)
            data = parse(upload.read(MAX_BYTES + 1))
            signature = signature_state(data, owner)
            result = import_data(owner, data, counts_for_mastery=signature == SIGNED)
        except ImportProblem as exc:
            context["error"] = exc.message_en if get_language() == "en" else exc.message_de
            return render(request, "accounts/import.html", context, status=400)
        context["result"] = result
        context["signature"] = signature
    return render(request, "accounts/import.html", context)

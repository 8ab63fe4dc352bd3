"""Sign up, log in, log out. Anonymous practice moves to the account on signup and login."""

from __future__ import annotations

from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods

from skatschule.training.services.owner import anonymous_key
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

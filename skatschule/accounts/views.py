"""Sign up, log in, log out, password reset, account settings, export and deletion.

Anonymous practice moves to the account on signup and login."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe
from django.views.generic.edit import FormView

from skatschule.classrooms import join_limit
from skatschule.core.errors import message_in, render_error
from skatschule.http import AuthenticatedHttpRequest, on_site_url
from skatschule.owners import Owner, anonymous_key
from skatschule.training.services.adoption import adopt_session
from skatschule.training.services.portability import (
    MAX_BYTES,
    SIGNED,
    ImportProblem,
    export_stream,
    import_data,
    parse,
    signature_state,
)

from .deletion import delete_account, export_account
from .forms import DeleteAccountForm, EmailForm, SignupForm


def _safe_next(request: HttpRequest) -> str:
    return on_site_url(request, request.POST.get("next"), request.GET.get("next"))


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect(_safe_next(request) or "training:dashboard")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        key = anonymous_key(request, create=False)  # capture before login() rotates the session
        try:
            # new accounts per address, like wrong join codes; a taken name costs its slot too,
            # so names cannot be probed faster than accounts can be made
            with join_limit.signup(request):
                user = form.save_if_free()
        except join_limit.TooManyAttempts as exc:
            title = _("Vorübergehend nicht möglich") if exc.status == 503 else _("Zu viele neue Konten")
            response = render_error(request, exc, title=title)
            response["Retry-After"] = str(exc.retry_after)
            return response
        if user is None:
            context = {"form": form, "next": _safe_next(request)}
            return render(request, "accounts/signup.html", context, status=400)
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        adopt_session(session_key=key, user=user)  # the login signal did it already; this is a no-op then
        return redirect(_safe_next(request) or "training:dashboard")
    status = 400 if request.method == "POST" else 200  # the form is shown again with its errors
    return render(request, "accounts/signup.html", {"form": form, "next": _safe_next(request)}, status=status)


if TYPE_CHECKING:  # a mixin for form views; django-stubs makes FormView generic, at run time it is not
    FormViewMixinBase = FormView[Any]
else:
    FormViewMixinBase = object


class RefusedFormIs400(FormViewMixinBase):
    """For Django's auth views: a form sent back with errors answers 400, like every other form here."""

    def form_invalid(self, form: Any) -> HttpResponse:
        response = super().form_invalid(form)
        response.status_code = 400
        return response


class LoginView(RefusedFormIs400, auth_views.LoginView):
    template_name = "accounts/login.html"
    redirect_authenticated_user = True


class LogoutView(auth_views.LogoutView):
    """POST only (Django's LogoutView refuses GET)."""


# --- Export and import of one's practice (JSON); the logic is in training.services.portability ---


@login_required
@require_safe
def export_progress(request: HttpRequest) -> StreamingHttpResponse:
    # streamed: an entry at a time, read with .iterator(), however long the history
    response = StreamingHttpResponse(export_stream(owner=Owner.for_user(request.user)), content_type="application/json")
    stamp = timezone.localdate().isoformat()
    response["Content-Disposition"] = f'attachment; filename="skatschule-{stamp}.json"'
    return response


@login_required
@require_http_methods(["GET", "POST"])
def import_progress(request: HttpRequest) -> HttpResponse:

    context: dict[str, Any] = {"max_mb": MAX_BYTES // (1024 * 1024)}
    if request.method == "POST":
        upload = request.FILES.get("file")
        try:
            if upload is None:
                raise ImportProblem("Bitte wähle eine Datei.", "Please choose a file.")
            if upload.size is None or upload.size > MAX_BYTES:
                raise ImportProblem("Die Datei ist größer als 5 MB.", "The file is larger than 5 MB.")
            owner = Owner.for_user(request.user)
            data = parse(raw=upload.read(MAX_BYTES + 1))
            signature = signature_state(data=data, owner=owner)
            result = import_data(owner=owner, data=data, counts_for_mastery=signature == SIGNED)
        except ImportProblem as exc:
            context["error"] = message_in(exc)
            return render(request, "accounts/import.html", context, status=400)
        context["result"] = result
        context["signature"] = signature
    return render(request, "accounts/import.html", context)


# --- Account settings, password reset, data export and deletion ---

EXPORT_SESSION_FLAG = "account_exported_at"


class PasswordResetView(RefusedFormIs400, auth_views.PasswordResetView):
    template_name = "accounts/password_reset_form.html"
    email_template_name = "accounts/password_reset_email.txt"
    subject_template_name = "accounts/password_reset_subject.txt"
    success_url = reverse_lazy("accounts:password_reset_done")

    def form_valid(self, form: Any) -> HttpResponse:
        try:  # mails per target address and per client address (join_limit.password_reset)
            with join_limit.password_reset(self.request, form.cleaned_data["email"]):
                return super().form_valid(form)
        except join_limit.TooManyAttempts as exc:
            title = _("Vorübergehend nicht möglich") if exc.status == 503 else _("Zu viele Anfragen")
            response = render_error(self.request, exc, title=title)
            response["Retry-After"] = str(exc.retry_after)
            return response


class PasswordResetDoneView(auth_views.PasswordResetDoneView):
    template_name = "accounts/password_reset_done.html"


class PasswordResetConfirmView(RefusedFormIs400, auth_views.PasswordResetConfirmView):
    template_name = "accounts/password_reset_confirm.html"
    success_url = reverse_lazy("accounts:password_reset_complete")


class PasswordResetCompleteView(auth_views.PasswordResetCompleteView):
    template_name = "accounts/password_reset_complete.html"


class PasswordChangeView(RefusedFormIs400, auth_views.PasswordChangeView):
    template_name = "accounts/password_change.html"
    success_url = reverse_lazy("accounts:settings")

    def form_valid(self, form: Any) -> HttpResponse:
        messages.success(self.request, _("Dein Passwort ist geändert."))
        return super().form_valid(form)


@login_required
@require_http_methods(["GET", "POST"])
def account_settings(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = EmailForm(request.POST if request.method == "POST" else None, instance=request.user)
    if request.method == "POST":
        if form.is_valid():
            form.save()
            messages.success(request, _("Deine E-Mail-Adresse ist gespeichert."))
            return redirect("accounts:settings")
        return render(request, "accounts/settings.html", {"form": form}, status=400)
    return render(request, "accounts/settings.html", {"form": form})


@login_required
@require_safe
def export_account_view(request: AuthenticatedHttpRequest) -> HttpResponse:
    """All data of the account as one JSON file; marks the session so deletion may follow."""
    data = export_account(user=request.user)
    request.session[EXPORT_SESSION_FLAG] = timezone.now().isoformat()
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False, "indent": 1})
    stamp = timezone.localdate().isoformat()
    response["Content-Disposition"] = f'attachment; filename="skatschule-konto-{stamp}.json"'
    return response


@login_required
@require_http_methods(["GET", "POST"])
def delete_account_view(request: AuthenticatedHttpRequest) -> HttpResponse:
    exported = bool(request.session.get(EXPORT_SESSION_FLAG))
    form = DeleteAccountForm(request.POST if request.method == "POST" else None, user=request.user)
    if request.method == "POST":
        valid = form.is_valid()  # first: add_error needs the cleaned data
        if not exported:
            form.add_error(None, _("Lade zuerst deine Daten herunter (Schritt 1)."))
        elif valid:
            delete_account(user=request.user)
            logout(request)
            messages.success(request, _("Dein Konto ist gelöscht."))
            return redirect("home:index")
        return render(request, "accounts/delete.html", {"form": form, "exported": exported}, status=400)
    return render(request, "accounts/delete.html", {"form": form, "exported": exported})

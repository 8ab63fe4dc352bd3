"""Security glue: the Content-Security-Policy header and the login rate limit (django-axes).

Content-Security-Policy
-----------------------
Django 5.2 has no CSP support; django-csp's ``CSPMiddleware`` sends the header on every
response (development too, so a violation shows up before production). The policy is
``CSP_POLICY`` in the settings:

- scripts only from our own origin (``script-src 'self'``): no inline ``<script>``, no
  ``on...=`` handler attributes, no ``eval``;
- style sheets only from our own origin (``style-src-elem 'self'``), but inline
  ``style="..."`` *attributes* are allowed (``style-src-attr 'unsafe-inline'``): the progress
  bars set their width that way. A style attribute cannot run code; a ``<style>`` element
  could restyle the page to fake content, so those stay forbidden. htmx's own indicator
  ``<style>`` is switched off in base.html (``htmx-config`` meta tag);
- no plugins, no framing by other sites, forms only post to us.

``CSP_REPORT_ONLY=1`` sends the same policy as ``Content-Security-Policy-Report-Only``.

Login rate limit
----------------
:class:`AxesBackend` is django-axes' standalone backend; it refuses a login while the pair
(username, client address) is locked out. It lets a login *without* a request through to the
next backend (Django's test client ``Client.login`` has none; every login over HTTP has one).
:func:`client_ip` reads the address, trusting ``PROXY_COUNT`` reverse proxies;
:func:`client_username` the name tried, cut to what axes' tables hold.
"""

from __future__ import annotations

from typing import Any

from axes.backends import AxesStandaloneBackend
from django.conf import settings
from django.http import HttpRequest, HttpResponse


class AxesBackend(AxesStandaloneBackend):
    """django-axes' lockout check; a login without a request (test client) is not checked."""

    def authenticate(
        self, request: Any, username: str | None = None, password: str | None = None, **kwargs: Any
    ) -> Any:
        if request is None:
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)


def client_ip(request: HttpRequest) -> str:
    """The client's address: REMOTE_ADDR, or the entry ``PROXY_COUNT`` hops back in X-Forwarded-For."""
    proxies = int(getattr(settings, "PROXY_COUNT", 0) or 0)
    remote = str(request.META.get("REMOTE_ADDR", "") or "")
    if proxies <= 0:
        return remote
    chain = [part.strip() for part in str(request.META.get("HTTP_X_FORWARDED_FOR", "")).split(",") if part.strip()]
    if len(chain) >= proxies:
        return chain[-proxies][:64]
    return remote


USERNAME_MAX = 255
"""The length of axes' ``username`` columns (AccessAttempt, AccessFailureLog, AccessLog)."""


def client_username(request: HttpRequest, credentials: dict[str, Any] | None = None) -> str | None:
    """The username of a login attempt, as django-axes reads it (the credentials, else the
    form field), cut to :data:`USERNAME_MAX` characters and without NUL characters.

    Django's login form does not limit the name's length (its ``max_length`` only reaches the
    widget), so a failed login with 300 characters reached axes' 255-character column:
    PostgreSQL refused it (a 500, and the site's database-error page). A longer name is still
    locked as its first 255 characters."""
    field = getattr(settings, "AXES_USERNAME_FORM_FIELD", "username")
    value = credentials.get(field) if credentials else request.POST.get(field)
    if value is None:
        return None
    return str(value).replace("\x00", "")[:USERNAME_MAX]


def lockout_response(request: HttpRequest, original_response: Any = None, credentials: Any = None) -> HttpResponse:
    """django-axes' answer while locked out: a 429 page that says why and for how long."""
    from django.shortcuts import render

    cooloff = getattr(settings, "AXES_COOLOFF_TIME", None)
    minutes = int(cooloff.total_seconds() // 60) if cooloff else 0
    context = {"failure_limit": settings.AXES_FAILURE_LIMIT, "cooloff_minutes": minutes}
    response = render(request, "accounts/lockout.html", context, status=429)
    if minutes:
        response["Retry-After"] = str(minutes * 60)
    return response

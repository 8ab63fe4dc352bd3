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
(username, client address) is locked out, and an account (one name) after
``LOGIN_ACCOUNT_FAILURE_LIMIT`` failed logins from all addresses together (:func:`account_failures`).
It lets a login *without* a request through to the
next backend (Django's test client ``Client.login`` has none; every login over HTTP has one).
:func:`client_ip` reads the address, trusting ``PROXY_COUNT`` reverse proxies;
:func:`client_username` the name tried, cut to what axes' tables hold.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from typing import Any

from axes.backends import AxesStandaloneBackend
from axes.exceptions import AxesBackendPermissionDenied
from django.conf import settings
from django.http import HttpRequest, HttpResponse


class AxesBackend(AxesStandaloneBackend):
    """django-axes' lockout check; a login without a request (test client) is not checked."""

    def authenticate(
        self, request: Any, username: str | None = None, password: str | None = None, **kwargs: Any
    ) -> Any:
        if request is None:
            return None
        super().authenticate(request, username=username, password=password, **kwargs)
        if username is not None and account_failures(str(username)) >= account_failure_limit():
            request.axes_locked_out = True  # django-axes' middleware answers with lockout_response
            request.account_locked_out = True
            raise AxesBackendPermissionDenied("too many failed logins for this account")
        return None


def account_failure_limit() -> int:
    """Failed logins for one name, from all addresses together, that lock it (``LOGIN_ACCOUNT_FAILURE_LIMIT``)."""
    return int(getattr(settings, "LOGIN_ACCOUNT_FAILURE_LIMIT", 20))


def account_failures(username: str) -> int:
    """Failed logins for ``username`` from every address within django-axes' cool-off time.

    django-axes locks the pair (name, address) after ``AXES_FAILURE_LIMIT`` failures, so one
    name tried a few times from each of many addresses was never locked. This sum over axes' own
    rows is the per-account cap: higher than the pair's limit (a forgotten password at home and
    at school still works), low enough that guessing from many addresses stops soon."""
    from axes.models import AccessAttempt
    from django.db.models import Sum
    from django.utils import timezone

    rows = AccessAttempt.objects.filter(username=username.replace("\x00", "")[:USERNAME_MAX])
    cooloff = getattr(settings, "AXES_COOLOFF_TIME", None)
    if cooloff:
        rows = rows.filter(attempt_time__gte=timezone.now() - cooloff)
    return int(rows.aggregate(total=Sum("failures_since_start"))["total"] or 0)


def _ip(text: str) -> str | None:
    """``text`` as a normalised IP address, or None when it is none (junk, a port, a name)."""
    try:
        return str(ipaddress.ip_address(text.strip()))
    except ValueError:
        return None


def client_ip(request: HttpRequest) -> str:
    """The client's address: REMOTE_ADDR, or the entry ``PROXY_COUNT`` hops back in X-Forwarded-For.

    Only an IP address is taken from the header: anything else there (junk, or more proxies
    configured than there are) falls back to REMOTE_ADDR, which the server itself set. django-axes
    stores the address in a ``GenericIPAddressField`` (``inet`` on PostgreSQL), so junk from the
    header made a failed login a 500."""
    proxies = int(getattr(settings, "PROXY_COUNT", 0) or 0)
    remote = str(request.META.get("REMOTE_ADDR", "") or "")
    remote = _ip(remote) or remote[:64]
    if proxies <= 0:
        return remote
    chain = [part.strip() for part in str(request.META.get("HTTP_X_FORWARDED_FOR", ""))[:2000].split(",")]
    chain = [part for part in chain if part]
    if len(chain) >= proxies:
        return _ip(chain[-proxies]) or remote
    return remote


def network_of(address: str) -> str:
    """The address as the per-address limits count it: an IPv4 address itself, an IPv6 address
    by its /64 (one household or device gets a whole /64, so each of its addresses alone would
    multiply every limit). An IPv4 address written as IPv6 (``::ffff:1.2.3.4``) is that IPv4
    address; anything that is no address is returned as it is."""
    try:
        parsed = ipaddress.ip_address(address.strip())
    except ValueError:
        return address[:64]
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.IPv6Network((parsed, 64), strict=False))
    return str(parsed)


def client_network(request: HttpRequest) -> str:
    """:func:`client_ip` as the per-address limits count it (:func:`network_of`)."""
    return network_of(client_ip(request))


PERMISSIONS_POLICY = (
    "accelerometer=(), autoplay=(), camera=(), display-capture=(), geolocation=(), gyroscope=(), "
    "magnetometer=(), microphone=(), midi=(), payment=(), usb=()"
)
"""Browser features no page of the site uses, switched off for it and for anything it embeds."""


class PermissionsPolicyMiddleware:
    """Sends :data:`PERMISSIONS_POLICY` as the ``Permissions-Policy`` header on every response."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.setdefault("Permissions-Policy", PERMISSIONS_POLICY)
        return response


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
    account = bool(getattr(request, "account_locked_out", False))
    limit = account_failure_limit() if account else settings.AXES_FAILURE_LIMIT
    context = {"failure_limit": limit, "cooloff_minutes": minutes, "account": account}
    response = render(request, "accounts/lockout.html", context, status=429)
    if minutes:
        response["Retry-After"] = str(minutes * 60)
    return response

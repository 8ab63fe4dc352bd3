"""Typed requests for views (django-htmx's pattern): annotate a view's ``request`` with the class
that says what the middleware and decorators put on it.

- ``HtmxHttpRequest``: ``request.htmx`` (django_htmx.middleware.HtmxMiddleware);
- ``AuthenticatedHttpRequest``: ``request.user`` is a ``User`` (views behind ``login_required``);
- ``AuthenticatedHtmxHttpRequest``: both;

and :func:`on_site_url`, the one check of a ``next`` or referer before a redirect.
"""

from urllib.parse import urlsplit

from django.contrib.auth.models import User
from django.http import HttpRequest
from django.utils.http import url_has_allowed_host_and_scheme
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


class AuthenticatedHttpRequest(HttpRequest):
    user: User


class AuthenticatedHtmxHttpRequest(AuthenticatedHttpRequest):
    htmx: HtmxDetails


def on_site_url(request: HttpRequest, *candidates: str | None) -> str:
    """The first candidate that is a URL of this site (a path from the root, or a full URL with
    this host), else "". A bare word such as ``0`` is refused: ``redirect()`` would take it for
    a view name."""
    for candidate in candidates:
        if not candidate:
            continue
        scheme = urlsplit(candidate).scheme
        if (candidate.startswith("/") or scheme in ("http", "https")) and url_has_allowed_host_and_scheme(
            candidate, allowed_hosts={request.get_host()}, require_https=request.is_secure()
        ):
            return candidate
    return ""

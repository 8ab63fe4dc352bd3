"""Typed requests for views (django-htmx's pattern): annotate a view's ``request`` with the class
that says what the middleware and decorators put on it.

- ``HtmxHttpRequest``: ``request.htmx`` (django_htmx.middleware.HtmxMiddleware);
- ``AuthenticatedHttpRequest``: ``request.user`` is a ``User`` (views behind ``login_required``);
- ``AuthenticatedHtmxHttpRequest``: both.
"""

from django.contrib.auth.models import User
from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


class AuthenticatedHttpRequest(HttpRequest):
    user: User


class AuthenticatedHtmxHttpRequest(AuthenticatedHttpRequest):
    htmx: HtmxDetails

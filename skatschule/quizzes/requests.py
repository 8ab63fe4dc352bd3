"""The request type of the quizzes views: every one of them needs a signed-in user."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class QuizRequest(HttpRequest):
    """A request behind ``login_required``, with django-htmx's ``request.htmx``."""

    user: User
    htmx: HtmxDetails

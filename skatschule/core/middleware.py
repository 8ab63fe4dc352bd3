"""German first: the interface language is German unless the visitor chose English.

Django's LocaleMiddleware would follow the browser's Accept-Language header, so an
English-language browser would never see the German site. Here only an explicit
choice (the language cookie set by the switcher, or an /en/ ... prefix, which we do
not use) changes the language.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext

from .errors import render_error


class GermanFirstLocaleMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.supported = {code for code, _ in settings.LANGUAGES}

    def __call__(self, request: HttpRequest) -> HttpResponse:
        chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, "")
        language = chosen if chosen in self.supported else settings.LANGUAGE_CODE
        translation.activate(language)
        request.LANGUAGE_CODE = language
        response = self.get_response(request)
        response.headers.setdefault("Content-Language", language)
        patch_vary_headers(response, ("Cookie",))  # once, even when the session already added it
        return response


class MethodNotAllowedPageMiddleware:
    """A 405 from ``require_POST`` and its kin is the site's error page, not the browser's bare one.

    Someone who opens a form's address (``/quiz/<id>/beenden/``) by hand or from a bookmark gets
    a sentence and a way back: the page they came from when it is one of ours, else the home page.
    The ``Allow`` header stays as Django set it.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code != 405 or response.content or request.method not in ("GET", "HEAD"):
            return response
        back = request.headers.get("Referer", "")
        if (
            not back
            or back == request.build_absolute_uri()
            or not url_has_allowed_host_and_scheme(
                back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
            )
        ):
            back = reverse("home:index")
        page = render_error(
            request,
            gettext("Diese Adresse nimmt nur abgeschickte Formulare an; zum Aufrufen gibt es hier nichts."),
            405,
            title=gettext("Nur über ein Formular"),
            links=[(back, gettext("Zurück"))],
        )
        page["Allow"] = response.get("Allow", "POST")
        return page

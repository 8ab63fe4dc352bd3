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
from django.utils import translation
from django.utils.cache import patch_vary_headers


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

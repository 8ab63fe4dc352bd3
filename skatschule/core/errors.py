"""One user-facing error and one error page for the whole site.

Services raise a subclass of :class:`UserError` with its message as one
:class:`~skatschule.engine.Text` (``UserError(de, en)``, kept as ``error.text``, as the engine's
errors do) and the HTTP status to answer with (400 unless the subclass says otherwise); views
answer with :func:`render_error`. The engine's errors (``SkatError`` and the exercises'
``AnswerError``) stay pure Python, but they carry their message the same way, so
:func:`message_in` and :func:`render_error` take them too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from skatschule.engine import Text

from .language import current_lang

__all__ = ["UserError", "message_in", "render_error"]


class Bilingual(Protocol):
    """An error with its message as a :class:`Text` (``UserError``, ``SkatError``)."""

    @property
    def text(self) -> Text: ...


class UserError(ValueError):
    """Input or a request the site's rules do not allow, with German and English text."""

    status = 400

    def __init__(self, de: str, en: str | None = None) -> None:
        super().__init__(de)
        self.text = Text(de, en or de)

    def message(self, lang: str) -> str:
        return message_in(self, lang)


def message_in(error: Bilingual, lang: str | None = None) -> str:
    """The error's message in ``lang`` (default: the current language)."""
    return error.text.get(current_lang(lang))


def render_error(  # noqa: PLR0913 - over the budget since issue 27; to be split
    request: HttpRequest,
    error: Bilingual | str,
    status: int | None = None,
    *,
    links: Sequence[tuple[str, str]] = (),
    title: str = "",
    template: str = "error.html",
    **context: Any,
) -> HttpResponse:
    """The error page: ``title`` (default "Nicht möglich"), the message, ``links`` as (url, label).

    ``status`` defaults to the error's own (400 for messages and engine errors). ``template``
    swaps in a partial for htmx requests; extra keyword arguments go into its context.
    """
    message = error if isinstance(error, str) else message_in(error)
    status = status or getattr(error, "status", 400)
    context.update(message=message, links=links, title=title)
    return render(request, template, context, status=status)

"""One size limit for the text a visitor sends, checked before anything parses it.

Every form or query that reads free text (ISS records, searches, answers, codes, names) takes
it through :func:`bounded`: text longer than the limit is refused with :class:`TooLarge` (413)
before a parser sees it, so no parser's cost can grow with what a visitor chooses to send.
Nothing is stored or changed by a refused request; what was there before (games read in, a
score sheet, a quiz) stays as it was.

A request body larger than ``settings.DATA_UPLOAD_MAX_MEMORY_SIZE`` (256 kB, files excepted)
never reaches a view: Django raises ``RequestDataTooBig`` when the form is read, and
:func:`bad_request` (``handler400``) answers it with the same 413 page.

Limits:

- :data:`PASTE_BYTES`: 64 kB, one pasted or typed text (ISS records: about 60 games).
- :data:`QUERY_CHARS`: 200 characters, a search (rules, casebook).
- Uploaded files have their own limit (the progress import: 5 MB,
  ``training.services.portability.MAX_BYTES``).
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.sessions.exceptions import SessionInterrupted
from django.core.exceptions import RequestDataTooBig
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.template import loader
from django.utils.translation import gettext

from .errors import UserError, render_error

__all__ = ["PASTE_BYTES", "QUERY_CHARS", "TooLarge", "bad_request", "bounded"]

PASTE_BYTES = 64 * 1024
QUERY_CHARS = 200


class TooLarge(UserError):
    """A text over its limit: 413, nothing was read or changed."""

    status = 413

    def __init__(self, limit: int, unit: str = "bytes") -> None:
        if unit == "bytes":
            size_de = size_en = f"{limit // 1024} kB"
        else:
            size_de, size_en = f"{limit} Zeichen", f"{limit} characters"
        super().__init__(
            f"Der Text ist zu lang (höchstens {size_de}). Es wurde nichts gelesen und nichts geändert; "
            "kürze ihn und sende ihn noch einmal.",
            f"The text is too long (at most {size_en}). Nothing was read and nothing changed; "
            "shorten it and send it again.",
        )


def bounded(value: object, *, limit: int = PASTE_BYTES, chars: bool = False) -> str:
    """``value`` as text, if it is at most ``limit`` bytes in UTF-8 (``chars``: characters);
    else :class:`TooLarge`. A missing value is the empty text."""
    text = "" if value is None else value if isinstance(value, str) else str(value)
    if len(text) > limit or (not chars and len(text.encode("utf-8", "replace")) > limit):
        raise TooLarge(limit, "chars" if chars else "bytes")
    return text


def _database_down_behind(exception: BaseException | None) -> bool:
    """Is a database that cannot be reached the cause of ``exception`` (somewhere in its chain)?
    (A row that is gone is a plain ``DatabaseError``: "Forced update did not affect any rows".)"""
    seen = 0
    while exception is not None and seen < 10:
        if isinstance(exception, (OperationalError, InterfaceError)):
            return True
        exception = exception.__cause__ or exception.__context__
        seen += 1
    return False


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """``handler400``: a body over Django's limit gets the 413 page; any other 400 the error page.

    Django's session middleware reports a session it could not save as "interrupted" (400), also
    when the database is down (cached sessions are read from Redis, so the page itself worked, and
    ``/ueben/spiel/`` writes its table to the session on every request): that is the outage page,
    503 with ``Retry-After``, like every other request in an outage (``handler500``)."""
    if isinstance(exception, SessionInterrupted) and _database_down_behind(exception):
        body = loader.get_template("503.html").render({})  # no request: no session, no user
        response = HttpResponse(body, status=503)
        response["Retry-After"] = "30"
        return response
    if isinstance(exception, RequestDataTooBig):
        return render_error(request, TooLarge(settings.DATA_UPLOAD_MAX_MEMORY_SIZE), title=gettext("Zu groß"))
    return render_error(request, gettext("Die Anfrage war ungültig."), status=400)

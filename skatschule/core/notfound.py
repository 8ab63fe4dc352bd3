"""Not there for this visitor: the one domain error for a missing object.

Services and selectors never raise Django's ``Http404`` (that is the view's word); they raise
:class:`NotFound` (or a subclass) for a forged id, someone else's class, quiz or exam, an item
a quiz does not have ... Outside a request it is a plain ``LookupError``.

In a request the view decides: a view that wants another answer catches it; one that does not
lets it pass, and :class:`NotFoundMiddleware` answers it as Django answers ``Http404`` (the
site's 404 page), so a page for a missing object is the same whoever noticed it was missing.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import Http404, HttpRequest, HttpResponse

__all__ = ["NotFound", "NotFoundMiddleware"]


class NotFound(LookupError):
    """The object is not there, or not there for this user (the message is for logs, not pages)."""


class NotFoundMiddleware:
    """A :class:`NotFound` that leaves a view is a 404, exactly as if the view had raised ``Http404``."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, NotFound):
            raise Http404(str(exception)) from exception
        return None

"""Health checks and the page for a database outage.

- ``/healthz`` (liveness): the smallest Django view, for load balancers and as the load
  script's baseline. It passes the whole middleware stack but touches neither templates nor
  the database, so it answers 200 "ok" while the process runs, even with the database down
  (restarting the process would not help then).
- ``/readyz`` (readiness): runs ``SELECT 1``; 200 "ready", or 503 "database unavailable" when
  the database cannot be reached (a load balancer stops sending visitors to this server).
  ``/healthz?db=1`` is the older spelling of the same check.
- :func:`server_error` is the site's ``handler500``: a database that cannot be reached
  (refused, lost, restarting: :func:`~skatschule.core.db.is_outage`) becomes a clean 503 page
  with ``Retry-After``; anything else, other database errors too (a unique violation, a bad
  query), is a fault of the site: the 500 page, logged by Django as an error with its
  traceback. Neither page touches the database or the session.
"""

from __future__ import annotations

import logging
import sys

from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse, HttpResponseServerError
from django.template import loader
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from skatschule.core.db import is_outage

log = logging.getLogger(__name__)


def _database_answers() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        return False
    return True


def _unavailable() -> HttpResponse:
    response = HttpResponse("database unavailable", status=503, content_type="text/plain; charset=utf-8")
    response["Retry-After"] = "30"
    return response


@never_cache
@require_safe
def healthz(request: HttpRequest) -> HttpResponse:
    if request.GET.get("db") == "1" and not _database_answers():
        return _unavailable()
    return HttpResponse("ok", content_type="text/plain; charset=utf-8")


@never_cache
@require_safe
def readyz(request: HttpRequest) -> HttpResponse:
    if not _database_answers():
        return _unavailable()
    return HttpResponse("ready", content_type="text/plain; charset=utf-8")


def server_error(request: HttpRequest, template_name: str = "503.html") -> HttpResponse:
    """``handler500``: 503 with a self-contained page when the database cannot be reached."""
    exc = sys.exc_info()[1]
    if exc is not None and is_outage(exc):
        log.error("database unavailable: %s", exc)
        body = loader.get_template(template_name).render({})  # no request: no session, no user
        response = HttpResponse(body, status=503)
        response["Retry-After"] = "30"
        return response
    body = loader.get_template("500.html").render({})
    return HttpResponseServerError(body)

"""``/healthz``: the smallest Django view, for load balancers and as the load script's baseline.

It passes the whole middleware stack but touches neither templates nor the database
(``?db=1`` also runs ``SELECT 1``, for a deeper health check).
"""

from __future__ import annotations

from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe


@never_cache
@require_safe
def healthz(request: HttpRequest) -> HttpResponse:
    if request.GET.get("db") == "1":
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    return HttpResponse("ok", content_type="text/plain; charset=utf-8")

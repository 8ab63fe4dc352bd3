"""Middleware the push needs: gzip that leaves event streams alone, and the CPU time of a request.

Django's gzip compresses a streaming response through one ``GzipFile`` that is never flushed, so
an event would wait in the compressor until enough followed; a ``text/event-stream`` response
passes uncompressed (its events are small anyway). :class:`CpuTiming` tells the CPU seconds the
view spent, as ``Server-Timing: cpu;dur=<ms>``, when ``SERVER_TIMING`` is on (the live benchmark,
:mod:`skatschule.table.bench_live`, reads it; off by default: the figure is nobody else's business).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase
from django.middleware.gzip import GZipMiddleware

__all__ = ["GZipExceptStreams", "CpuTiming"]


class GZipExceptStreams(GZipMiddleware):
    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        if response.get("Content-Type", "").startswith("text/event-stream"):
            return response
        return super().process_response(request, response)


class CpuTiming:
    """The view's CPU time (this thread's), in a ``Server-Timing`` header; last in MIDDLEWARE, so
    it runs in the view's thread under ASGI too."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response
        self.on = bool(getattr(settings, "SERVER_TIMING", False))

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if not self.on:
            return self.get_response(request)
        start = time.thread_time()
        response = self.get_response(request)
        response["Server-Timing"] = f"cpu;dur={(time.thread_time() - start) * 1000:.1f}"
        return response

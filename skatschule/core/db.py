"""Database helpers shared by the apps."""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from typing import Any, TypeVar

from django.db import OperationalError, connection, transaction
from django.http import HttpRequest, HttpResponse

__all__ = ["retry_when_locked", "streaming_reads"]

_Request = TypeVar("_Request", bound=HttpRequest)


def streaming_reads() -> AbstractContextManager[object]:
    """Wrap the reads of a streamed download so that ``.iterator()`` really streams.

    On PostgreSQL, ``.iterator()`` uses a server-side cursor; outside a transaction Django
    declares it ``WITH HOLD``, and PostgreSQL then computes the *whole* result before the
    first row arrives. Inside a transaction the cursor delivers rows as they are produced.
    On SQLite (which always reads row by row) no transaction is opened: with
    ``transaction_mode=IMMEDIATE`` it would hold the write lock for the whole download.
    """
    return transaction.atomic() if connection.vendor == "postgresql" else nullcontext()


def retry_when_locked(
    give_up: Callable[[_Request], HttpResponse],
) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """Decorate a writing view: run it again when SQLite reports a lock (concurrent double submits).

    A safety net: settings make SQLite writers queue (BEGIN IMMEDIATE, a 20 s busy timeout),
    so a lock error should not reach here any more. Only for views whose services are
    idempotent (a retry must be safe). If the database stays locked, ``give_up(request)``
    answers (a 503 with a message, not a 500).
    """

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @functools.wraps(view)
        def wrapper(request: _Request, *args: Any, **kwargs: Any) -> HttpResponse:
            for pause in (0.05, 0.1, 0.2, 0.4, 0.8):
                try:
                    return view(request, *args, **kwargs)
                except OperationalError as exc:
                    if "locked" not in str(exc):
                        raise
                    time.sleep(pause)
            return give_up(request)

        return wrapper

    return decorate

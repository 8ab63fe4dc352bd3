"""Database helpers shared by the apps."""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from typing import Any, TypeVar

from django.db import InterfaceError, OperationalError, connection, transaction
from django.http import HttpRequest, HttpResponse

__all__ = ["is_outage", "retry_when_locked", "streaming_reads"]

# PostgreSQL's SQLSTATEs of a server that is not there: class 08 (connection exception), the
# server shutting down, crashed or starting up (57P01-57P03), no connection slot free (53300).
_OUTAGE_SQLSTATES = ("08", "57P01", "57P02", "57P03", "53300")
# SQLite's primary result codes of a file that cannot be used: BUSY, LOCKED, CANTOPEN, IOERR.
_OUTAGE_SQLITE_CODES = frozenset({5, 6, 14, 10})

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


def is_outage(exc: BaseException) -> bool:
    """Whether a database error means the database cannot be reached (refused, lost, restarting,
    busy): a clean 503 then, and the request may be tried again.

    Every other error (a unique violation, a bad query, a deadlock, a statement timeout) is a
    fault of the site: a 500, logged with its traceback. psycopg raises a client-side failure
    (refused, lost connection) without a SQLSTATE; the server's errors carry one.
    """
    if isinstance(exc, InterfaceError):
        return True
    if not isinstance(exc, OperationalError):
        return False
    cause = exc.__cause__
    code = getattr(cause, "sqlite_errorcode", None)
    if isinstance(code, int):
        return code & 0xFF in _OUTAGE_SQLITE_CODES
    state = getattr(cause, "sqlstate", None)
    return state is None or str(state).startswith(_OUTAGE_SQLSTATES)


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

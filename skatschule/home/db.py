"""Database helpers shared by the apps."""

from __future__ import annotations

from contextlib import AbstractContextManager, nullcontext

from django.db import connection, transaction

__all__ = ["streaming_reads"]


def streaming_reads() -> AbstractContextManager[object]:
    """Wrap the reads of a streamed download so that ``.iterator()`` really streams.

    On PostgreSQL, ``.iterator()`` uses a server-side cursor; outside a transaction Django
    declares it ``WITH HOLD``, and PostgreSQL then computes the *whole* result before the
    first row arrives. Inside a transaction the cursor delivers rows as they are produced.
    On SQLite (which always reads row by row) no transaction is opened: with
    ``transaction_mode=IMMEDIATE`` it would hold the write lock for the whole download.
    """
    return transaction.atomic() if connection.vendor == "postgresql" else nullcontext()

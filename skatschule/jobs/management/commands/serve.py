"""The site under uvicorn (ASGI) with a worker beside it: ``manage.py serve`` (``make run``).

One process on a fresh machine: the web server and, in a thread, the jobs' worker
(:mod:`skatschule.jobs.worker`), so events pushed by the worker reach the streams through the
in-process broker (:mod:`skatschule.push`). With ``REDIS_URL`` set the events go through Redis
and separate ``run_jobs`` workers serve as well (``--no-worker``); in production gunicorn runs
uvicorn workers (README, "Deploy / Betrieb").
"""

from __future__ import annotations

import threading
from typing import Any

from django.core.management.base import BaseCommand

from skatschule.jobs.worker import Loop, has_database_backend


class Command(BaseCommand):
    help = "Startet die Seite unter uvicorn (ASGI) mit einem Rechner für Hintergrundaufgaben im selben Prozess."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("address", nargs="?", default="127.0.0.1:8000", help="Host:Port (127.0.0.1:8000)")
        parser.add_argument("--no-worker", action="store_true", help="ohne Rechner (eigene run_jobs-Prozesse)")
        parser.add_argument("--log-level", default="info")

    def handle(self, *args: Any, address: str, no_worker: bool, log_level: str, **options: Any) -> None:
        import uvicorn

        host, _, port = address.rpartition(":")
        config = uvicorn.Config(
            "skatschule.asgi:application",
            host=host or "127.0.0.1",
            port=int(port),
            lifespan="off",
            log_level=log_level,
            timeout_graceful_shutdown=2,  # open event streams end; browsers reconnect to the next server
        )
        loop = None if no_worker or not has_database_backend() else Loop()
        thread = None
        if loop is not None:
            thread = threading.Thread(target=loop.run, name="jobs-worker", daemon=True)
            thread.start()
        try:
            uvicorn.Server(config).run()
        finally:
            if loop is not None and thread is not None:
                loop.stop()
                thread.join(timeout=30)

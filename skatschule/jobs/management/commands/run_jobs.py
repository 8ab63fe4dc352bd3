"""A worker for the jobs: ``manage.py run_jobs`` (``make run`` starts one beside the server).

With the database backend (the default) it takes queued tasks from the database and runs them.
Between two rounds it recovers the jobs of workers that died (:func:`skatschule.jobs.services.
recover_stale`). While the database cannot be reached it waits and tries again (0.5 s, doubling
up to 15 s) for as long as it takes: an outage never ends the worker. With RQ in production the
workers are ``manage.py rqworker``; there this command runs with ``--recover-only`` once per host
(see skatschule/operations/README.md, "Hintergrundarbeit").
"""

from __future__ import annotations

import signal
import threading
from types import FrameType
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import InterfaceError, OperationalError, close_old_connections, connections
from django.utils.crypto import get_random_string
from django_tasks import DEFAULT_TASK_BACKEND_ALIAS, DEFAULT_TASK_QUEUE_NAME, task_backends
from django_tasks_db.backend import DatabaseBackend
from django_tasks_db.management.commands.db_worker import Worker

from skatschule.jobs import services

RETRY_FIRST = 0.5
RETRY_MOST = 15.0
"""Seconds between two tries while the database cannot be reached: doubling from the first to the most."""


class Command(BaseCommand):
    help = "Rechnet Hintergrundaufgaben (Analysen, Prüfungen, Rätsel) und holt die ausgefallener Rechner zurück."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--interval", type=float, default=0.5, help="Sekunden Pause, wenn nichts wartet")
        parser.add_argument("--once", action="store_true", help="nur abarbeiten, was wartet, dann enden")
        parser.add_argument("--recover-only", action="store_true", help="nur ausgefallene Aufgaben zurückholen (RQ)")

    def handle(self, *args: Any, interval: float, once: bool, recover_only: bool, **options: Any) -> None:
        self.running = True
        self.worker = None if recover_only else _worker()
        self.stopped = threading.Event()
        signal.signal(signal.SIGTERM, self.stop)
        signal.signal(signal.SIGINT, self.stop)
        pause = 0.0
        while self.running:
            try:
                self.round()
            except (OperationalError, InterfaceError) as error:  # the database is down or went away
                if once:
                    raise
                pause = min(max(2 * pause, RETRY_FIRST), RETRY_MOST)
                self.stderr.write(f"Datenbank nicht erreichbar, neuer Versuch in {pause:g} s: {error}".strip())
                connections.close_all()  # a broken connection is opened again by the next query
                self.stopped.wait(pause)
                continue
            if pause:
                self.stdout.write("Datenbank wieder erreichbar.")
                pause = 0.0
            if once:
                break
            self.stopped.wait(interval)

    def stop(self, signum: int, frame: FrameType | None) -> None:
        self.running = False  # the task under way is finished first
        self.stopped.set()
        if self.worker is not None:
            self.worker.running = False

    def round(self) -> None:
        """Recover the jobs of dead workers, then run what waits."""
        close_old_connections()
        services.recover_stale()
        if self.worker is not None:
            self.worker.running = True
            self.worker.run()


def _worker() -> Worker:
    if not isinstance(task_backends[DEFAULT_TASK_BACKEND_ALIAS], DatabaseBackend):
        raise CommandError("run_jobs rechnet nur mit dem Datenbank-Backend; für RQ: manage.py rqworker")
    return Worker(
        queue_names=[DEFAULT_TASK_QUEUE_NAME],
        interval=0,
        batch=True,
        backend_name=DEFAULT_TASK_BACKEND_ALIAS,
        startup_delay=False,
        max_tasks=None,
        worker_id=get_random_string(32),
        excluded_queue_names=[],
    )

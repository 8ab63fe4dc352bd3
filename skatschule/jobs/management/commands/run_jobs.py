"""A worker for the jobs: ``manage.py run_jobs`` (``make run`` starts one beside the server).

With the database backend (the default) it takes queued tasks from the database and runs them.
Between two rounds it recovers the jobs of workers that died (:func:`skatschule.jobs.services.
recover_stale`). With RQ in production the workers are ``manage.py rqworker``; there this command
runs with ``--recover-only`` once per host (see the README, "Hintergrundarbeit").
"""

from __future__ import annotations

import signal
import time
from types import FrameType
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import close_old_connections
from django.utils.crypto import get_random_string
from django_tasks import DEFAULT_TASK_BACKEND_ALIAS, DEFAULT_TASK_QUEUE_NAME, task_backends
from django_tasks_db.backend import DatabaseBackend
from django_tasks_db.management.commands.db_worker import Worker

from skatschule.jobs import services


class Command(BaseCommand):
    help = "Rechnet Hintergrundaufgaben (Analysen, Prüfungen, Rätsel) und holt die ausgefallener Rechner zurück."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--interval", type=float, default=0.5, help="Sekunden Pause, wenn nichts wartet")
        parser.add_argument("--once", action="store_true", help="nur abarbeiten, was wartet, dann enden")
        parser.add_argument("--recover-only", action="store_true", help="nur ausgefallene Aufgaben zurückholen (RQ)")

    def handle(self, *args: Any, interval: float, once: bool, recover_only: bool, **options: Any) -> None:
        self.running = True
        worker: Worker | None = None
        if not recover_only:
            if not isinstance(task_backends[DEFAULT_TASK_BACKEND_ALIAS], DatabaseBackend):
                raise CommandError("run_jobs rechnet nur mit dem Datenbank-Backend; für RQ: manage.py rqworker")
            worker = Worker(
                queue_names=[DEFAULT_TASK_QUEUE_NAME],
                interval=0,
                batch=True,
                backend_name=DEFAULT_TASK_BACKEND_ALIAS,
                startup_delay=False,
                max_tasks=None,
                worker_id=get_random_string(32),
                excluded_queue_names=[],
            )

        def stop(signum: int, frame: FrameType | None) -> None:
            self.running = False  # the task under way is finished first
            if worker is not None:
                worker.running = False

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        while self.running:
            close_old_connections()
            services.recover_stale()
            if worker is not None:
                worker.running = True
                worker.run()
            if once:
                break
            time.sleep(interval)

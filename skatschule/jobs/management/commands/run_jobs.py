"""A worker for the jobs: ``manage.py run_jobs`` (``make run`` runs one inside ``manage.py serve``).

With the database backend (the default) it takes queued tasks from the database and runs them,
woken by the push broker when a job is queued (:mod:`skatschule.jobs.worker`). Between two
rounds it recovers the jobs of workers that died (:func:`skatschule.jobs.services.recover_stale`).
With RQ in production the workers are ``manage.py rqworker``; there this command runs with
``--recover-only`` once per host (see skatschule/operations/README.md, "Hintergrundarbeit").
While the database cannot be reached it waits and tries again: an outage never ends the worker.
"""

from __future__ import annotations

import signal
from types import FrameType
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from skatschule.jobs.worker import Loop, has_database_backend


class Command(BaseCommand):
    help = "Rechnet Hintergrundaufgaben (Analysen, Prüfungen, Rätsel) und holt die ausgefallener Rechner zurück."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--interval", type=float, default=2.0, help="längste Pause in Sekunden (eine neue Aufgabe weckt früher)"
        )
        parser.add_argument("--once", action="store_true", help="nur abarbeiten, was wartet, dann enden")
        parser.add_argument("--recover-only", action="store_true", help="nur ausgefallene Aufgaben zurückholen (RQ)")

    def handle(self, *args: Any, interval: float, once: bool, recover_only: bool, **options: Any) -> None:
        if not recover_only and not has_database_backend():
            raise CommandError("run_jobs rechnet nur mit dem Datenbank-Backend; für RQ: manage.py rqworker")
        loop = Loop(interval=interval, recover_only=recover_only, say=self.stderr.write)

        def stop(signum: int, frame: FrameType | None) -> None:
            loop.stop()

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        loop.run(once=once)

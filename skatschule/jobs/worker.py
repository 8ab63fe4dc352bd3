"""The worker's loop: run what is queued, recover what was lost, then wait for the next job.

Used by ``manage.py run_jobs`` (a process of its own) and ``manage.py serve`` (a thread beside
the web server, so the in-process broker carries the worker's events to the streams). It waits
on the broker's wake-up channel (:data:`skatschule.push.broker.WAKE`, published when a job is
queued) rather than looking every half second; ``interval`` is only the longest wait.
"""

from __future__ import annotations

import threading

from django.db import close_old_connections
from django.utils.crypto import get_random_string
from django_tasks import DEFAULT_TASK_BACKEND_ALIAS, DEFAULT_TASK_QUEUE_NAME, task_backends
from django_tasks_db.backend import DatabaseBackend
from django_tasks_db.management.commands.db_worker import Worker

from skatschule.push import broker
from skatschule.push.broker import WAKE

from . import services

__all__ = ["Loop", "has_database_backend"]


def has_database_backend() -> bool:
    return isinstance(task_backends[DEFAULT_TASK_BACKEND_ALIAS], DatabaseBackend)


class Loop:
    """One worker: :meth:`run` until :meth:`stop` (the task under way is finished first)."""

    def __init__(self, *, interval: float = 2.0, recover_only: bool = False) -> None:
        self.interval = interval
        self.stopped = threading.Event()
        self.worker: Worker | None = None
        if not recover_only:
            self.worker = Worker(
                queue_names=[DEFAULT_TASK_QUEUE_NAME],
                interval=0,
                batch=True,
                backend_name=DEFAULT_TASK_BACKEND_ALIAS,
                startup_delay=False,
                max_tasks=None,
                worker_id=get_random_string(32),
                excluded_queue_names=[],
            )

    def stop(self) -> None:
        self.stopped.set()
        if self.worker is not None:
            self.worker.running = False
        broker().publish(WAKE)

    def run(self, *, once: bool = False) -> None:
        try:
            while not self.stopped.is_set():
                close_old_connections()
                services.recover_stale()
                if self.worker is not None:
                    self.worker.running = True
                    self.worker.run()
                if once or self.stopped.is_set():
                    break
                broker().wait(WAKE, self.interval)
        finally:
            close_old_connections()

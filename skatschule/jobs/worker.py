"""The worker's loop: run what is queued, recover what was lost, then wait for the next job.

Used by ``manage.py run_jobs`` (a process of its own) and ``manage.py serve`` (a thread beside
the web server, so the in-process broker carries the worker's events to the streams). It waits
on the broker's wake-up channel (:data:`skatschule.push.broker.WAKE`, published when a job is
queued) rather than looking every half second; ``interval`` is only the longest wait. While the
database cannot be reached it waits and tries again (0.5 s, doubling up to 15 s) for as long as
it takes: an outage never ends the worker.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from django.db import InterfaceError, OperationalError, close_old_connections, connections
from django.utils.crypto import get_random_string
from django_tasks import DEFAULT_TASK_BACKEND_ALIAS, DEFAULT_TASK_QUEUE_NAME, task_backends
from django_tasks_db.backend import DatabaseBackend
from django_tasks_db.management.commands.db_worker import Worker

from skatschule.push import broker
from skatschule.push.broker import WAKE

from . import services

__all__ = ["Loop", "has_database_backend"]

RETRY_FIRST = 0.5
RETRY_MOST = 15.0
"""Seconds between two tries while the database cannot be reached: doubling from the first to the most."""

logger = logging.getLogger(__name__)


def has_database_backend() -> bool:
    return isinstance(task_backends[DEFAULT_TASK_BACKEND_ALIAS], DatabaseBackend)


class Loop:
    """One worker: :meth:`run` until :meth:`stop` (the task under way is finished first)."""

    def __init__(
        self, *, interval: float = 2.0, recover_only: bool = False, say: Callable[[str], object] = logger.warning
    ) -> None:
        self.interval = interval
        self.say = say
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
        pause = 0.0
        try:
            while not self.stopped.is_set():
                try:
                    self._round()
                except (OperationalError, InterfaceError) as error:  # the database is down or went away
                    if once:
                        raise
                    pause = min(max(2 * pause, RETRY_FIRST), RETRY_MOST)
                    self.say(f"Datenbank nicht erreichbar, neuer Versuch in {pause:g} s: {error}".strip())
                    connections.close_all()  # a broken connection is opened again by the next query
                    self.stopped.wait(pause)
                    continue
                if pause:
                    self.say("Datenbank wieder erreichbar.")
                    pause = 0.0
                if once or self.stopped.is_set():
                    break
                broker().wait(WAKE, self.interval)
        finally:
            close_old_connections()

    def _round(self) -> None:
        """Recover the jobs of dead workers, then run what waits."""
        close_old_connections()
        services.recover_stale()
        if self.worker is not None:
            self.worker.running = True
            self.worker.run()

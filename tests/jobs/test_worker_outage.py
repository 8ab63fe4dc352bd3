"""Issue 33, M4: the worker survives a database outage.

A real worker (``manage.py run_jobs`` in its own process) reaches PostgreSQL through a small TCP
proxy of this test; stopping the proxy cuts every connection and refuses new ones, as a stopped
or unreachable database server does (the shared server itself is never stopped). The worker must
say so, wait, and run the jobs again once the proxy is back; it used to exit at the first error
of ``recover_stale()``."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from django.db import connection
from django.test import override_settings

from skatschule.jobs import services
from skatschule.jobs.models import Job, JobStatus
from skatschule.jobs.probe import PROBE
from skatschule.owners import Owner
from tests.jobs.test_worker import DB_TASKS, ROOT, wait_for
from tests.production.servers import database_url

OWNER = Owner.for_session("o" * 32)


class Proxy:
    """Forwards a local port to the database server; :meth:`stop` cuts it off, :meth:`start` opens it again."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.port = 0
        self.open: list[socket.socket] = []
        self.lock = threading.Lock()
        self.start()

    def start(self) -> None:
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", self.port))
        self.port = self.listener.getsockname()[1]
        self.listener.listen()
        threading.Thread(target=self._accept, args=(self.listener,), daemon=True).start()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:  # stopped
                return
            server = socket.create_connection(self.target)
            with self.lock:
                self.open += [client, server]
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        for end in (source, sink):
            try:
                end.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def stop(self) -> None:
        try:
            self.listener.shutdown(socket.SHUT_RDWR)  # wakes the thread waiting in accept()
        except OSError:
            pass
        self.listener.close()
        with self.lock:
            for end in self.open:
                try:
                    end.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                end.close()
            self.open.clear()


def _submit(key: str) -> Job:
    with override_settings(TASKS=DB_TASKS):
        job = services.submit(owner=OWNER, kind=PROBE, key=key, payload={"seconds": 0})
    assert job.status == JobStatus.QUEUED
    return job


def _done(job: Job) -> bool:
    job.refresh_from_db()
    return job.status == JobStatus.DONE


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_worker_waits_out_a_database_outage_and_goes_on(tmp_path: Path) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the database server is reached over TCP only on PostgreSQL")
    settings = connection.settings_dict
    proxy = Proxy((settings.get("HOST") or "127.0.0.1", int(settings.get("PORT") or 5432)))
    through_proxy = {**settings, "HOST": "127.0.0.1", "PORT": proxy.port}
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env.update(DATABASE_URL=database_url(through_proxy), TASKS_BACKEND="db", REDIS_URL="")
    log = tmp_path / "worker.log"
    with log.open("wb") as errors:
        worker = subprocess.Popen(
            [sys.executable, "manage.py", "run_jobs", "--interval", "0.1"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=errors,
        )
    try:
        before = _submit("before")
        wait_for(lambda: _done(before))
        proxy.stop()  # the database is gone for the worker
        wait_for(lambda: "Datenbank nicht erreichbar" in log.read_text())
        during = _submit("during")  # asked for while the worker cannot reach the database
        wait_for(lambda: log.read_text().count("Datenbank nicht erreichbar") >= 2)
        assert worker.poll() is None, log.read_text()
        proxy.start()
        wait_for(lambda: _done(during), seconds=40)
        assert worker.poll() is None
        assert during.data and during.data["pid"] == worker.pid
    finally:
        proxy.stop()
        worker.terminate()
        try:
            worker.wait(timeout=15)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait()

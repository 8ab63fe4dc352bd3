"""The site under its ASGI server (``manage.py serve``) on the test database, and a reader of event
streams: for the tests of push across processes, reconnects and the browser tests at the table."""

from __future__ import annotations

import os
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import IO

from django.db import connection

from tests.production.servers import ROOT, database_url, free_port, wait_until_up


def test_database_url() -> str:
    if connection.vendor == "postgresql":
        return database_url(connection.settings_dict)
    return f"sqlite:///{connection.settings_dict['NAME']}"


class Server:
    """``manage.py serve`` (uvicorn; with ``worker`` the jobs' worker in it) on the test database
    at a fixed port: it can be stopped and started again there (a cut connection)."""

    def __init__(self, env: dict[str, str] | None = None, *, worker: bool = True) -> None:
        self.env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
        self.env.update(DATABASE_URL=test_database_url(), TASKS_BACKEND="db", REDIS_URL="", TABLE_BOT_TIME_CAP="0.05")
        self.env.update(env or {})
        self.worker = worker
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = [sys.executable, "manage.py", "serve", f"127.0.0.1:{self.port}", "--log-level", "warning"]
        self.proc = subprocess.Popen(
            command + ([] if self.worker else ["--no-worker"]),
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )

    def wait(self) -> None:
        assert self.proc is not None
        wait_until_up(self.proc, self.url)

    def stop(self) -> None:
        if self.proc is None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc = None


@contextmanager
def served(env: dict[str, str] | None = None, *, count: int = 1, worker: bool = True) -> Iterator[list[str]]:
    """``count`` servers (:class:`Server`) started side by side; yields their base URLs."""
    servers = [Server(env, worker=worker) for _ in range(count)]
    try:
        for server in servers:
            server.start()
        for server in servers:
            server.wait()
        yield [server.url for server in servers]
    finally:
        for server in servers:
            server.stop()


@dataclass(frozen=True)
class Message:
    event: str
    data: str


class Stream:
    """An open event stream read message by message (a read that waits longer than ``timeout``
    seconds fails the test rather than hanging it)."""

    def __init__(self, url: str, cookies: dict[str, str], timeout: float = 20) -> None:
        cookie = "; ".join(f"{k}={v}" for k, v in cookies.items())
        request = urllib.request.Request(url, headers={"Accept": "text/event-stream", "Cookie": cookie})
        self.response = urllib.request.urlopen(request, timeout=timeout)
        self.body: IO[bytes] = self.response

    def next(self) -> Message:
        event, data = "message", list[str]()
        for raw in self.body:
            line = raw.decode().rstrip("\n")
            if not line:
                if data or event != "message":
                    return Message(event, "\n".join(data))
                continue
            if line.startswith(":"):
                continue
            field, _, value = line.partition(": ")
            if field == "event":
                event = value
            elif field == "data":
                data.append(value)
        raise EOFError("the stream ended")

    def next_named(self, name: str) -> Message:
        while (message := self.next()).event != name:
            pass
        return message

    def close(self) -> None:
        self.response.close()

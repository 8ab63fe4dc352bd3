"""Start app servers (gunicorn) on loopback ports for the multi-server and load tests."""

from __future__ import annotations

import http.cookiejar
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tests.present import present

ROOT = Path(__file__).resolve().parents[2]
GUNICORN = Path(sys.executable).with_name("gunicorn")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def database_url(settings_dict: dict[str, Any]) -> str:
    """A DATABASE_URL for the (test) database Django is connected to."""
    user = urllib.parse.quote(settings_dict.get("USER") or "")
    password = settings_dict.get("PASSWORD") or ""
    auth = f"{user}:{urllib.parse.quote(password)}@" if password else (f"{user}@" if user else "")
    host = settings_dict.get("HOST") or "127.0.0.1"
    port = settings_dict.get("PORT") or 5432
    return f"postgres://{auth}{host}:{port}/{settings_dict['NAME']}"


@contextmanager
def gunicorn(env: dict[str, str], count: int = 1, workers: int = 1, threads: int = 2) -> Iterator[list[str]]:
    """``count`` separate gunicorn servers; yields their base URLs; stops them afterwards."""
    procs: list[subprocess.Popen[bytes]] = []
    urls: list[str] = []
    full_env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    full_env.update(env)
    try:
        for _ in range(count):
            port = free_port()
            procs.append(
                subprocess.Popen(
                    [
                        str(GUNICORN),
                        "skatschule.wsgi",
                        "-b",
                        f"127.0.0.1:{port}",
                        "-w",
                        str(workers),
                        "--threads",
                        str(threads),
                        "--log-level",
                        "warning",
                    ],
                    cwd=ROOT,
                    env=full_env,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.PIPE,
                )
            )
            urls.append(f"http://127.0.0.1:{port}")
        for proc, url in zip(procs, urls):
            wait_until_up(proc, url)
        yield urls
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def wait_until_up(proc: subprocess.Popen[bytes], url: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError("gunicorn exited: " + (proc.stderr.read() if proc.stderr else b"").decode()[-2000:])
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, OSError):
            time.sleep(0.2)
    raise RuntimeError(f"{url} did not come up in {timeout} s")


class Browser:
    """A tiny HTTP client with one cookie jar, usable against several servers."""

    def __init__(self) -> None:
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar), _NoRedirect())

    def cookie(self, name: str) -> str:
        return next((c.value or "" for c in self.jar if c.name == name), "")

    def request(
        self,
        url: str,
        data: dict[str, Any] | list[tuple[str, str]] | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, str]:
        body = urllib.parse.urlencode(data, doseq=True).encode() if data is not None else None
        req = urllib.request.Request(url, data=body, headers=headers or {})
        if body is not None:
            req.add_header("X-CSRFToken", self.cookie("csrftoken"))
            req.add_header("Referer", url)
        try:
            with self.opener.open(req, timeout=30) as response:
                return response.status, response.read().decode("utf-8", "replace")
        except urllib.error.HTTPError as err:
            return err.code, err.read().decode("utf-8", "replace")

    def login(self, base: str, username: str, password: str) -> None:
        status, html = self.request(base + "/konto/anmelden/")
        assert status == 200, status
        token = present(re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)).group(1)
        status, _ = self.request(
            base + "/konto/anmelden/", {"csrfmiddlewaretoken": token, "username": username, "password": password}
        )
        assert status == 302, f"login failed: {status}"


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        return None

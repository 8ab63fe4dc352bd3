"""When a part fails: Redis stopped mid-test, the database unreachable (issue 17, §3).

Redis: each test starts its OWN ``redis-server`` on a spare port (never the machine's shared
one), points the cache and ``cached_db`` sessions at it, and stops it halfway through.
Database: a child process runs the site with ``DATABASE_URL`` on a port where nothing listens.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client, override_settings
from django.urls import reverse

from skatschule.classrooms import services as classrooms

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
REDIS = shutil.which("redis-server")


def _spare_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class OwnRedis:
    """A private redis-server (no persistence) that the test can stop."""

    def __init__(self, tmp_path: Path) -> None:
        self.port = _spare_port()
        self.dir = tmp_path
        self.start()

    def start(self) -> None:
        """Start (or start again, on the same port) and wait until it answers."""
        assert REDIS is not None
        self.process = subprocess.Popen(
            [REDIS, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
            + ["--dir", str(self.dir)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError("own redis-server did not start")

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[OwnRedis]:
    if REDIS is None:
        pytest.skip("redis-server is not installed")
    server = OwnRedis(tmp_path)
    caches = {
        "default": {
            "BACKEND": "skatschule.core.cache.ResilientRedisCache",
            "LOCATION": server.url,
            "KEY_PREFIX": f"outage-test-{os.getpid()}",
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 1.0},
            "BREAKER_SECONDS": 0.5,  # the recovery test waits for the circuit breaker to close
        }
    }
    with override_settings(CACHES=caches, SESSION_ENGINE="django.contrib.sessions.backends.cached_db"):
        try:
            yield server
        finally:
            server.stop()


def _member(name: str = "ausfall", password: str | None = None) -> User:
    user = get_user_model().objects.create_user(name)
    if password:
        user.set_password(password)
        user.save()
    return user


def test_logged_in_pages_and_login_work_with_redis_stopped(own_redis: OwnRedis) -> None:
    teacher = _member("lehrerin-ausfall")
    classrooms.grant_teacher(user=teacher)
    room = classrooms.create_classroom(teacher=teacher, name="Ausfall-AG")
    member = _member("ausfall", password="Skat-Ausfall-2026")
    client = Client(raise_request_exception=False)
    assert (
        client.post(reverse("accounts:login"), {"username": "ausfall", "password": "Skat-Ausfall-2026"}).status_code
        == 302
    )
    assert client.get(reverse("training:dashboard")).status_code == 200
    assert cache.get(f"{cache.key_prefix}") is None  # the cache answers while Redis runs
    cache.set("probe", 1)
    assert cache.get("probe") == 1

    own_redis.stop()  # Redis goes away mid-test

    assert cache.get("probe") is None  # a miss, not an exception
    pages = [
        reverse("training:dashboard"),
        reverse("training:lessons"),
        reverse("training:review"),
        reverse("quizzes:index"),
        reverse("classrooms:index"),
        reverse("rules:index"),
        reverse("home:index"),
        reverse("training:exercise", args=["augen"]),
    ]
    for url in pages:
        response = client.get(url)
        assert response.status_code in (200, 302), (url, response.status_code)
        assert response.status_code < 500
    page = client.get(reverse("training:dashboard"))
    assert page.status_code == 200 and b"ausfall" in page.content  # still logged in: session from the database
    # a new login while Redis is down
    fresh = Client(raise_request_exception=False)
    response = fresh.post(reverse("accounts:login"), {"username": "ausfall", "password": "Skat-Ausfall-2026"})
    assert response.status_code == 302
    assert fresh.get(reverse("training:dashboard")).status_code == 200
    assert int(fresh.session["_auth_user_id"]) == member.pk
    # the join-code limiter cannot count: it closes with a clear 503 and joins nobody
    response = client.post(reverse("classrooms:join"), {"code": room.join_code})
    assert response.status_code == 503
    assert "Retry-After" in response
    assert "vorübergehend nicht möglich" in response.content.decode().lower()
    assert not room.memberships.filter(student=member).exists()
    # signups close the same way
    response = Client(raise_request_exception=False).post(
        reverse("accounts:signup"),
        {"username": "neu-im-ausfall", "password1": "Kreuz-Bube-77x", "password2": "Kreuz-Bube-77x"},
    )
    assert response.status_code == 503
    assert not get_user_model().objects.filter(username="neu-im-ausfall").exists()


def test_the_limiter_counts_again_when_redis_is_back(own_redis: OwnRedis, tmp_path: Path) -> None:
    from django.test import RequestFactory

    from skatschule.classrooms import join_limit

    request = RequestFactory().post("/", REMOTE_ADDR="203.0.113.9")
    request.user = _member("zurueck")
    with join_limit.attempt(request):
        pass
    own_redis.stop()
    with pytest.raises(join_limit.LimitUnavailable):
        with join_limit.attempt(request):
            pass
    # a new server on the same port: counting resumes (the resilient cache reconnects)
    own_redis.start()
    deadline = time.monotonic() + 10
    while True:
        try:
            with join_limit.attempt(request):
                break
        except join_limit.LimitUnavailable:
            assert time.monotonic() < deadline, "the limiter did not recover"
            time.sleep(0.1)


DB_DOWN_SCRIPT = textwrap.dedent(
    """
    import django, json
    django.setup()
    from django.test import Client
    c = Client(raise_request_exception=False)
    out = {}
    for name, method, url, data in [
        ("healthz", "get", "/healthz", None),
        ("readyz", "get", "/readyz", None),
        ("healthz_db", "get", "/healthz?db=1", None),
        ("exercise", "get", "/ueben/aufgabe/augen/", None),
        ("login", "post", "/konto/anmelden/", {"username": "x", "password": "y"}),
    ]:
        r = getattr(c, method)(url, data) if data else getattr(c, method)(url)
        out[name] = [r.status_code, r.content.decode("utf-8", "replace")[:4000], r.get("Retry-After")]
    print("RESULT " + json.dumps(out))
    """
)


def test_database_down_readiness_503_liveness_200_and_a_clean_503_page() -> None:
    env = dict(
        os.environ,
        DATABASE_URL=f"postgres://skatschule@127.0.0.1:{_spare_port()}/nowhere",  # nothing listens there
        SECRET_KEY="outage-test-" + "x" * 40,
        DEBUG="0",
        ALLOWED_HOSTS="testserver",
        SECURE_SSL_REDIRECT="0",
        REDIS_URL="",
        DJANGO_SETTINGS_MODULE="skatschule.settings",
        CONN_MAX_AGE="0",
        PGCONNECT_TIMEOUT="2",
    )
    done = subprocess.run(
        [sys.executable, "-c", DB_DOWN_SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    line = next((l for l in done.stdout.splitlines() if l.startswith("RESULT ")), None)
    assert line, done.stdout + done.stderr
    import json

    out = json.loads(line[len("RESULT ") :])
    assert out["healthz"][:2] == [200, "ok"]  # liveness does not touch the database
    assert out["readyz"][0] == 503 and out["readyz"][2]
    assert out["healthz_db"][0] == 503
    for name in ("exercise", "login"):
        status, body, retry = out[name]
        assert status == 503, (name, status, body[:300])
        assert "Vorübergehend nicht erreichbar" in body and "Traceback" not in body
        assert retry == "30"
